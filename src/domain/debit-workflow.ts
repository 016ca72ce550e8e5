/**
 * The direct debit workflow's names and input (workflows/debit.ts), shared by the service that starts
 * it and the activities it calls: one workflow per debit, id `debit-<debit id>`, a type of its own (the
 * payment workflow is not changed). Its payment is an ordinary payment (`method: direct_debit`).
 */
import type { KeyMode } from './merchant.ts';
import type { FeePlan } from './payment.ts';
import type { Payment } from './payment-schemas.ts';

export const DEBIT_WORKFLOW = 'directDebitWorkflow';
export const debitWorkflowId = (debitId: string) => `debit-${debitId}`;

export interface DebitWorkflowInput {
  debit_id: string;
  /** The debit's payment as the API recorded it (`created`, metadata left in MySQL). */
  payment: Payment;
  merchant_id: string;
  /** The merchant's plan, for the fee at verify, as a card payment's workflow gets it. */
  fee_plan: FeePlan;
}

/** What a debit activity is told of its debit and payment (checked against the record). */
export interface DebitClaim {
  debit_id: string;
  payment_id: string;
  mode: KeyMode;
  amount: number;
  merchant_id: string;
}

/** A step at the provider: done, or refused for good (the provider's code kept for the log and failure). */
export type DebitStep =
  { outcome: 'prepared' } | { outcome: 'taken'; reference: string } | { outcome: 'refused'; provider_code: number };
