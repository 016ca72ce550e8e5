/**
 * Refund rules, in one place (docs/PAYMENTS.md#refunds). Pure code: the
 * payment workflow (inside Temporal's sandbox) and the services both use it.
 */
import type { PspCapabilities } from '../psps/profile.ts';
import { CAPTURE } from './capture.ts';
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

/**
 * A refund's states, in the only order it moves through them (docs/PAYMENTS.md#refund-states): held for
 * the operator's approval (`awaiting_approval`: an IBAN a person typed, or a refund the merchant's balance
 * does not cover), waiting for the customer to claim it with the card that paid (`awaiting_payer`), paid
 * out (`pending`), then final (`succeeded` or `failed`). A refund may start at any of the first three.
 */
export const REFUND_STATUSES = ['awaiting_approval', 'awaiting_payer', 'pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The statuses a refund may be in when it moves to `next`: only forward (a final status is never left). */
export function refundStatusesBefore(next: RefundStatus): RefundStatus[] {
  if (next === 'succeeded') return ['pending'];
  if (next === 'failed') return ['awaiting_approval', 'awaiting_payer', 'pending'];
  return REFUND_STATUSES.slice(0, REFUND_STATUSES.indexOf(next));
}

/** Statuses in which a refund's amount is reserved on the payment but no money has moved yet. */
export const HELD_REFUND_STATUSES: readonly RefundStatus[] = ['awaiting_approval', 'awaiting_payer'];

/** Why a refund waits for the operator: an IBAN a person typed, or the merchant's balance would go below zero. */
export const REFUND_HOLDS = ['typed_iban', 'balance'] as const;
export type RefundHold = (typeof REFUND_HOLDS)[number];

/** Only a verified payment can be refunded, in part or in full, until nothing is left. */
const REFUNDABLE_STATUSES: readonly PaymentStatus[] = ['verified', 'partially_refunded'];

export type RefundRefusalCode = 'payment_not_refundable' | 'refund_exceeds_amount' | 'refund_needs_iban';

export interface RefundRefusal {
  code: RefundRefusalCode;
  message: string;
}

/** Rials that may still be refunded; pending refunds already count as refunded. */
export const refundableAmount = (payment: Pick<Refundable, 'amount' | 'charged_amount' | 'refunded_amount'>) =>
  chargedAmount(payment) - payment.refunded_amount;

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
    return {
      code: 'payment_not_refundable',
      message: 'The payment has been refunded in full; nothing is left to refund.',
    };
  }
  if (!REFUNDABLE_STATUSES.includes(payment.status)) {
    return {
      code: 'payment_not_refundable',
      message: `The payment is ${payment.status}; only a verified payment can be refunded.`,
    };
  }
  if (!windowOpen) {
    return { code: 'payment_not_refundable', message: "The payment's refund window has closed." };
  }
  const left = refundableAmount(payment);
  if (amount !== null && amount > left) {
    return {
      code: 'refund_exceeds_amount',
      message: `The refund amount is more than the ${left} rials left to refund on this payment.`,
    };
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
export function statusAfterRefunds(
  payment: Pick<Refundable, 'amount' | 'charged_amount'>,
  refundedAmount: number,
): PaymentStatus {
  if (refundedAmount <= 0) return 'verified';
  return refundedAmount >= chargedAmount(payment) ? 'refunded' : 'partially_refunded';
}

/** The `failure` a refund records when the bank does not pay it out: the bank's refusal code (or `refund_failed`), one wording. */
export const refundPayoutFailure = (code: string) => ({
  code,
  message: 'The bank did not accept the refund; its amount is refundable again.',
});

/**
 * How a refund reaches the customer (docs/PAYMENTS.md#how-a-refund-is-paid-out), chosen when it is
 * taken, by what the payment's PSP offers:
 * - `psp_refund`: the PSP's own refund operation (Behpardakht's bpRefundRequest), for any amount;
 * - `reversal`: a PSP without one reverses the whole payment while its reversal window is open (SEP's
 *   ReverseTransaction, 50 minutes after its verify), the same payment-keyed call as the merchant's reverse;
 *   only where the PSP's verify captured the money (`capture: 'verify'`, whose verified payment's
 *   reversal is `within_window` in src/domain/capture.ts): where a separate settle captures (Asan
 *   Pardakht), its reversal undoes a verify not yet settled, and a verified payment has been settled at
 *   the merchant's verify (Asan Pardakht's Cancel answers 805 "settled");
 * - `payer_card` (since the patch `refunds-to-payer`): otherwise, a Paya transfer from the gateway's
 *   account to the account of the card that paid: the customer claims the refund on its claim page with
 *   that card, the gateway matches it with what the PSP said of the paying card and asks the identity
 *   provider for its IBAN and owner;
 * - `iban_payout`: a Paya transfer to a Sheba IBAN a person typed (`destination_iban`): since the patch
 *   `refunds-to-payer` only after the operator approved it; before it, at once (older histories).
 */
export const REFUND_METHODS = ['psp_refund', 'reversal', 'iban_payout', 'payer_card'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

/** What the choice of a refund's method reads of its PSP (src/psps/profile.ts PspCapabilities). */
export interface RefundCapabilities extends Pick<PspCapabilities, 'capture' | 'refund' | 'reversalWindowMs'> {
  psp: string;
}

/**
 * How long before the PSP's reversal window closes a reversal is no longer chosen: the call is made
 * after the refund is recorded, and retried while the PSP does not answer, so a reversal chosen at the
 * window's last second would reach the PSP after it.
 */
export const REVERSAL_MARGIN_MS = 5 * 60_000;

/**
 * The method of a refund of `amount` rials (already resolved: null is everything left) of the payment
 * as recorded, at `nowMs`, or why it is refused (`refund_needs_iban`: a PSP without a refund operation,
 * the payment settled, outside its reversal window or the refund not the whole payment, and no IBAN given).
 * A reversal returns everything the customer paid, so it is chosen only for the whole payment with
 * nothing refunded before.
 */
export function refundMethod(
  payment: Pick<Refundable, 'amount' | 'charged_amount' | 'refunded_amount'> & { paid_at: string | null },
  amount: number,
  capabilities: RefundCapabilities,
  destinationIban: string | null,
  nowMs: number,
  toPayer = false,
): { method: RefundMethod } | RefundRefusal {
  if (capabilities.refund === 'partial') return { method: 'psp_refund' };
  const whole = payment.refunded_amount === 0 && amount === chargedAmount(payment);
  const { verifiedReversal } = CAPTURE[capabilities.capture];
  const reversible =
    verifiedReversal === 'within_window' &&
    payment.paid_at !== null &&
    nowMs < Date.parse(payment.paid_at) + capabilities.reversalWindowMs - REVERSAL_MARGIN_MS;
  if (whole && reversible) return { method: 'reversal' };
  if (destinationIban !== null) return { method: 'iban_payout' };
  // To the card that paid, claimed by the customer: never to an address the merchant or a key holder types.
  if (toPayer) return { method: 'payer_card' };
  const minutes = Math.round(capabilities.reversalWindowMs / 60_000);
  const why =
    verifiedReversal === 'settled'
      ? 'a payment it has settled cannot be reversed'
      : verifiedReversal === 'none'
        ? 'it has no reversal'
        : whole
          ? `its reversal window (${minutes} minutes after the payment) has closed`
          : `a reversal returns the whole payment only, within ${minutes} minutes of it`;
  return {
    code: 'refund_needs_iban',
    message: `PSP ${capabilities.psp} has no refund operation and ${why}: give destination_iban, the customer's Sheba IBAN (IR and 24 digits), and the refund is paid there by bank transfer.`,
  };
}

/**
 * How a direct debit's payment is refunded (docs/SUBSCRIPTIONS.md#refunds-of-a-debit): no reference
 * shows a refund (or a reversal) of a debit at the provider, and no card paid it, so neither the PSP's
 * refund, a reversal nor the customer's claim with the paying card can make it. What is left of the
 * routes that pay back the payer is the gateway's bank transfer to the IBAN given with the refund, held,
 * as every typed IBAN is, until the operator has checked its owner against the mandate's customer;
 * without one it is refused, writing nothing.
 */
export function directDebitRefundMethod(destinationIban: string | null): { method: 'iban_payout' } | RefundRefusal {
  if (destinationIban !== null) return { method: 'iban_payout' };
  return {
    code: 'refund_needs_iban',
    message:
      "A direct debit's payment has no card to refund to and its provider has no refund operation: give destination_iban, the customer's Sheba IBAN (IR and 24 digits); the refund is paid there by bank transfer once the gateway's operator has approved it.",
  };
}

/**
 * The bank's key of a refund's transfer to the IBAN the merchant gave (its TransferId): one transfer per
 * refund, however often the activity is retried or the refund resumed by a later run. Apart from the
 * settlements' `payout:` keys.
 */
export const refundPayoutKey = (refundId: string) => `refund-payout:${refundId}`;

/**
 * The status a refund of `method` is first recorded in, under the patch `refunds-to-payer`: a typed IBAN
 * waits for the operator's approval, a refund to the payer's card for the customer's claim; the PSP's own
 * refund and its reversal are paid out at once.
 */
export function initialRefundStatus(method: RefundMethod): { status: RefundStatus; held_for: RefundHold | null } {
  if (method === 'iban_payout') return { status: 'awaiting_approval', held_for: 'typed_iban' };
  if (method === 'payer_card') return { status: 'awaiting_payer', held_for: null };
  return { status: 'pending', held_for: null };
}

/** Wrong card numbers a refund's claim takes before it is locked (the operator or the merchant then decide). */
export const CLAIM_ATTEMPTS_MAX = 5;
