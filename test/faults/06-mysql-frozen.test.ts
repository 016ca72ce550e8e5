/**
 * MySQL hangs instead of dying: the private MariaDB gets SIGSTOP under load
 * and SIGCONT 20 s later. Its sockets stay open and nothing answers, which
 * without bounds holds every request until TCP gives up. Every request is
 * answered within the gateway's bound on one request (a success, or 503
 * with Retry-After), and afterwards nothing is lost or doubled.
 */
import assert from 'node:assert/strict';
import { recordFigures } from '../support/faults/fault-stack.ts';
import { loadThroughFreeze } from '../support/faults/through-freeze.ts';

describe('fault: MySQL frozen (SIGSTOP) for 20 s under load', () => {
  it('answers every request within the bound meanwhile, then every create has exactly one paid payment', async () => {
    const figures = await loadThroughFreeze({
      scenario: 'mysql_frozen',
      freeze: (s) => s.mariadb.freeze(),
      thaw: (s) => s.mariadb.thaw(),
      freezeMs: 20_000,
      freezeAfterMs: 4_000,
      creates: 120,
      everyMs: 200,
    });
    recordFigures('mysql_frozen', figures);
    assert.ok((figures.answered_503 as number) > 0, 'the freeze was seen by clients');
    assert.equal(figures.unanswered, 0);
    assert.equal(figures.answered_other_5xx, 0);
    assert.ok(
      (figures.max_request_ms as number) <= (figures.request_bound_ms as number),
      `slowest requests: ${JSON.stringify(figures.slowest)}`,
    );
    assert.equal(figures.duplicates, 0);
    assert.equal(figures.lost, 0);
    assert.equal(figures.payments, 120);
    assert.equal(figures.records_differing_from_workflows, 0);
    assert.equal(figures.duplicate_events, 0);
  });
});
