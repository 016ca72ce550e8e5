/**
 * The payment state machine and the rules around it, in one place
 * (docs/PAYMENTS.md). Pure code: the workflow (inside Temporal's
 * deterministic sandbox) and the services both import it, so it must not
 * touch I/O, clocks or Node built-ins.
 */

export const PAYMENT_STATUSES = [
  'created',
  'pending',
  'paid',
  'verified',
  'failed',
  'canceled',
  'expired',
  'reversed',
  'partially_refunded',
  'refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Which status may follow which; anything else is a bug in the caller. */
export const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  created: ['pending', 'paid', 'failed', 'canceled', 'expired'],
  pending: ['paid', 'failed'],
  paid: ['verified', 'reversed'],
  verified: ['partially_refunded', 'refunded'],
  // A refund counts as soon as it is pending; one the bank refuses gives its amount back.
  partially_refunded: ['partially_refunded', 'refunded', 'verified'],
  failed: [],
  canceled: [],
  expired: [],
  reversed: [],
  refunded: ['partially_refunded', 'verified'],
};

/**
 * Verified, or refunded since in part or in full: the merchant's verify (or a payment link's own) went
 * through, and the payment is the merchant's income (settlements, the ledger check, the compatible
 * APIs' "verified before"). One list, so SQL conditions are built from it too (src/db).
 */
export const VERIFIED_STATUSES = [
  'verified',
  'partially_refunded',
  'refunded',
] as const satisfies readonly PaymentStatus[];

/** Confirmed by the bank and kept (a reversed payment gave its money back): paid, or verified or later (bank reconciliation's view of a terminal's day). */
export const CONFIRMED_STATUSES = ['paid', ...VERIFIED_STATUSES] as const satisfies readonly PaymentStatus[];

/** Whether a payment in `status` has been verified (VERIFIED_STATUSES). */
export function isVerified(status: PaymentStatus): boolean {
  return (VERIFIED_STATUSES as readonly PaymentStatus[]).includes(status);
}

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The most a test may move a payment's own clock in one step: past any window the gateway has. */
export const MAX_ADVANCE_SECONDS = 400 * 24 * 3600;

/** What the customer chose on the test bank page. */
export const BANK_OUTCOMES = ['success', 'failure', 'cancel', 'delay'] as const;
export type BankOutcome = (typeof BANK_OUTCOMES)[number];

/** The status a bank outcome moves a `created` payment to. */
export const STATUS_AFTER_OUTCOME: Readonly<Record<BankOutcome, PaymentStatus>> = {
  success: 'paid',
  failure: 'failed',
  cancel: 'canceled',
  delay: 'pending',
};

/** The advisory `status` parameter on the return address (docs/PAYMENTS.md#the-return-address-and-its-hint). */
export const RETURN_STATUSES = ['success', 'pending', 'failed'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export function returnStatus(status: PaymentStatus): ReturnStatus {
  if (status === 'paid' || isVerified(status)) {
    return 'success';
  }
  if (status === 'pending') return 'pending';
  return 'failed';
}

/** The merchant's callback_url with our four return parameters added, its own query kept. */
export function returnUrl(
  callbackUrl: string,
  payment: { id: string; status: PaymentStatus; merchant_reference: string; tracking_code: string },
): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('payment_id', payment.id);
  url.searchParams.set('status', returnStatus(payment.status));
  url.searchParams.set('merchant_reference', payment.merchant_reference);
  url.searchParams.set('tracking_code', payment.tracking_code);
  return url.toString();
}

export interface FeePlan {
  bps: number;
  min: number;
  max: number;
}

/** Fee in rials: basis points of the amount, rounded half up, clamped to [min, max] and never above the amount. */
export function computeFee(amount: number, plan: FeePlan): number {
  const proportional = Math.floor((amount * plan.bps + 5_000) / 10_000);
  return Math.min(amount, Math.max(plan.min, Math.min(plan.max, proportional)));
}

/**
 * Who pays the gateway's fee (docs/PAYMENTS.md#who-pays-the-fee): the merchant (the default: the
 * customer is charged the amount, the fee comes out of it) or the customer (charged amount + fee, and
 * the merchant receives the whole amount).
 */
export const FEE_PAYERS = ['merchant', 'customer'] as const;

/**
 * How a payment was paid: `card` (the hosted page, a PSP and the customer's card) or `direct_debit` (a
 * mandate's debit, no customer present: docs/SUBSCRIPTIONS.md#debits-are-payments).
 */
export const PAYMENT_METHODS = ['card', 'direct_debit'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type FeePayer = (typeof FEE_PAYERS)[number];

/**
 * The fee a customer-pays payment adds to its amount, fixed at create from the merchant's fee plan
 * (the bank must be asked for amount + fee before anyone verifies); 0 when the merchant pays.
 */
export function customerFee(amount: number, plan: FeePlan, payer: FeePayer): number {
  return payer === 'customer' ? computeFee(amount, plan) : 0;
}

/**
 * What a new payment's customer will be charged at the bank, and the fee in it: the amount, plus the
 * fee fixed now from `plan` when the customer pays it (no plan: a merchant-pays payment, charged its
 * amount). The one computation of the charged sum at create; the record keeps the sum as itself
 * (`charged_amount`) and its fee (`customer_fee`, for the previous release's replicas), and every
 * reader takes the sum (recordedChargedAmount).
 */
export function chargedAtCreate(
  amount: number,
  plan: FeePlan | undefined,
  payer: FeePayer,
): { charged: number; customer_fee: number } {
  if (payer === 'customer' && plan === undefined)
    throw new Error('a customer-pays payment needs the fee plan its fee is fixed from');
  const fee = plan === undefined ? 0 : customerFee(amount, plan, payer);
  return { charged: amount + fee, customer_fee: fee };
}

/**
 * What the customer pays at the bank: the amount, plus the fee when the customer pays it. A payment
 * recorded before fee payers existed (a workflow's state, a history) carries no `charged_amount`: its
 * customer was charged its amount.
 */
export function chargedAmount(payment: { amount: number; charged_amount?: number }): number {
  return payment.charged_amount ?? payment.amount;
}

/**
 * The charged amount of a payment as its record holds it (docs/PAYMENTS.md#who-pays-the-fee): its
 * `charged_amount` column, written by every insert since migration 0056 and backfilled by it. A row a
 * replica of the previous release inserted during the rolling update has none (NULL): its charged
 * amount is its `amount` and `customer_fee` (NOT NULL, 0 where the merchant pays the fee), which the
 * CHECK `payments_charged_is_amount_and_fee` holds equal to `charged_amount` wherever both are. The
 * driver may answer the columns as strings. The one way a recorded payment's charged amount is read.
 */
export function recordedChargedAmount(row: {
  amount: number | string | bigint;
  customer_fee: number | string | bigint;
  charged_amount: number | string | bigint | null;
}): number {
  return row.charged_amount === null ? Number(row.amount) + Number(row.customer_fee) : Number(row.charged_amount);
}

/** The fee preview (GET /fees) and a payment's split: what the customer is charged, the fee, what the merchant receives. */
export interface FeeQuote {
  amount: number;
  fee_payer: FeePayer;
  fee: number;
  charged_amount: number;
  merchant_receives: number;
}

export function feeQuote(amount: number, plan: FeePlan, payer: FeePayer): FeeQuote {
  const fee = computeFee(amount, plan);
  return payer === 'customer'
    ? { amount, fee_payer: payer, fee, charged_amount: amount + fee, merchant_receives: amount }
    : { amount, fee_payer: payer, fee, charged_amount: amount, merchant_receives: amount - fee };
}

/** The fee a payment's verify records: the fee fixed at create when the customer pays it, else the merchant's plan on its amount. */
export function feeAtVerify(
  payment: { amount: number; charged_amount?: number; fee_payer?: FeePayer },
  plan: FeePlan,
): number {
  return payment.fee_payer === 'customer' ? chargedAmount(payment) - payment.amount : computeFee(payment.amount, plan);
}

/** Error codes a verify can answer with, besides success. */
export type VerifyRefusalCode = 'payment_not_paid' | 'payment_pending' | 'verify_deadline_passed' | 'amount_mismatch';

export interface VerifyRefusal {
  code: VerifyRefusalCode;
  message: string;
}

/**
 * Whether a verify with `amount` at time `nowMs` may proceed. `undefined`
 * means yes: either the payment is `paid` (a transition follows) or it is
 * already verified with the same amount (the same answer is given again).
 */
export function verifyRefusal(
  payment: { status: PaymentStatus; amount: number; verify_deadline_at: string | null },
  amount: number,
  nowMs: number,
): VerifyRefusal | undefined {
  switch (payment.status) {
    case 'created':
    case 'failed':
    case 'canceled':
    case 'expired':
      return {
        code: 'payment_not_paid',
        message: `The payment is ${payment.status}; only a paid payment can be verified.`,
      };
    case 'pending':
      return { code: 'payment_pending', message: 'The bank has not confirmed this payment yet; verify again shortly.' };
    case 'reversed':
      return {
        code: 'verify_deadline_passed',
        message: 'The verify deadline passed and the amount was returned to the customer.',
      };
    case 'paid': {
      const deadline =
        payment.verify_deadline_at === null ? Number.POSITIVE_INFINITY : Date.parse(payment.verify_deadline_at);
      if (nowMs >= deadline) {
        return {
          code: 'verify_deadline_passed',
          message: 'The verify deadline has passed; the amount is being returned to the customer.',
        };
      }
      return amountRefusal(payment.amount, amount);
    }
    case 'verified':
    case 'partially_refunded':
    case 'refunded':
      return amountRefusal(payment.amount, amount);
  }
}

function amountRefusal(expected: number, given: number): VerifyRefusal | undefined {
  if (expected === given) return undefined;
  return { code: 'amount_mismatch', message: 'The amount does not match the payment amount.' };
}

/** A refusal of a merchant's change of a payment: the error code the API answers with, and why. */
export interface PaymentChangeRefusal {
  code: 'payment_not_cancelable' | 'payment_not_reversible';
  message: string;
}

/** The payment was canceled by its merchant: a repeated cancel answers it as it is. */
export function canceledByMerchant(payment: { status: PaymentStatus; failure: { code: string } | null }): boolean {
  return payment.status === 'canceled' && payment.failure?.code === 'canceled_by_merchant';
}

/**
 * Whether the merchant may cancel the payment (docs/PAYMENTS.md#cancel-and-reverse).
 * `undefined` means yes: it is `created` (a transition follows) or it was
 * canceled by the merchant already (the same answer is given again).
 */
export function cancelRefusal(payment: {
  status: PaymentStatus;
  failure: { code: string } | null;
}): PaymentChangeRefusal | undefined {
  if (payment.status === 'created' || canceledByMerchant(payment)) return undefined;
  return {
    code: 'payment_not_cancelable',
    message: `The payment is ${payment.status}; only a created payment can be canceled.`,
  };
}

/**
 * Whether the merchant may reverse the payment now. `undefined` means yes: it
 * is `paid` and unverified (a transition follows) or already `reversed` (the
 * same answer is given again).
 */
export function reverseRefusal(payment: { status: PaymentStatus }): PaymentChangeRefusal | undefined {
  if (payment.status === 'paid' || payment.status === 'reversed') return undefined;
  return {
    code: 'payment_not_reversible',
    message: `The payment is ${payment.status}; only a paid, unverified payment can be reversed.`,
  };
}

/** Why a payment ended without money: the `failure` a payment records, one wording for each. */
export const PAYMENT_FAILURES = {
  declined: { code: 'card_declined', message: 'The bank declined the payment.' },
  notConfirmed: { code: 'card_declined', message: 'The bank did not confirm the payment.' },
  canceledByCustomer: { code: 'canceled_by_customer', message: 'The customer canceled the payment.' },
  canceledByMerchant: { code: 'canceled_by_merchant', message: 'The merchant canceled the payment.' },
  expired: { code: 'payment_expired', message: 'The payment page expired before the payment was made.' },
  bankUnconfirmed: {
    code: 'bank_unconfirmed',
    message: 'The bank did not confirm the payment in time; it returns the money to the customer.',
  },
  cardNotAllowed: {
    code: 'card_not_allowed',
    message: 'The payment was made with a card the merchant did not allow; the bank returns the money to the customer.',
  },
  confirmationMismatch: {
    code: 'confirmation_mismatch',
    message:
      'The bank confirmed the payment with details the gateway cannot accept (another amount, terminal or reference); the bank was asked to return the money to the customer.',
  },
  debitRefused: {
    code: 'debit_refused',
    message:
      "The direct debit provider refused the debit (the mandate's contract at the bank, or the bank's own limit); no money was taken.",
  },
  verifyRefusedByBank: {
    code: 'bank_refused_verify',
    message:
      'The bank refused the verify: it holds no payment to capture (it gave the money back to the customer itself, or was never paid).',
  },
} as const satisfies Record<string, { code: string; message: string }>;

/** Whether `amount` is a payment or refund amount at all: a whole number of rials above zero. */
export function isPositiveAmount(amount: unknown): amount is number {
  return typeof amount === 'number' && Number.isSafeInteger(amount) && amount > 0;
}

/** The refusal of an amount that isPositiveAmount rejects (verify's and a refund's), one wording. */
export const NOT_A_POSITIVE_AMOUNT = {
  code: 'validation_failed',
  message: 'amount must be a positive integer',
} as const;

/** `603799******1234`: a full card number is never stored, logged or shown. */
export function maskCardPan(pan: string): string {
  const digits = pan.replace(/\D/g, '');
  if (digits.length < 12) throw new Error('card number too short to mask');
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

/** Toman for a rial amount (10 rials = 1 toman), for display; an amount not divisible by 10 keeps its tenth. */
export function rialsToToman(rials: number): number {
  return rials / 10;
}

/** A payment's metadata after a merchant's change: named keys set, keys given null removed, the rest kept. */
export function mergeMetadata(
  current: Readonly<Record<string, string>>,
  change: Readonly<Record<string, string | null>>,
): Record<string, string> {
  const merged: Record<string, string> = { ...current };
  for (const [key, value] of Object.entries(change)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The longest a payment link's payment is retried at the bank's settle before it is left to its deadline. */
export const LINK_AUTO_VERIFY_BOUND_MAX_MS = 10 * 60_000;

/**
 * How long the workflow keeps asking the bank to settle a payment link's payment (docs/PAYMENTS.md#payment-links),
 * all attempts together: ten minutes, or half the verify window when that is shorter, so the bank is given up on
 * well before the deadline's reversal and the reversal has the rest of the window. Read by the workflow and by the
 * stuck-records listing, which raises a link's payment still `paid` past this bound (plus its margin).
 */
export function linkAutoVerifyBoundMs(verifyWindowMs: number): number {
  return Math.max(1, Math.min(LINK_AUTO_VERIFY_BOUND_MAX_MS, Math.floor(verifyWindowMs / 2)));
}
