/**
 * The contract of the payment workflow (workflows/payment.ts): its input,
 * its messages and its search attributes, shared by the workflow and the
 * services that start and message it. Names here are part of every running
 * history: renaming one breaks replay.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { defineSearchAttributeKey, type SearchAttributePair } from '@temporalio/common';
import type { Payment } from './payment-schemas.ts';
import type { FeePlan } from './payment.ts';
import type { Refund } from './refund-schemas.ts';
import { ONBOARDING_SEARCH_ATTRIBUTE_TYPES } from './onboarding-workflow.ts';

export interface PaymentWorkflowInput {
  /** The payment exactly as the create endpoint recorded it (status `created`, version 1). */
  payment: Payment;
  merchant_id: string;
  fee_plan: FeePlan;
  verify_window_ms: number;
  /**
   * How long a payment the bank answered "in progress" waits before the bank is asked again (doubling up to a
   * cap): BANK_RECONFIRM_AFTER_SECONDS, in test and live mode. The field keeps its first name, which running
   * histories hold.
   */
  sandbox_delay_ms: number;
  /**
   * How long the bank may keep answering "in progress" before the payment is `failed` with
   * `bank_unconfirmed` (the PSP reverses what it never confirmed). Absent in inputs written before
   * the limit existed: BANK_PENDING_LIMIT_DEFAULT_MS.
   */
  bank_pending_limit_ms?: number;
  /**
   * A payment link's payment (docs/PAYMENTS.md#payment-links): no merchant server will call verify,
   * so the workflow verifies it itself once the bank confirms it. Absent on every other payment.
   */
  auto_verify?: boolean;
}

/**
 * The payment workflow's type, the one every new payment starts: a payment's workflow ends soon after its
 * final state (verified included), writes its records local first, and leaves refunds to the payment's
 * refunds workflow (REFUNDS_WORKFLOW). Its history is the short one (docs/ARCHITECTURE.md#two-payment-workflow-types).
 */
export const PAYMENT_WORKFLOW = 'paymentFlowWorkflow';
/** The type before PAYMENT_WORKFLOW, the same timeline with a longer history: registered for the payments still running on it. */
export const PAYMENT_LIFECYCLE_WORKFLOW = 'paymentLifecycleWorkflow';
/** The refunds of one verified payment: started on demand by a refund (Update-with-Start), ended once none is pending. */
export const REFUNDS_WORKFLOW = 'paymentRefundsWorkflow';
export const refundsWorkflowId = (paymentId: string) => `refunds-${paymentId}`;

export interface RefundsWorkflowInput {
  payment_id: string;
  merchant_id: string;
  mode: Payment['mode'];
  /** REFUND_WINDOW_SECONDS of the API that started it, in ms: the window is read on the record's verified_at. */
  refund_window_ms: number;
}

/**
 * The refusal a payment's workflow answers an Update with when no bank answered in time (no PSP of
 * the route gave a token; the settle at verify): not a refusal of the request, which may be sent
 * again. The API answers it 503 `service_unavailable` (updateRefusal, src/temporal/call.ts: the one
 * place a workflow's refusal becomes an error of the table in src/errors.ts).
 */
export const BANK_UNAVAILABLE_REFUSAL = 'bank_unavailable';

/**
 * A token request's failures another try at the same PSP terminal cannot change (an open breaker, a
 * refusal, a PSP not configured, a record that is not the workflow's): the next PSP of the route is
 * asked instead. The one list the token's retries follow, whether Temporal retries them (the lifecycle
 * workflow's bankTokenPerPsp) or the flow workflow's one activity does (bankTokenOnRoute).
 */
export const TOKEN_FAILURES_FINAL_AT_PSP: readonly string[] = [
  'psp_unavailable',
  'bank_refused',
  'bank_not_configured',
  'record_mismatch',
];

/** The pending limit of inputs that carry none (docs/BANK.md#in-progress). */
export const BANK_PENDING_LIMIT_DEFAULT_MS = 20 * 60_000;
/** The longest wait between two confirm calls for a payment the bank keeps "in progress". */
export const BANK_PENDING_MAX_INTERVAL_MS = 5 * 60_000;

export interface RefundRequest {
  /** Chosen by the API (reserved by the Idempotency-Key); a repeated request with it answers the same refund. */
  refund_id: string;
  /** Rials to refund; null: everything not yet refunded. */
  amount: number | null;
  reason: string | null;
  /**
   * The customer's Sheba IBAN the merchant gave, for a refund the payment's PSP cannot make itself
   * (docs/PAYMENTS.md#how-a-refund-is-paid-out); absent in requests sent before it existed.
   */
  destination_iban?: string | null;
}

/**
 * A decision on a refund that waits (docs/PAYMENTS.md#refund-states): the operator approves or rejects one
 * held for approval; the customer's claim hands over the paying card's account (its IBAN and owner, as the
 * identity provider named them: never the card number) for one waiting for its payer.
 */
export type RefundDecision =
  | { refund_id: string; decision: 'approve' }
  | { refund_id: string; decision: 'reject'; reason: string }
  | { refund_id: string; decision: 'claim'; payee: { iban: string; owner_name: string } };

/** The customer is about to go to the bank: where the bank sends them back (our return route). */
export interface BankTokenInput {
  redirect_url: string;
}

export interface BankTokenResult {
  token: string;
  /** The bank's page for the customer (SEP: with the token in its query). */
  url: string;
  /**
   * How the customer's browser goes there: GET (SEP), or a form POST of `fields` (Mellat: RefId).
   * Absent in the histories of payments that asked for their token before there were two PSPs: GET.
   */
  method?: 'GET' | 'POST';
  fields?: Record<string, string>;
}

/**
 * What the bank posted to our return route, normalized by the PSP's connector
 * (state OK, CanceledByUser or Failed; ref_num the bank's reference, SEP's
 * RefNum or Mellat's SaleReferenceId; res_num the payment's id; token the
 * bank's token, SEP's Token or Mellat's RefId). Never trusted: the workflow
 * confirms ref_num with the bank before anything is paid.
 */
export interface BankCallback {
  state: string;
  ref_num: string;
  res_num: string;
  token: string;
  /**
   * The return came to the signed return address of the payment's bank session (the API checked the
   * signature: src/payments/return-signature.ts). Only such a return, or one carrying the session's own
   * PSP token, may end the payment (failed, canceled). Absent in callbacks sent before it existed.
   */
  signed?: boolean;
}

export interface VerifyInput {
  amount: number;
}

export interface AdvanceClockInput {
  /** Seconds to move the payment's own clock forward (test mode only). */
  seconds: number;
}

export const paymentWorkflowId = (paymentId: string) => `payment-${paymentId}`;

/** The merchant's verify; answers with the verified payment or a typed failure. */
export const verifyUpdate = defineUpdate<Payment, [VerifyInput]>('verify');
/** A refund: answers once it is recorded `pending`; the bank's answer follows in the refunds workflow. */
export const refundUpdate = defineUpdate<Refund, [RefundRequest]>('refund');
export const refundUpdateId = (refundId: string) => `refund-${refundId}`;
/** A decision on a waiting refund; answers the refund as recorded after it. */
export const refundDecisionUpdate = defineUpdate<Refund, [RefundDecision]>('refundDecision');
/** One update per refund and decision: a retried claim or approval is the same update. */
export const refundDecisionUpdateId = (decision: RefundDecision) => `refund-${decision.decision}-${decision.refund_id}`;
/** The merchant cancels a payment nobody has paid yet; a canceled payment answers the same again. */
export const cancelUpdate = defineUpdate<Payment, []>('cancel');
/** The merchant gives a paid, unverified payment back now instead of at the deadline. */
export const reverseUpdate = defineUpdate<Payment, []>('reverse');
/** The customer goes to the bank: the workflow asks the bank for a token (once; a repeat answers the same token). */
export const bankTokenUpdate = defineUpdate<BankTokenResult, [BankTokenInput]>('bankToken');
/** The bank sent the customer back: the workflow confirms with the bank, then answers the payment. */
export const bankCallbackUpdate = defineUpdate<Payment, [BankCallback]>('bankCallback');
/** Test helper: moves the payment's own clock; answers once its due timers have fired. */
export const advanceClockUpdate = defineUpdate<Payment, [AdvanceClockInput]>('advanceClock');
/** The live state of the payment, as last recorded. */
export const paymentQuery = defineQuery<Payment>('payment');

/** Custom search attributes for operators in the Temporal UI (README, operator guide). */
export const searchAttributes = {
  status: defineSearchAttributeKey('PaymentStatus', 'KEYWORD'),
  merchantId: defineSearchAttributeKey('MerchantId', 'KEYWORD'),
  merchantReference: defineSearchAttributeKey('MerchantReference', 'KEYWORD'),
  mode: defineSearchAttributeKey('PaymentMode', 'KEYWORD'),
  amount: defineSearchAttributeKey('PaymentAmount', 'INT'),
  /** The PSP that took the payment and its terminal (docs/psps/routing.md): set when the PSP gives the token. */
  psp: defineSearchAttributeKey('PaymentPsp', 'KEYWORD'),
  pspTerminal: defineSearchAttributeKey('PaymentPspTerminal', 'KEYWORD'),
} as const;

/** A payment's search attributes, as its workflows start with them: the status it has then, and what never changes. */
export function paymentSearchAttributes(
  payment: Pick<Payment, 'status' | 'merchant_reference' | 'mode' | 'amount'>,
  merchantId: string,
): SearchAttributePair[] {
  return [
    { key: searchAttributes.status, value: payment.status },
    { key: searchAttributes.merchantId, value: merchantId },
    { key: searchAttributes.merchantReference, value: payment.merchant_reference },
    { key: searchAttributes.mode, value: payment.mode },
    { key: searchAttributes.amount, value: payment.amount },
  ];
}

/** Name → type of every custom search attribute (the payments' and the onboarding's), for registering them on a server. */
export const SEARCH_ATTRIBUTE_TYPES: Record<string, 'Keyword' | 'Int'> = {
  ...ONBOARDING_SEARCH_ATTRIBUTE_TYPES,
  PaymentStatus: 'Keyword',
  MerchantId: 'Keyword',
  MerchantReference: 'Keyword',
  PaymentMode: 'Keyword',
  PaymentAmount: 'Int',
  PaymentPsp: 'Keyword',
  PaymentPspTerminal: 'Keyword',
  // Settlement workflows' (src/domain/settlement.ts); MerchantId is shared.
  SettlementStatus: 'Keyword',
  SettlementDate: 'Keyword',
};
