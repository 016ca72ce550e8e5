/**
 * Parsian's PEC IPG messages as Dargah reads them (docs/psps/parsian.md): the numeric order id of a
 * payment, the Status table, the return's fields, and the values of the SOAP answers (Status, Token,
 * RRN, CardNumberMasked). Pure code, no network: the client (client.ts) and the return route share it.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';
import { hashedLong } from '../connector.ts';

/**
 * The numeric order id (`OrderId`, a long at PEC, "unique for every transaction, its uniqueness
 * checked by the bank": -112 for one used before) of a payment: the first 13 hex digits of the
 * SHA-256 of its id, so below 2^52, a safe integer, the same on every call and worker without being
 * stored. The return's OrderId is compared to it and never trusted on its own.
 */
export function parsianOrderId(paymentId: string): string {
  return String(hashedLong(paymentId));
}

/** The Status values Dargah acts on by name (PEC's IPG document, "the list of the gateway's statuses"). */
export const PARSIAN_STATUS = {
  OK: 0,
  /** The switch's "Request In-progress": the only in-progress answer the table has (docs/psps/parsian.md#in-progress). */
  IN_PROGRESS: 9,
  /** ReverseSuccessful: "the transaction was reversed successfully". */
  REVERSE_SUCCESSFUL: -102,
  /** OrderIdDuplicated: an order id used before at this terminal. */
  ORDER_ID_DUPLICATED: -112,
  TOKEN_EXPIRED: -130,
  INVALID_TOKEN: -131,
  CANCELED_BY_USER: -138,
  /** ReversalCompleted: "the reversal was sent to the switch". */
  REVERSAL_COMPLETED: -1507,
  CONFIRM_INFO_NOT_FOUND: -1528,
  CANNOT_CONFIRM_UNSUCCESSFUL: -1531,
  ALREADY_CONFIRMED: -1533,
  REVERSAL_TIME_EXCEEDED: -1549,
  NOT_REVERSIBLE_NOW: -1550,
  ALREADY_REVERSED: -1551,
} as const;

type Kind = 'ok' | 'customer' | 'merchant' | 'bank' | 'state';

/**
 * PEC's Status table (its IPG document's appendix; the same table in shetabit/multipay and
 * meyt/payit), what each means, and what it is to Dargah: `customer` codes are the customer's card or
 * choice at PEC's page (a return with one is a failed payment); `merchant` codes are our request or
 * terminal (a refusal, never retried into success); `bank` codes are PEC's or the switch's trouble;
 * `state` codes answer about the transaction itself. Negative codes are PEC's own, positive ones the
 * switch's (the document's note).
 */
export const PARSIAN_STATUS_CODES: Readonly<Record<number, { meaning: string; kind: Kind }>> = {
  [-32768]: { meaning: 'unknown error', kind: 'bank' },
  [-1552]: { meaning: 'the payment is not eligible to reversal', kind: 'state' },
  [-1551]: { meaning: 'the payment is already reversed', kind: 'state' },
  [-1550]: { meaning: 'the payment cannot be reversed in its current state', kind: 'state' },
  [-1549]: { meaning: 'the time allowed for a reversal has passed', kind: 'state' },
  [-1548]: { meaning: 'the bill payment service failed', kind: 'bank' },
  [-1540]: { meaning: 'the confirmation failed', kind: 'state' },
  [-1536]: { meaning: 'the top-up service failed', kind: 'bank' },
  [-1533]: { meaning: 'the payment is already confirmed', kind: 'state' },
  [-1532]: { meaning: 'the merchant has confirmed the payment', kind: 'state' },
  [-1531]: { meaning: 'an unsuccessful payment cannot be confirmed', kind: 'state' },
  [-1530]: { meaning: 'the merchant may not confirm this payment', kind: 'merchant' },
  [-1528]: { meaning: 'the payment was not found', kind: 'state' },
  [-1527]: { meaning: 'the sale payment request failed', kind: 'bank' },
  [-1507]: { meaning: 'the reversal was sent to the switch', kind: 'state' },
  [-1505]: { meaning: 'the merchant confirmed the payment', kind: 'state' },
  [-138]: { meaning: 'canceled by the customer', kind: 'customer' },
  [-132]: { meaning: 'the amount is below the minimum', kind: 'merchant' },
  [-131]: { meaning: 'invalid token', kind: 'state' },
  [-130]: { meaning: 'the token has expired', kind: 'customer' },
  [-128]: { meaning: 'invalid IP address format', kind: 'merchant' },
  [-127]: { meaning: "the merchant's IP address is not allowed", kind: 'merchant' },
  [-126]: { meaning: 'invalid merchant PIN (LoginAccount)', kind: 'merchant' },
  [-121]: { meaning: 'the string is not wholly numeric', kind: 'merchant' },
  [-120]: { meaning: 'invalid input length', kind: 'merchant' },
  [-119]: { meaning: 'invalid organization', kind: 'merchant' },
  [-118]: { meaning: 'the value is not a number', kind: 'merchant' },
  [-117]: { meaning: 'the string is shorter than allowed', kind: 'merchant' },
  [-116]: { meaning: 'the string is longer than allowed', kind: 'merchant' },
  [-115]: { meaning: 'invalid payment id', kind: 'merchant' },
  [-114]: { meaning: 'invalid bill id', kind: 'merchant' },
  [-113]: { meaning: 'an input is empty', kind: 'merchant' },
  [-112]: { meaning: 'duplicate order id', kind: 'merchant' },
  [-111]: { meaning: "the amount exceeds the merchant's maximum", kind: 'merchant' },
  [-108]: { meaning: 'reversal is not enabled for the merchant', kind: 'merchant' },
  [-107]: { meaning: 'confirmation is not enabled for the merchant', kind: 'merchant' },
  [-106]: { meaning: 'charge is not enabled for the merchant', kind: 'merchant' },
  [-105]: { meaning: 'top-up is not enabled for the merchant', kind: 'merchant' },
  [-104]: { meaning: 'bill payment is not enabled for the merchant', kind: 'merchant' },
  [-103]: { meaning: 'sale is not enabled for the merchant', kind: 'merchant' },
  [-102]: { meaning: 'the transaction was reversed successfully', kind: 'state' },
  [-101]: { meaning: 'merchant authentication failed', kind: 'merchant' },
  [-100]: { meaning: 'the merchant is not active', kind: 'merchant' },
  [-1]: { meaning: 'server error', kind: 'bank' },
  0: { meaning: 'successful', kind: 'ok' },
  1: { meaning: 'refer to card issuer: declined', kind: 'customer' },
  2: { meaning: 'refer to card issuer: special conditions', kind: 'customer' },
  3: { meaning: 'invalid merchant', kind: 'merchant' },
  5: { meaning: 'do not honour', kind: 'customer' },
  6: { meaning: 'error', kind: 'bank' },
  8: { meaning: 'honour with identification', kind: 'customer' },
  9: { meaning: 'request in progress', kind: 'state' },
  10: { meaning: 'approved for a partial amount', kind: 'customer' },
  12: { meaning: 'invalid transaction', kind: 'customer' },
  13: { meaning: 'invalid amount', kind: 'customer' },
  14: { meaning: 'invalid card number', kind: 'customer' },
  15: { meaning: 'no such issuer', kind: 'customer' },
  17: { meaning: 'customer cancellation', kind: 'customer' },
  20: { meaning: 'invalid response', kind: 'bank' },
  21: { meaning: 'no action taken', kind: 'bank' },
  22: { meaning: 'suspected malfunction', kind: 'customer' },
  30: { meaning: 'format error', kind: 'bank' },
  31: { meaning: 'bank not supported by the switch', kind: 'customer' },
  32: { meaning: 'completed partially', kind: 'customer' },
  33: { meaning: 'expired card', kind: 'customer' },
  38: { meaning: 'PIN tries exceeded', kind: 'customer' },
  39: { meaning: 'no credit account', kind: 'customer' },
  40: { meaning: 'requested function not supported', kind: 'customer' },
  41: { meaning: 'lost card', kind: 'customer' },
  43: { meaning: 'stolen card', kind: 'customer' },
  45: { meaning: 'the bill cannot be paid', kind: 'customer' },
  51: { meaning: 'insufficient funds', kind: 'customer' },
  54: { meaning: 'expired account', kind: 'customer' },
  55: { meaning: 'incorrect PIN', kind: 'customer' },
  56: { meaning: 'no card record', kind: 'customer' },
  57: { meaning: 'transaction not permitted to the cardholder', kind: 'customer' },
  58: { meaning: 'transaction not permitted to the terminal', kind: 'customer' },
  59: { meaning: 'suspected fraud', kind: 'customer' },
  61: { meaning: 'exceeds the withdrawal amount limit', kind: 'customer' },
  62: { meaning: 'restricted card', kind: 'customer' },
  63: { meaning: 'security violation', kind: 'customer' },
  65: { meaning: 'exceeds the withdrawal frequency limit', kind: 'customer' },
  68: { meaning: 'response received too late', kind: 'bank' },
  69: { meaning: 'PIN tries exceeded', kind: 'customer' },
  75: { meaning: 'PIN tries exceeded', kind: 'customer' },
  78: { meaning: 'deactivated card', kind: 'customer' },
  79: { meaning: 'invalid account', kind: 'customer' },
  80: { meaning: 'transaction denied', kind: 'customer' },
  81: { meaning: 'cancelled card', kind: 'customer' },
  83: { meaning: 'host refused', kind: 'bank' },
  84: { meaning: 'issuer down', kind: 'bank' },
  91: { meaning: 'issuer or switch inoperative', kind: 'bank' },
  92: { meaning: 'not found for routing', kind: 'bank' },
  93: { meaning: 'the transaction cannot be completed', kind: 'bank' },
};

/** A code's meaning for messages and logs; an unknown code says so. */
export const parsianStatusMeaning = (code: number) => PARSIAN_STATUS_CODES[code]?.meaning ?? `unknown status ${code}`;

/** The return's `status` as Dargah's normalized state: 0 paid, -138 canceled by the customer at PEC's page, any other failed. */
export function returnState(status: number): BankCallback['state'] {
  if (status === PARSIAN_STATUS.OK) return 'OK';
  if (status === PARSIAN_STATUS.CANCELED_BY_USER) return 'CanceledByUser';
  return 'Failed';
}

/** A PEC Token or RRN as the wire has it: a long, so digits without a leading zero. */
const POSITIVE_LONG = /^[1-9][0-9]{0,18}$/;

/**
 * The fields of PEC's post to our return route (PEC's IPG document: Token, status, OrderId,
 * TerminalNo, RRN, HashCardNumber, Amount), checked for shape only: the return is never trusted, and
 * ConfirmPayment decides. OrderId must be the order id of `paymentId` when given. The normalized
 * callback names the payment by its id (res_num) and the Token twice: as the token (the workflow holds
 * it to the one SalePaymentRequest gave this payment) and, on a paid return, as the reference
 * ConfirmPayment and ReversalRequest are asked by. A paid return without a Token (`Token > 0` is the
 * document's own condition) is not read; a canceled or failed one may carry none.
 */
export function parsianReturn(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const token = (fields.Token ?? '').trim();
  const status = (fields.status ?? '').trim();
  const orderId = (fields.OrderId ?? '').trim();
  if (!/^-?[0-9]{1,6}$/.test(status) || !POSITIVE_LONG.test(orderId) || !/^(0|[1-9][0-9]{0,18})?$/.test(token))
    return undefined;
  if (paymentId !== undefined && orderId !== parsianOrderId(paymentId)) return undefined;
  const state = returnState(Number(status));
  const named = POSITIVE_LONG.test(token);
  if (state === 'OK' && !named) return undefined;
  return { state, ref_num: state === 'OK' ? token : '', res_num: paymentId ?? orderId, token: named ? token : '' };
}

/** Whether a post to our return route carries PEC's fields (its lower-case `status`, OrderId, Token) rather than SEP's or Mellat's. */
export const isParsianReturn = (fields: Record<string, string>) =>
  fields.status !== undefined && fields.OrderId !== undefined && fields.Token !== undefined;

/**
 * ConfirmPayment's RRN as Dargah records it: 12 digits. PEC sends it as a long (ClientConfirmResponseData),
 * so a Shaparak RRN with a leading zero arrives without it and is given it back; 0 (no RRN) or anything
 * that is no positive long of at most 12 digits is none.
 */
export function confirmedRrn(value: string): string | null {
  const text = value.trim();
  return POSITIVE_LONG.test(text) && text.length <= 12 ? text.padStart(12, '0') : null;
}

/**
 * ConfirmPayment's CardNumberMasked as Dargah records a masked card (first six, stars, last four):
 * separators (dashes, spaces) dropped and x or # read as the star. No reference shows a real answer's
 * mask (docs/psps/parsian.md#the-card-that-paid); one of another shape is none.
 */
export function confirmedMaskedCard(value: string): string | null {
  const text = value.replace(/[\s-]/g, '').replace(/[xX#]/g, '*');
  return /^[0-9]{6}\*+[0-9]{4}$/.test(text) ? text : null;
}

/** A SOAP answer's value (a long, a short or a string, kept as text by the client's deserializer) as text; '' when absent. */
export const answerText = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';

/** A Status as a number; -32768 (PEC's "unknown error") when the answer has none or not a number. */
export const answerStatus = (value: unknown): number => {
  const text = answerText(value);
  return /^-?[0-9]{1,6}$/.test(text) ? Number(text) : -32768;
};

/** ReversalRequest's Status: done now (0, or -102 "reversed successfully", -1507 "sent to the switch"), done before (-1551), or neither. */
export function reversalDone(status: number): boolean {
  return (
    status === PARSIAN_STATUS.OK ||
    status === PARSIAN_STATUS.REVERSE_SUCCESSFUL ||
    status === PARSIAN_STATUS.REVERSAL_COMPLETED ||
    status === PARSIAN_STATUS.ALREADY_REVERSED
  );
}
