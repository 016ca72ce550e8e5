/**
 * Refund rules, in one place (docs/PAYMENTS.md#refunds). Pure code: the
 * payment workflow (inside Temporal's sandbox) and the services both use it.
 */
import { chargedAmount, type PaymentStatus } from './payment.ts';

/**
 * What the refund rules read of a payment. What may be refunded is what the customer paid, the
 * charged amount (amount + fee when the customer paid the fee, docs/PAYMENTS.md#who-pays-the-fee); a
 * payment read before fee payers existed carries none and was charged its amount.
 */
interface Refundable {
  status: PaymentStatus;
  amount: number;
  charged_amount?: number;
  refunded_amount: number;
}

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Only a verified payment can be refunded, in part or in full, until nothing is left. */
const REFUNDABLE_STATUSES: readonly PaymentStatus[] = ['verified', 'partially_refunded'];

export type RefundRefusalCode = 'payment_not_refundable' | 'refund_exceeds_amount';

export interface RefundRefusal {
  code: RefundRefusalCode;
  message: string;
}

/** Rials that may still be refunded; pending refunds already count as refunded. */
export const refundableAmount = (payment: Pick<Refundable, 'amount' | 'charged_amount' | 'refunded_amount'>) => chargedAmount(payment) - payment.refunded_amount;

/**
 * Whether a refund of `amount` (null: everything left) may be taken now.
 * `windowOpen` is false once the payment's refund window has closed.
 */
export function refundRefusal(
  payment: Refundable,
  amount: number | null,
  windowOpen: boolean,
): RefundRefusal | undefined {
  if (payment.status === 'refunded') {
    return { code: 'payment_not_refundable', message: 'The payment has been refunded in full; nothing is left to refund.' };
  }
  if (!REFUNDABLE_STATUSES.includes(payment.status)) {
    return { code: 'payment_not_refundable', message: `The payment is ${payment.status}; only a verified payment can be refunded.` };
  }
  if (!windowOpen) {
    return { code: 'payment_not_refundable', message: "The payment's refund window has closed." };
  }
  const left = refundableAmount(payment);
  if (amount !== null && amount > left) {
    return { code: 'refund_exceeds_amount', message: `The refund amount is more than the ${left} rials left to refund on this payment.` };
  }
  return undefined;
}

/**
 * Whether the refund window of a payment verified at `verifiedAt` is open at
 * `nowMs`: refunds are taken for `windowMs` (REFUND_WINDOW_SECONDS) after
 * verify, read on the record's `verified_at`.
 */
export function refundWindowOpen(verifiedAt: string | null, windowMs: number, nowMs: number): boolean {
  return verifiedAt !== null && nowMs < Date.parse(verifiedAt) + windowMs;
}

/**
 * Whether a refund of `amount` may be taken from the payment as recorded, at
 * `nowMs`: the refund rules with the window read on the record. The API asks
 * before it sends a refund on, and the refunds workflow again, under its
 * lock, on the record it has just read.
 */
export function recordedRefundRefusal(
  payment: Refundable & { verified_at: string | null },
  amount: number | null,
  windowMs: number,
  nowMs: number,
): RefundRefusal | undefined {
  return refundRefusal(payment, amount, refundWindowOpen(payment.verified_at, windowMs, nowMs));
}

/** A verified payment's status for the amount refunded so far (pending refunds included): refunded once all the customer paid is. */
export function statusAfterRefunds(payment: Pick<Refundable, 'amount' | 'charged_amount'>, refundedAmount: number): PaymentStatus {
  if (refundedAmount <= 0) return 'verified';
  return refundedAmount >= chargedAmount(payment) ? 'refunded' : 'partially_refunded';
}

/** The `failure` a refund records when the bank does not pay it out: the bank's refusal code (or `refund_failed`), one wording. */
export const refundPayoutFailure = (code: string) => ({ code, message: 'The bank did not accept the refund; its amount is refundable again.' });
