/**
 * PEP's (Pasargad Electronic Payment's) REST messages as Dargah reads them (docs/psps/pasargad.md): the
 * payment's invoice number, the invoice date, the result codes and what each is to Dargah, the return's
 * query to BankCallback, and the answers of payment-inquiry and confirm-transactions, as the conformance
 * corpus (test/fixtures/psps/pasargad/) shows them. Pure code, no network: the client (client.ts) and the
 * return route share it.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';
import type { Confirmation } from '../psp-client.ts';
import { numericOrderId } from '../connector.ts';

/**
 * The payment's invoice number at PEP (`invoice` of the purchase, `invoiceId` of the return and the
 * inquiry): numericOrderId, fifteen digits at most, the same on every call and worker without being
 * stored. PEP refuses an invoice used before (13003), and every later call names the payment by it.
 */
export function pasargadOrderId(paymentId: string): string {
  return numericOrderId(paymentId);
}

/** PEP's codes Dargah acts on by name (docs/psps/pasargad.md#result-codes). */
export const PASARGAD_CODE = {
  OK: 0,
  /** A call's failure (iran-payment-laravel's failed answer); Dargah's code for an answer it cannot read as a refusal. */
  FAILED: 1,
  /** An inquiry's status: the transaction's state is not known yet (asked again). */
  UNKNOWN: 2,
  NOT_AUTHORIZED: 401,
  INVOICE_NOT_UNIQUE: 13003,
  NOT_FOUND: 13016,
  /** An inquiry's status: successful and confirmed; to a confirm, confirmed before. */
  CONFIRMED: 13029,
  /** An inquiry's status: paid and awaiting the merchant's confirmation. */
  AWAITING_CONFIRMATION: 13031,
  /** The transaction was reversed (given back), by us or by PEP. */
  REVERSED: 13033,
  REVERSE_TIME_EXPIRED: 13076,
  /** To a confirm: the confirmation was sent before. */
  ALREADY_VERIFIED: 13428,
  /** Not PEP's: Dargah's own code for an answer that names another amount, invoice or reference than the payment's. */
  NOT_THIS_PAYMENT: -1001,
} as const;

type Kind = 'ok' | 'customer' | 'merchant' | 'bank' | 'state';

/**
 * PEP's codes (its table, pep-ipg/Dorsa-IPG-pasargad docs/error-codes.md; the same in shetabit/multipay's
 * and iran-payment-laravel's tables), the ones a purchase, an inquiry, a confirm or a reversal of Dargah's
 * may meet, and what each is to Dargah: `merchant` codes are our request, terminal or credentials (a
 * refusal, never retried into success); `bank` PEP's or Shaparak's trouble; `customer` the customer's card;
 * `state` answers about the transaction itself. One table serves both a call's resultCode and an inquiry's
 * data.status, as PEP's does.
 */
export const PASARGAD_RESULT_CODES: Readonly<Record<number, { meaning: string; kind: Kind }>> = {
  0: { meaning: 'successful', kind: 'ok' },
  1: { meaning: 'failed', kind: 'state' },
  2: { meaning: "the transaction's status is unknown", kind: 'state' },
  401: { meaning: 'not authorized to use the service', kind: 'merchant' },
  500: { meaning: 'internal server error', kind: 'bank' },
  13000: { meaning: 'invalid input', kind: 'merchant' },
  13001: { meaning: 'malformed token', kind: 'merchant' },
  13002: { meaning: 'invalid token', kind: 'merchant' },
  13003: { meaning: 'the invoice is not unique', kind: 'merchant' },
  13004: { meaning: 'the token is empty', kind: 'merchant' },
  13005: { meaning: 'the server cannot be reached for now', kind: 'bank' },
  13008: { meaning: 'the token has expired', kind: 'merchant' },
  13009: { meaning: 'url token not found', kind: 'state' },
  13016: { meaning: 'transaction not found', kind: 'state' },
  13018: { meaning: 'not found', kind: 'state' },
  13025: { meaning: 'the transaction was unsuccessful', kind: 'state' },
  13028: { meaning: 'the callback domain is not valid', kind: 'merchant' },
  13029: { meaning: 'successful and confirmed', kind: 'state' },
  13030: { meaning: 'verified before, and failed', kind: 'state' },
  13031: { meaning: 'paid, awaiting confirmation', kind: 'state' },
  13033: { meaning: 'reversed: the money was given back', kind: 'state' },
  13034: { meaning: 'a successful verify was received: confirmed at the agreed time', kind: 'state' },
  13045: { meaning: 'the card holder canceled the transaction', kind: 'customer' },
  13046: { meaning: 'already settled', kind: 'state' },
  13047: { meaning: 'invalid merchant', kind: 'merchant' },
  13049: { meaning: 'the transaction is incomplete', kind: 'state' },
  13054: { meaning: 'invalid transaction', kind: 'state' },
  13055: { meaning: 'invalid amount', kind: 'merchant' },
  13063: { meaning: 'not enough money on the card', kind: 'customer' },
  13064: { meaning: 'wrong PIN', kind: 'customer' },
  13071: { meaning: 'the amount does not match the final price', kind: 'merchant' },
  13075: { meaning: 'the time to confirm is over', kind: 'state' },
  13076: { meaning: 'the time to reverse is over', kind: 'state' },
  13077: { meaning: 'invalid original transaction', kind: 'state' },
  13084: { meaning: 'the switch or Shaparak is signed off', kind: 'bank' },
  13090: { meaning: 'end of the working day', kind: 'bank' },
  13091: { meaning: 'the switch is inactive', kind: 'bank' },
  13096: { meaning: "the switch's internal error", kind: 'bank' },
  13099: { meaning: 'invalid terminal', kind: 'merchant' },
  13300: { meaning: 'the terminal is inactive', kind: 'merchant' },
  13301: { meaning: 'the shop is not defined', kind: 'merchant' },
  13303: { meaning: 'invalid terminal password', kind: 'merchant' },
  13319: { meaning: 'the system is disturbed', kind: 'bank' },
  13324: { meaning: 'the original financial transaction was not successful', kind: 'state' },
  13325: { meaning: 'the original transaction was not found', kind: 'state' },
  13329: { meaning: 'the system is busy', kind: 'bank' },
  13339: { meaning: 'the answer came too late', kind: 'bank' },
  13351: { meaning: "the invoice's format is not valid", kind: 'merchant' },
  13352: { meaning: 'the user name is not valid', kind: 'merchant' },
  13358: { meaning: "the transaction's status must be unknown", kind: 'state' },
  13366: { meaning: 'the token is not active', kind: 'merchant' },
  13368: { meaning: 'login error', kind: 'merchant' },
  13369: { meaning: 'invalid input format', kind: 'merchant' },
  13395: { meaning: 'the refund was rejected', kind: 'state' },
  13399: { meaning: 'terminal not found', kind: 'merchant' },
  13402: { meaning: 'the Referer does not match the registered one', kind: 'merchant' },
  13407: { meaning: 'authentication error', kind: 'merchant' },
  13421: { meaning: 'the transaction has ended', kind: 'state' },
  13422: { meaning: "the merchant's IP address is not valid", kind: 'merchant' },
  13426: { meaning: 'the transaction is not confirmed', kind: 'state' },
  13427: { meaning: 'unauthorized access', kind: 'merchant' },
  13428: { meaning: 'the confirmation was sent before', kind: 'state' },
  13429: { meaning: 'authorization failed', kind: 'merchant' },
  13430: { meaning: 'authorization failed: try again later', kind: 'bank' },
};

/** A code's meaning for messages and logs; an unknown code says so. */
export const pasargadCodeMeaning = (code: number) =>
  PASARGAD_RESULT_CODES[code]?.meaning ?? `unknown result code ${code}`;

/** A whole number as PEP's clients see it: a number, or digits (a sign allowed) in a string; NaN otherwise. */
export const wholeNumber = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v)
    ? v
    : typeof v === 'string' && /^-?[0-9]{1,16}$/.test(v.trim())
      ? Number(v)
      : Number.NaN;

/**
 * The purchase's invoiceDate: Tehran's wall time as "YYYY/MM/DD HH:mm:ss" (Parbad's, shetabit/multipay's and
 * Parbab's format; PEP's example is a Jalali date and Parbad's model says any format will do).
 */
export function pasargadInvoiceDate(at = new Date()): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Tehran',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** A purchase's urlId, as the later calls name the transaction by it: no source says its shape, so letters and digits. */
export const PASARGAD_URL_ID = /^[A-Za-z0-9]{1,128}$/;
/** The return's and the answers' referenceNumber (the Shaparak reference): digits. */
const REFERENCE = /^[0-9]{1,20}$/;
const INVOICE = /^[0-9]{1,19}$/;

/** A field by its name in any case (the sources read the return's fields case-insensitively). */
function field(fields: Record<string, string>, name: string): string | undefined {
  if (Object.hasOwn(fields, name)) return fields[name];
  const lower = name.toLowerCase();
  const key = Object.keys(fields).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : fields[key];
}

/** The return's statuses (PEP's api-reference) and what each is to Dargah. */
const RETURN_STATES: Readonly<Record<string, BankCallback['state']>> = {
  success: 'OK',
  cancel: 'CanceledByUser',
  failed: 'Failed',
  expire: 'Failed',
  // "unknown": PEP does not know yet; with nothing confirmed at PEP, a payment nobody confirms is given
  // back by PEP itself, so the return is a failure to Dargah (docs/psps/pasargad.md).
  unknown: 'Failed',
};

/**
 * PEP's return to our return route (a GET with invoiceId, status, and on a paid one referenceNumber and
 * trackId in the query), checked for shape only: the invoiceId must be `paymentId`'s invoice when given,
 * the status one of PEP's five, and a paid return must carry its referenceNumber, which is the callback's
 * reference (`ref_num`) that the inquiry's answer must repeat. The return carries no token (PEP's urlId
 * is not in it), so `token` is ''.
 */
export function pasargadReturn(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const invoice = (field(fields, 'invoiceId') ?? '').trim();
  const status = (field(fields, 'status') ?? '').trim().toLowerCase();
  const reference = (field(fields, 'referenceNumber') ?? '').trim();
  const state = Object.hasOwn(RETURN_STATES, status) ? RETURN_STATES[status] : undefined;
  if (!INVOICE.test(invoice) || state === undefined || (reference !== '' && !REFERENCE.test(reference)))
    return undefined;
  if (paymentId !== undefined && invoice !== pasargadOrderId(paymentId)) return undefined;
  if (state === 'OK' && reference === '') return undefined;
  return { state, ref_num: reference, res_num: paymentId ?? invoice, token: '' };
}

/** Whether a return's fields are PEP's (invoiceId and status, in any case) rather than another PSP's. */
export const recognisesPasargadReturn = (fields: Record<string, string>) =>
  field(fields, 'invoiceId') !== undefined && field(fields, 'status') !== undefined;

/** What a payment-inquiry answer says of a transaction (inquiry-answer-*.json). */
export type InquiryReading =
  | {
      /** `paid`: paid, not confirmed (0, 13031); `confirmed`: paid and confirmed (13029); `undecided`: 2; `not_paid`: any other status. */
      standing: 'paid' | 'confirmed' | 'undecided' | 'not_paid';
      status: number;
      invoice: string;
      urlId: string;
      amount: number;
      referenceNumber: string;
      cardNumber: string;
    }
  | { standing: 'refused'; code: number; description: string };

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

/** A payment-inquiry answer read: a resultCode but 0 is a refusal; else its data by its status. */
export function readInquiry(answer: Record<string, unknown>): InquiryReading {
  const code = wholeNumber(answer.resultCode);
  if (code !== PASARGAD_CODE.OK) {
    const description = typeof answer.resultMsg === 'string' && answer.resultMsg !== '' ? answer.resultMsg : '';
    const known = Number.isNaN(code) ? PASARGAD_CODE.FAILED : code;
    return { standing: 'refused', code: known, description: description || pasargadCodeMeaning(known) };
  }
  const data = (typeof answer.data === 'object' && answer.data !== null ? answer.data : {}) as Record<string, unknown>;
  const status = wholeNumber(data.status);
  const standing =
    status === PASARGAD_CODE.OK || status === PASARGAD_CODE.AWAITING_CONFIRMATION
      ? 'paid'
      : status === PASARGAD_CODE.CONFIRMED
        ? 'confirmed'
        : status === PASARGAD_CODE.UNKNOWN
          ? 'undecided'
          : 'not_paid';
  const amount = wholeNumber(data.amount);
  return {
    standing,
    status: Number.isNaN(status) ? PASARGAD_CODE.FAILED : status,
    invoice: str(data.invoice),
    urlId: str(data.url),
    amount: Number.isNaN(amount) ? -1 : amount,
    referenceNumber: str(data.referenceNumber),
    cardNumber: str(data.cardNumber),
  };
}

/**
 * The inquiry at the customer's paid return as a Confirmation: PEP's own word that it holds the payment,
 * without confirming it there (confirm-transactions is final and waits for the merchant's verify). A paid
 * or confirmed transaction is `confirmed` with what PEP names: its referenceNumber (the reference, and the
 * RRN: the Shaparak reference), the invoice (another invoice than the payment's becomes `order:<invoice>`),
 * the amount and the masked card; our terminal, which the bearer token was given for (the answer names
 * none). The workflow's judgment (isGenuineConfirmation) holds them to the payment and the return's
 * referenceNumber. Status 2 is `in_progress` (asked again); any other status a refusal with it as the
 * code: the customer did not pay, or PEP already gave it back (13033).
 */
export function inquiryConfirmation(reading: InquiryReading, paymentId: string, terminal: string): Confirmation {
  if (reading.standing === 'refused')
    return { result: 'refused', code: reading.code, description: reading.description };
  if (reading.standing === 'undecided') return { result: 'in_progress' };
  if (reading.standing === 'not_paid')
    return { result: 'refused', code: reading.status, description: pasargadCodeMeaning(reading.status) };
  const ours = reading.invoice === pasargadOrderId(paymentId);
  return {
    result: 'confirmed',
    ref_num: reading.referenceNumber,
    res_num: ours ? paymentId : `order:${reading.invoice}`,
    amount: reading.amount,
    terminal,
    rrn: reading.referenceNumber,
    card_pan: reading.cardNumber,
  };
}

/** Whether an inquiry's reading is of this payment's sale as recorded: its invoice, amount and reference. */
export const isOurSale = (
  reading: Extract<InquiryReading, { invoice: string }>,
  paymentId: string,
  amount: number,
  refNum: string,
) =>
  reading.invoice === pasargadOrderId(paymentId) &&
  reading.amount === amount &&
  reading.referenceNumber === refNum &&
  PASARGAD_URL_ID.test(reading.urlId);

/** confirm-transactions' answer (confirm-answer-*.json): confirmed now, confirmed before, or refused. */
export type ConfirmReading =
  | { result: 'confirmed'; invoice: string; amount: number; referenceNumber: string }
  | { result: 'confirmed_before'; code: number }
  | { result: 'refused'; code: number; description: string };

export function readConfirmAnswer(answer: Record<string, unknown>): ConfirmReading {
  const code = wholeNumber(answer.resultCode);
  if (code === PASARGAD_CODE.ALREADY_VERIFIED || code === PASARGAD_CODE.CONFIRMED)
    return { result: 'confirmed_before', code };
  if (code !== PASARGAD_CODE.OK) {
    const known = Number.isNaN(code) ? PASARGAD_CODE.FAILED : code;
    const description = typeof answer.resultMsg === 'string' && answer.resultMsg !== '' ? answer.resultMsg : '';
    return { result: 'refused', code: known, description: description || pasargadCodeMeaning(known) };
  }
  const data = (typeof answer.data === 'object' && answer.data !== null ? answer.data : {}) as Record<string, unknown>;
  const amount = wholeNumber(data.amount);
  return {
    result: 'confirmed',
    invoice: str(data.invoice),
    amount: Number.isNaN(amount) ? -1 : amount,
    referenceNumber: str(data.referenceNumber),
  };
}
