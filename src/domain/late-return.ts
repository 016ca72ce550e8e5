/**
 * A paid return for a payment already ended (docs/BANK.md#a-paid-return-for-an-ended-payment). Pure
 * code, shared by the workflows that act on it, the API that starts one and the records.
 */

/** The statuses a payment ends in without money: a paid return that comes after is a late return. */
export const ENDED_UNPAID = ['canceled', 'expired', 'failed'] as const;

/**
 * What became of a late return's sale: `reversed` at the PSP; `reversal_refused` by the PSP (its
 * window passed: money held at the PSP, raised by `cli stuck`); `not_reversed`, the sale is another
 * payment's (its claim); `not_confirmed`, the PSP confirmed nothing (no such sale, already reversed,
 * "in progress"): nothing captured; `left_to_psp`, a PSP that verifies only at the merchant's verify
 * (Sadad): nothing was verified, and it gives back by itself what nobody verifies.
 */
export const LATE_RETURN_OUTCOMES = [
  'reversed',
  'reversal_refused',
  'not_reversed',
  'not_confirmed',
  'left_to_psp',
] as const;
export type LateReturnOutcome = (typeof LATE_RETURN_OUTCOMES)[number];

/** The late return workflow's type; its id is one per payment and reference (lateReturnWorkflowId). */
export const LATE_RETURN_WORKFLOW = 'lateBankReturnWorkflow';

export interface LateReturnInput {
  payment_id: string;
  mode: 'test' | 'live';
  /** The PSP that took the payment (its record's); absent for a payment recorded before routing (SEP). */
  psp?: string;
  ref_num: string;
}
