/**
 * Behpardakht Mellat's IPG messages as Dargah reads them (docs/psps/mellat.md):
 * the numeric order id of a payment, the ResCode table, the callback's
 * fields and the answers of the SOAP calls, which are one string of
 * comma-separated values ("0,RefId" for bpPayRequest). Pure code, no network:
 * the client (client.ts) and the return route share it.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';
import type { Inquiry } from '../psp-client.ts';
import { hashedLong } from '../connector.ts';

/**
 * The numeric order id (`orderId`, a Java long at the PSP) of a payment: the first 13 hex digits
 * of the SHA-256 of its id, so below 2^52, a safe integer, and the same on every call and worker
 * without being stored. A payment's calls name this order id; the callback's SaleOrderId is
 * compared to it and never trusted on its own.
 */
export function mellatOrderId(paymentId: string): string {
  return numericId(paymentId);
}

/**
 * The order id of a refund (bpRefundRequest's `orderId`): Behpardakht wants a new one, unique at the
 * terminal, for every refund, beside the sale's own as `saleOrderId`. Derived from the refund's id as
 * a payment's is from its id (a distinct input, so never a payment's), stored nowhere, the same on
 * every retry; a collision with another order id (one in 2^52) is refused by the PSP as a duplicate.
 */
export function mellatRefundOrderId(refundId: string): string {
  return numericId(`refund:${refundId}`);
}

/** `id`'s hashedLong as a decimal: below 2^52, never 0 in practice, a long at the PSP. */
function numericId(id: string): string {
  return String(hashedLong(id));
}

/** The ResCodes Dargah acts on by name. */
export const MELLAT_CODE = {
  OK: 0,
  CANCELED_BY_CUSTOMER: 17,
  /** An order id used before: for a refund's own order id, that refund asked before. */
  DUPLICATE_ORDER: 41,
  SALE_NOT_FOUND: 42,
  ALREADY_VERIFIED: 43,
  VERIFY_NOT_FOUND: 44,
  ALREADY_SETTLED: 45,
  NOT_SETTLED: 46,
  REVERSED: 48,
  /** Not Behpardakht's: the simulator's "delay in verification" (docs/psps/mellat.md). */
  IN_PROGRESS: 100,
} as const;

/**
 * Behpardakht's result codes (as the public integrations list them, docs/psps/mellat.md), what each
 * means, and what it is to Dargah: `customer` codes are the customer's card or choice at the bank's
 * page (a callback with one is a failed payment: `CanceledByUser` for 17, `Failed` for the rest);
 * `merchant` codes are our request or terminal (a refusal, never retried into success); `bank` codes
 * are the PSP's trouble (worth another try); `state` codes answer about the transaction itself.
 */
export const MELLAT_RESULT_CODES: Readonly<
  Record<number, { meaning: string; kind: 'ok' | 'customer' | 'merchant' | 'bank' | 'state' }>
> = {
  0: { meaning: 'transaction approved', kind: 'ok' },
  11: { meaning: 'invalid card number', kind: 'customer' },
  12: { meaning: 'insufficient funds', kind: 'customer' },
  13: { meaning: 'incorrect PIN', kind: 'customer' },
  14: { meaning: 'PIN tries exceeded', kind: 'customer' },
  15: { meaning: 'card not valid', kind: 'customer' },
  16: { meaning: 'withdrawal frequency exceeded', kind: 'customer' },
  17: { meaning: 'canceled by the customer', kind: 'customer' },
  18: { meaning: 'card expired', kind: 'customer' },
  19: { meaning: 'withdrawal amount exceeded', kind: 'customer' },
  111: { meaning: 'invalid card issuer', kind: 'customer' },
  112: { meaning: "card issuer's switch error", kind: 'bank' },
  113: { meaning: 'no answer from the card issuer', kind: 'bank' },
  114: { meaning: 'cardholder not allowed this transaction', kind: 'customer' },
  21: { meaning: 'invalid merchant', kind: 'merchant' },
  23: { meaning: 'security error', kind: 'merchant' },
  24: { meaning: 'invalid merchant user name or password', kind: 'merchant' },
  25: { meaning: 'invalid amount', kind: 'merchant' },
  31: { meaning: 'invalid response', kind: 'bank' },
  32: { meaning: 'invalid data format', kind: 'merchant' },
  33: { meaning: 'invalid account', kind: 'merchant' },
  34: { meaning: 'system error', kind: 'bank' },
  35: { meaning: 'invalid date', kind: 'merchant' },
  41: { meaning: 'duplicate order id', kind: 'merchant' },
  42: { meaning: 'sale transaction not found', kind: 'state' },
  43: { meaning: 'verify already requested', kind: 'state' },
  44: { meaning: 'verify request not found', kind: 'state' },
  45: { meaning: 'transaction already settled', kind: 'state' },
  46: { meaning: 'transaction not settled', kind: 'state' },
  47: { meaning: 'settle transaction not found', kind: 'state' },
  48: { meaning: 'transaction reversed', kind: 'state' },
  49: { meaning: 'refund transaction not found', kind: 'state' },
  412: { meaning: 'invalid bill id', kind: 'merchant' },
  413: { meaning: 'invalid payment id', kind: 'merchant' },
  414: { meaning: 'invalid bill issuer', kind: 'merchant' },
  415: { meaning: 'session timed out', kind: 'customer' },
  416: { meaning: 'error recording data', kind: 'bank' },
  417: { meaning: 'invalid payer id', kind: 'merchant' },
  418: { meaning: 'error in customer data', kind: 'merchant' },
  419: { meaning: 'data entry tries exceeded', kind: 'customer' },
  421: { meaning: 'invalid IP address', kind: 'merchant' },
  51: { meaning: 'duplicate transaction', kind: 'state' },
  54: { meaning: 'reference transaction not found', kind: 'state' },
  55: { meaning: 'invalid transaction', kind: 'merchant' },
  61: { meaning: 'error in settlement', kind: 'bank' },
};

/** A code's meaning for messages and logs; an unknown code says so. */
export const mellatCodeMeaning = (code: number) => MELLAT_RESULT_CODES[code]?.meaning ?? `unknown result code ${code}`;

/** The callback's ResCode as Dargah's normalized state: 0 paid, 17 canceled by the customer, any other failed. */
export function callbackState(resCode: number): BankCallback['state'] {
  if (resCode === MELLAT_CODE.OK) return 'OK';
  if (resCode === MELLAT_CODE.CANCELED_BY_CUSTOMER) return 'CanceledByUser';
  return 'Failed';
}

/**
 * The fields of Mellat's post to our return route (RefId, ResCode, SaleOrderId, SaleReferenceId;
 * CardHolderPan and FinalAmount are not read: the callback is never trusted, and the amount a
 * verify confirms is the recorded one), checked for shape only. SaleOrderId must be the order id of `paymentId` when given; the normalized callback names
 * the payment by its id (res_num), the RefId as the token and SaleReferenceId as the reference.
 */
export function mellatCallback(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const refId = fields.RefId ?? '';
  const resCode = fields.ResCode ?? '';
  const saleOrderId = fields.SaleOrderId ?? '';
  const saleReferenceId = fields.SaleReferenceId ?? '';
  if (
    !/^[A-Za-z0-9_-]{1,64}$/.test(refId) ||
    !/^-?[0-9]{1,4}$/.test(resCode) ||
    !/^[0-9]{1,19}$/.test(saleOrderId) ||
    !/^[0-9]{0,40}$/.test(saleReferenceId)
  )
    return undefined;
  if (paymentId !== undefined && saleOrderId !== mellatOrderId(paymentId)) return undefined;
  const state = callbackState(Number(resCode));
  const named = !/^0*$/.test(saleReferenceId);
  if (state === 'OK' && !named) return undefined;
  // A failed return rarely names a sale, but when it does the inquiry can ask about that sale (client.ts: inquire).
  return { state, ref_num: named ? saleReferenceId : '', res_num: paymentId ?? saleOrderId, token: refId };
}

/** Whether a post to our return route carries Mellat's fields rather than SEP's. */
export const isMellatCallback = (fields: Record<string, string>) =>
  fields.RefId !== undefined && fields.ResCode !== undefined && fields.SaleOrderId !== undefined;

/** An answer's values: "0,ABC" → ['0', 'ABC']; its first is the ResCode. */
export function answerValues(answer: unknown): { code: number; values: string[] } {
  const text = typeof answer === 'string' || typeof answer === 'number' ? String(answer) : '';
  const [first = '', ...values] = text.split(',').map((v) => v.trim());
  return { code: /^-?[0-9]+$/.test(first) ? Number(first) : -1, values };
}

/**
 * bpInquiryRequest's ResCode as the inquiry's standing: 0 the sale was verified and stands (43 and 45,
 * verified or settled before, say as much), 17 canceled, a customer's code failed; anything else (not
 * found, not verified, reversed, the PSP's trouble) decides nothing (docs/psps/mellat.md#inquiry).
 */
export function inquiryStanding(code: number): Inquiry['standing'] {
  if (code === MELLAT_CODE.OK || code === MELLAT_CODE.ALREADY_VERIFIED || code === MELLAT_CODE.ALREADY_SETTLED)
    return 'succeeded';
  if (code === MELLAT_CODE.CANCELED_BY_CUSTOMER) return 'canceled';
  if (MELLAT_RESULT_CODES[code]?.kind === 'customer') return 'failed';
  return 'open';
}
