/**
 * The ledger's tables (migration 0020, docs/LEDGER.md), beside schema.ts,
 * which lists them in the Database.
 */
import type { Generated } from 'kysely';

export interface LedgerPostingsTable {
  id: Generated<number>;
  /** What caused it, unique: a retried write posts nothing twice. */
  cause: string;
  movement: string;
  merchant_id: string;
  mode: 'test' | 'live';
  payment_id: string | null;
  refund_id: string | null;
  settlement_id: string | null;
  created_at: Date;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  posting_id: number;
  merchant_id: string;
  mode: 'test' | 'live';
  account: string;
  /** Signed rials; a posting's entries sum to zero. */
  amount: number;
  created_at: Date;
}
