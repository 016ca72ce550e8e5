/**
 * Races against the real stack (test/races, docs/SECURITY.md#invariants-between-payments-and-requests):
 * conflicting requests fired at the same instant, a few rounds of them, and the ledger checked as the
 * operator checks it.
 */
import assert from 'node:assert/strict';
import type { Db } from '../../src/db/database.ts';
import { cli } from './cli.ts';
import { assertLedgerBalanced } from './ledger.ts';

/** `n` calls of `call` started together: none waits for another to begin. */
export function atOnce<T>(n: number, call: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => call(i)));
}

/** The ledger's invariants for these merchants (the check `ledger check` runs, scoped): after each round. */
export async function assertMerchantLedger(db: Db, merchantIds: string[], when: string): Promise<void> {
  await assertLedgerBalanced(db, when, { merchantIds });
}

/**
 * `ledger check` of the operator's CLI, as a separate process: exit 0 and `ok`. Every posting of the suite's
 * ledger, and the records of the race's merchants: other tests seed records straight into the tables for
 * merchants the check after each test leaves out (test/support/ledger.ts markSeeded), which the whole check
 * would count as breaks.
 */
export async function assertCliLedgerCheck(merchantIds: string[]): Promise<void> {
  const check = await cli('ledger', 'check', '--json', '--merchant', merchantIds.join(','));
  assert.equal(check.code, 0, `${check.stderr}\n${check.stdout}`);
  assert.equal((JSON.parse(check.stdout) as { ok: boolean }).ok, true, check.stdout);
}
