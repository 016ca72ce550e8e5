/**
 * The work of the operations that move money, the same whatever protocol
 * asks for them (src/psps/sep/simulator-rest.ts: SEP's; src/psps/mellat/simulator.ts: Behpardakht's): each changes
 * a paid transaction once, journals it, and records the operation under the
 * caller's key. A call that finds the work done does nothing: the protocol
 * answers "already".
 */
import { now, type Ledger, type Transaction } from './ledger.ts';

const record = (ledger: Ledger, kind: 'confirm' | 'settle' | 'reverse', key: string, txn: Transaction) =>
  ledger.record({
    kind,
    operation_key: key,
    res_num: txn.res_num,
    ref_num: txn.ref_num ?? null,
    amount: txn.amount,
    at: now(),
  });

/** Confirms (verifies) a paid transaction, unless reversed; "delay in verification" stays unconfirmed until `delaySeconds` after the choice, and at least once. */
export function confirmOnce(ledger: Ledger, txn: Transaction | undefined, key: string, delaySeconds: number): void {
  if (txn === undefined || txn.reversed_at !== undefined) return;
  if (txn.outcome === 'delay') {
    const due = Date.parse(txn.chosen_at ?? now()) + delaySeconds * 1000;
    if (!txn.answered_in_progress || Date.now() < due) {
      txn.answered_in_progress = true;
      ledger.changed(txn);
      return;
    }
  }
  if (txn.confirmed_at !== undefined) return;
  txn.confirmed_at = now();
  ledger.changed(txn);
  record(ledger, 'confirm', key, txn);
}

/** Settles a confirmed transaction that was neither reversed nor settled. */
export function settleOnce(ledger: Ledger, txn: Transaction | undefined, key: string): void {
  if (
    txn === undefined ||
    txn.confirmed_at === undefined ||
    txn.reversed_at !== undefined ||
    txn.settled_at !== undefined
  )
    return;
  txn.settled_at = now();
  ledger.changed(txn);
  record(ledger, 'settle', key, txn);
}

/** Reverses a transaction that was neither settled nor reversed. */
export function reverseOnce(ledger: Ledger, txn: Transaction | undefined, key: string): void {
  if (txn === undefined || txn.settled_at !== undefined || txn.reversed_at !== undefined) return;
  txn.reversed_at = now();
  ledger.changed(txn);
  record(ledger, 'reverse', key, txn);
}
