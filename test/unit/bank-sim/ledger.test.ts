/**
 * The simulator's ledger survives a restart: every change is a line of its
 * journal, replayed by the next process, with the indexes its calls look up by.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger, type Transaction } from '../../../src/bank-sim/ledger.ts';

describe("the bank simulator's ledger", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bank-sim-ledger-'));
    file = join(dir, 'state', 'bank-sim.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const transaction = (token: string, resNum: string): Transaction => ({
    token,
    terminal: '11223344',
    amount: 120_000,
    res_num: resNum,
    redirect_url: 'http://127.0.0.1:1/return',
    created_at: '2026-11-22T10:00:00.000Z',
    refunds: {},
  });

  it('gives a restarted simulator every transaction as last changed, every operation and transfer, found by token, RefNum and ResNum', () => {
    const ledger = new Ledger(file);
    const paid = transaction('t1', 'pay_1');
    ledger.add(paid);
    ledger.add(transaction('t2', 'pay_2'));
    paid.outcome = 'success';
    paid.ref_num = '12345678901234';
    ledger.changed(paid);
    ledger.record({
      kind: 'confirm',
      operation_key: 'confirm:1',
      res_num: 'pay_1',
      ref_num: '12345678901234',
      amount: 120_000,
      at: '2026-11-22T10:01:00.000Z',
    });
    ledger.addTransfer({
      transfer_id: 'payout:1',
      iban: 'IR000000000000000000000000',
      amount: 5,
      description: '',
      trace_no: '1',
      at: '2026-11-22T11:00:00.000Z',
    });
    assert.equal(readFileSync(file, 'utf8').trim().split('\n').length, 5, 'one line per change');

    const restarted = new Ledger(file);
    assert.equal(restarted.byRef('12345678901234')?.token, 't1');
    assert.equal(restarted.byToken('t1')?.outcome, 'success');
    assert.deepEqual(
      restarted.byResNum('pay_2').map((t) => t.token),
      ['t2'],
    );
    assert.deepEqual(
      restarted.operations('pay_1').map((o) => o.kind),
      ['confirm'],
    );
    assert.deepEqual(restarted.operations('pay_2'), []);
    assert.equal(restarted.transfer('payout:1')?.amount, 5);
    assert.deepEqual(
      restarted.unconfirmedPaid().map((t) => t.token),
      ['t1'],
      'paid and not yet confirmed',
    );
    const again = restarted.byToken('t1')!;
    again.confirmed_at = '2026-11-22T10:01:00.000Z';
    restarted.changed(again);
    assert.deepEqual(restarted.unconfirmedPaid(), []);
  });

  it('drops a last line a crash left half written, and refuses a damaged line before the end', () => {
    const ledger = new Ledger(file);
    ledger.add(transaction('t1', 'pay_1'));
    appendFileSync(file, '{"txn":{"token":"t2","res_');
    const restarted = new Ledger(file);
    assert.deepEqual(
      restarted.byResNum('pay_1').map((t) => t.token),
      ['t1'],
    );
    assert.equal(restarted.byToken('t2'), undefined);
    restarted.add(transaction('t3', 'pay_3'));
    assert.deepEqual(
      new Ledger(file).byResNum('pay_3').map((t) => t.token),
      ['t3'],
      "the next change took the half line's place",
    );

    appendFileSync(
      file,
      'not json\n{"op":{"kind":"token","operation_key":"k","res_num":"pay_1","ref_num":null,"amount":1,"at":"x"}}\n',
    );
    assert.throws(() => new Ledger(file), /line 3 is not JSON/);
  });

  it('reads a file an earlier simulator wrote whole, and journals after it', () => {
    const legacy = join(dir, 'bank-sim.json');
    const old = { ...transaction('t1', 'pay_1'), outcome: 'success' as const, ref_num: '99' };
    writeFileSync(legacy, JSON.stringify({ transactions: { t1: old }, operations: [], transfers: {} }));
    const ledger = new Ledger(legacy);
    assert.equal(ledger.byRef('99')?.token, 't1');
    ledger.add(transaction('t2', 'pay_2'));
    const restarted = new Ledger(legacy);
    assert.deepEqual(
      ['pay_1', 'pay_2'].flatMap((resNum) => restarted.byResNum(resNum).map((t) => t.token)),
      ['t1', 't2'],
    );
  });
});
