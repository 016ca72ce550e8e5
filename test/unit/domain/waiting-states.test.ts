/**
 * Nothing stays stuck: every state of every record's list in src/domain is final or a waiting
 * state with its bound and its sweep or alert, in the code (src/domain/waiting-states.ts) and in
 * docs/RELIABILITY.md's table, and the two agree.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TRANSITIONS } from '../../../src/domain/payment.ts';
import { FINAL_STATES, RECORD_STATES, WAITING_STATES, type WaitingRecord } from '../../../src/domain/waiting-states.ts';

const RECORDS = Object.keys(RECORD_STATES) as WaitingRecord[];

/** The rows of the waiting-states table: record, state, and the past-the-bound column. */
function documentedRows(markdown: string): Map<string, { bound: string; past: string }> {
  const section = markdown.slice(markdown.indexOf('## Waiting states'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| record | state |')));
  const rows = new Map<string, { bound: string; past: string }>();
  for (const line of table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| record |'))) {
    const cells = line.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '').trim());
    rows.set(`${cells[0]} ${cells[1]!.replace(/`/g, '')}`, { bound: cells[3]!, past: cells[4]! });
  }
  return rows;
}

describe('waiting states (docs/RELIABILITY.md#waiting-states)', () => {
  it('every state of every record is final or waiting, never both, and each waiting state is listed once', () => {
    for (const record of RECORDS) {
      const waiting = WAITING_STATES.filter((w) => w.record === record).map((w) => w.state);
      const final = FINAL_STATES[record] as readonly string[];
      assert.equal(new Set(waiting).size, waiting.length, `${record}: a state listed twice`);
      for (const state of RECORD_STATES[record]) {
        assert.ok(
          waiting.includes(state) !== final.includes(state),
          `${record} ${state}: final or waiting, exactly one`,
        );
      }
      for (const state of [...waiting, ...final])
        assert.ok(
          (RECORD_STATES[record] as readonly string[]).includes(state),
          `${record} ${state} is not a state of the record`,
        );
    }
  });

  it("a payment's final states are exactly those no transition leaves", () => {
    const noWayOut = Object.entries(TRANSITIONS)
      .filter(([, to]) => to.length === 0)
      .map(([from]) => from);
    assert.deepEqual([...FINAL_STATES.payment].sort(), noWayOut.sort());
  });

  it('the table in docs/RELIABILITY.md has every waiting state with a bound and the same sweep or raise, and nothing else', () => {
    const rows = documentedRows(readFileSync('docs/RELIABILITY.md', 'utf8'));
    assert.ok(rows.size > 0, 'the table is found');
    for (const w of WAITING_STATES) {
      const row = rows.get(`${w.record} ${w.state}`);
      assert.ok(row !== undefined, `${w.record} ${w.state} is in the table`);
      assert.ok(row.bound.length > 0, `${w.record} ${w.state} has a bound`);
      const past = w.past === 'none' ? /^none$/ : new RegExp(`^\\*\\*${w.past}\\*\\*`);
      assert.match(row.past, past, `${w.record} ${w.state}: past the bound`);
      if (w.past === 'none') assert.match(row.bound, /at rest/, `${w.record} ${w.state} is at rest in the table too`);
    }
    assert.equal(rows.size, WAITING_STATES.length, 'no row the code does not know');
  });
});
