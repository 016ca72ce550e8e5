/**
 * The tables of split settlement (migration 0039, docs/LEDGER.md#split-settlement),
 * beside schema.ts, which lists them in the Database.
 */
import type { BeneficiaryStatus } from '../domain/splits.ts';
import type { Defaulted } from './schema-columns.ts';

/** An IBAN a merchant may split payments to, once the operator approved it. */
export interface BeneficiariesTable {
  id: string;
  merchant_id: string;
  iban: string;
  name: string;
  status: BeneficiaryStatus;
  /** Why the operator rejected or revoked it; null otherwise. */
  reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
}

/** A beneficiary's share of one payment, fixed at create. */
export interface PaymentSplitsTable {
  id: string;
  payment_id: string;
  beneficiary_id: string;
  /** Its order in the create request, from 0. */
  position: number;
  amount: number;
  description: string;
  /** Taken back by refunds (docs/LEDGER.md#refunds-of-a-split-payment). */
  refunded: number;
  /** The settlement that paid it out; null until then. */
  settled_in: string | null;
}

/** One transfer of a settlement to one beneficiary: its shares in that settlement, summed. */
export interface BeneficiaryPayoutsTable {
  settlement_id: string;
  beneficiary_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  iban: string;
  amount: number;
  status: 'pending' | 'paid' | 'failed';
  /** The transfer's attempt at the bank: 1, then one more for each operator retry after a refusal (migration 0041). */
  attempt: Defaulted<number>;
  bank_reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What one refund of a split payment took from one share. */
export interface RefundSplitAllocationsTable {
  refund_id: string;
  split_id: string;
  amount: number;
}
