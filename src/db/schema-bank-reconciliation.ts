/**
 * The tables of bank reconciliation (migration 0033, docs/psps/README.md#bank-reconciliation),
 * beside schema.ts, which lists them in the Database.
 */

/** One reconciliation of a PSP terminal's Tehran day (docs/psps/README.md#bank-reconciliation); the newest of a day stands. */
export interface BankReconciliationRunsTable {
  id: string;
  mode: 'test' | 'live';
  psp: string;
  terminal_id: string;
  day: string;
  source: 'psp' | 'file';
  digest: string;
  matched: number;
  bank_only: number;
  gateway_only: number;
  amount_mismatch: number;
  created_at: Date;
}

export interface BankReconciliationItemsTable {
  run_id: string;
  position: number;
  kind: 'matched' | 'bank_only' | 'gateway_only' | 'amount_mismatch';
  payment_id: string | null;
  order_id: string;
  ref_num: string | null;
  bank_amount: number | string | null;
  gateway_amount: number | string | null;
  card_pan: string | null;
}
