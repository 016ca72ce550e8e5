/**
 * Asan Pardakht's REST IPG messages as Dargah reads them (docs/psps/asanpardakht.md): the numeric
 * invoice id of a payment (`localInvoiceId`), what each HTTP status of each call means (Asan
 * Pardakht answers a call's outcome by its HTTP status: 200 done, 4xx and 5xx of its own numbering
 * otherwise, the body a JSON string or nothing), the customer's return, and TranResult's detail of a
 * paid transaction. Pure code, no network: the client (client.ts) and the connector (index.ts) share it.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';
import { numericOrderId } from '../connector.ts';

/**
 * The numeric invoice id (`localInvoiceId`, a long at the PSP) of a payment (numericOrderId: fifteen
 * digits at most, the same on every call and worker without being stored). Asan Pardakht refuses an invoice id used before (489), so each payment has
 * its own; the token request names it, the callback URL carries it back, and TranResult finds the
 * customer's transaction by it.
 */
export function asanpardakhtOrderId(paymentId: string): string {
  return numericOrderId(paymentId);
}

/**
 * The query field our callback URL carries (the integrations add their own: `localInvoiceId` in the
 * AsanPardakht.IPG sample, `invoice` in shetabit/multipay, `invoiceID` in BamdadPaymentCore). No
 * reference reads a field Asan Pardakht's page posts to the callback: each finds the transaction by
 * this id with TranResult.
 */
export const RETURN_INVOICE_FIELD = 'localInvoiceId';

/** The callback URL of a token request: our return route with the payment's invoice id added to its query. */
export function callbackUrlOf(redirectUrl: string, paymentId: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set(RETURN_INVOICE_FIELD, asanpardakhtOrderId(paymentId));
  return url.toString();
}

/** The REST calls, as the integrations name their paths (under /v1). */
export type AsanCall = 'token' | 'tranResult' | 'verify' | 'settlement' | 'reverse' | 'cancel';

/**
 * What an HTTP status of a call is to Dargah: `done` now, `done_before` (a retry of a call that
 * did its work), `in_progress` (the PSP has not finished with the transaction: asked again later),
 * `use_cancel` (Reverse of a transaction that was verified: Cancel undoes it instead), `refused`
 * (the same answer on every try), `unavailable` (the PSP's trouble: worth another try).
 */
export type AsanOutcome = 'done' | 'done_before' | 'in_progress' | 'use_cancel' | 'refused' | 'unavailable';

interface StatusEntry {
  meaning: string;
  outcome: AsanOutcome;
}

const refused = (meaning: string): StatusEntry => ({ meaning, outcome: 'refused' });
const unavailable = (meaning: string): StatusEntry => ({ meaning, outcome: 'unavailable' });

/** Every call's 400 and 401, as BamdadPaymentCore and shetabit/multipay list them. */
const COMMON: Readonly<Record<number, StatusEntry>> = {
  200: { meaning: 'done', outcome: 'done' },
  400: refused('bad request'),
  401: refused('unauthorized: wrong or missing usr/pwd headers'),
};

/**
 * Each call's own statuses (docs/psps/asanpardakht.md#result-codes). The token's are shetabit/multipay's
 * table; TranResult's, Verify's, Settlement's, Reverse's and Cancel's are BamdadPaymentCore's per
 * call, Verify's, Settlement's and Reverse's grouped the same by the AsanPardakht.IPG sample (done
 * before: Verify 472, 473, 475; Settlement 474, 476; Reverse 473, 475; Reverse 472: Cancel instead).
 */
export const ASAN_STATUS: Readonly<Record<AsanCall, Readonly<Record<number, StatusEntry>>>> = {
  token: {
    ...COMMON,
    471: refused('identity not trusted to proceed'),
    472: refused('no records found'),
    473: refused('invalid merchant username or password'),
    474: refused('invalid incoming request machine ip'),
    475: refused('invoice identifier is not a number'),
    476: refused('request amount is not a number'),
    477: refused('request local date length is invalid'),
    478: refused('request local date is not in valid format'),
    479: refused('invalid service type id'),
    480: refused('invalid payer id'),
    481: refused('incorrect settlement description format'),
    482: refused('settlement slices does not match total amount'),
    483: refused('unregistered iban'),
    484: unavailable('internal error for other reasons'),
    485: refused('invalid local date'),
    486: refused('amount not in range'),
    487: refused('service not found or not available for merchant'),
    488: refused('invalid default callback'),
    489: refused('duplicate local invoice id'),
    490: refused('merchant disabled or misconfigured'),
    491: refused('too many settlement destinations'),
    492: refused('unprocessable request'),
    493: refused('error processing special request'),
    494: refused('invalid payment_id for governmental payment'),
    495: refused('invalid referenceId in additionalData'),
    496: refused('invalid json in additionalData'),
    497: refused('invalid payment_id location'),
    571: refused('misconfiguration or not yet processed'),
    572: refused('misconfiguration or transaction status undetermined'),
    573: refused('misconfigured valid ips for configuration'),
    574: unavailable('internal error in authorization'),
    575: refused('no valid ibans found for merchant'),
    576: unavailable('internal error'),
    577: unavailable('internal error'),
    578: refused('no default sharing is defined for merchant'),
    579: refused('cannot submit ibans with default sharing endpoint'),
    580: refused('error processing special request'),
  },
  tranResult: {
    ...COMMON,
    471: refused('identity not trusted to proceed'),
    472: refused('no records found'),
    571: { meaning: 'not yet processed', outcome: 'in_progress' },
    572: { meaning: 'transaction status undetermined', outcome: 'in_progress' },
  },
  verify: {
    ...COMMON,
    471: refused('original transaction was failed'),
    472: { meaning: 'transaction already requested for verification', outcome: 'done_before' },
    473: { meaning: 'transaction already requested for reconciliation', outcome: 'done_before' },
    474: refused('transaction already requested for reversal'),
    475: { meaning: 'transaction already listed for reconciliation', outcome: 'done_before' },
    476: refused('transaction already listed for reversal'),
    477: refused('identity not trusted to proceed'),
    478: refused('verification already cancelled'),
    571: { meaning: 'not yet processed', outcome: 'in_progress' },
    572: { meaning: 'transaction status undetermined', outcome: 'in_progress' },
    573: unavailable('unable to request for verification due to an internal error'),
  },
  settlement: {
    ...COMMON,
    471: refused('original transaction was failed'),
    472: refused('transaction not verified'),
    473: refused('transaction already requested for reversal'),
    474: { meaning: 'transaction already requested for reconciliation', outcome: 'done_before' },
    475: refused('transaction already listed for reversal'),
    476: { meaning: 'transaction already listed for reconciliation', outcome: 'done_before' },
    477: refused('identity not trusted to proceed'),
    478: refused('verification already cancelled'),
    571: unavailable('not yet processed'),
    572: unavailable('transaction status undetermined'),
    573: unavailable('unable to request for reconciliation due to an internal error'),
  },
  reverse: {
    ...COMMON,
    471: refused('original transaction was failed'),
    472: { meaning: 'cannot reverse a verified transaction', outcome: 'use_cancel' },
    473: { meaning: 'transaction already requested for reversal', outcome: 'done_before' },
    474: refused('transaction already requested for reconciliation'),
    475: { meaning: 'transaction already listed for reversal', outcome: 'done_before' },
    476: refused('transaction already listed for reconciliation'),
    477: refused('identity not trusted to proceed'),
    571: unavailable('not yet processed'),
    572: unavailable('transaction status undetermined'),
    573: unavailable('unable to request for reversal due to an internal error'),
  },
  cancel: {
    ...COMMON,
    801: unavailable('processing not yet completed'),
    802: unavailable('transaction status undetermined'),
    803: refused('original transaction was failed'),
    804: refused('transaction not yet verified'),
    805: refused('settlement request already made for this transaction'),
    806: { meaning: 'reversal request already made for this transaction', outcome: 'done_before' },
    807: refused('transaction listed under pending settlements'),
    808: { meaning: 'transaction listed under pending reversals', outcome: 'done_before' },
    809: unavailable('operation cannot be performed due to an internal issue'),
    810: refused('identity of the requester is invalid'),
    811: refused('not allowed for bill payment transactions'),
    812: refused('verification details not found'),
    813: { meaning: 'verification already cancelled', outcome: 'done_before' },
    814: refused('past the time allowed after the verification'),
  },
};

/**
 * What `status` of `call` is: its table's entry; a status no table lists is the PSP's trouble when
 * it is a 5xx or 429 (worth another try), else a refusal.
 */
export function asanStatus(call: AsanCall, status: number): StatusEntry {
  const known = ASAN_STATUS[call][status];
  if (known !== undefined) return known;
  return status >= 500 || status === 429 ? unavailable(`HTTP ${status}`) : refused(`HTTP ${status}`);
}

/**
 * The customer's return to our callback URL: the invoice id our token request put in its query
 * (Asan Pardakht's page adds nothing any reference reads; whatever it posts is ignored). It says
 * nothing of the outcome: the return is the customer back, the state `OK` means "ask the PSP", and
 * TranResult answers whether the customer paid. The invoice id must be the payment's own when
 * `paymentId` is given; it is the return's reference (`ref_num`), by which every call finds the
 * transaction. No token: the RefId is not in the return.
 */
export function asanpardakhtCallback(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const invoice = fields[RETURN_INVOICE_FIELD] ?? '';
  if (!/^[1-9][0-9]{0,18}$/.test(invoice)) return undefined;
  if (paymentId !== undefined && invoice !== asanpardakhtOrderId(paymentId)) return undefined;
  return { state: 'OK', ref_num: invoice, res_num: paymentId ?? invoice, token: '' };
}

/** Whether a return carries our Asan Pardakht invoice id, and none of the other PSPs' return fields. */
export const isAsanpardakhtReturn = (fields: Record<string, string>) =>
  fields[RETURN_INVOICE_FIELD] !== undefined &&
  fields.RefNum === undefined &&
  fields.State === undefined &&
  fields.ResCode === undefined &&
  fields.SaleOrderId === undefined;

/** TranResult's detail of a paid transaction, as Dargah reads it (the other fields are the sub-services': charge, bill). */
export interface TranResult {
  payGateTranId: string;
  amount: number;
  rrn: string;
  cardNumber: string;
  /** Our invoice id as the PSP names it back (`salesOrderID`), '' when absent. */
  salesOrderId: string;
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

/**
 * TranResult's JSON (cardNumber, rrn, refID, amount, payGateTranID, salesOrderID, …) read; undefined
 * when it has no payGateTranID of digits or no whole amount, so no call is made on a transaction
 * nobody can name. Field names are read in any case (AsanPardakht.IPG reads RRN, Parbad rrn).
 */
export function readTranResult(body: unknown): TranResult | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const fields = Object.fromEntries(
    Object.entries(body as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const payGateTranId = text(fields.paygatetranid);
  const amount = Number(text(fields.amount));
  if (!/^[1-9][0-9]{0,19}$/.test(payGateTranId) || !Number.isSafeInteger(amount) || amount <= 0) return undefined;
  return {
    payGateTranId,
    amount,
    rrn: text(fields.rrn),
    cardNumber: text(fields.cardnumber),
    salesOrderId: text(fields.salesorderid),
  };
}

/** A retrieval reference number of Dargah's recorded shape: 12 digits. */
export const isRecordableRrn = (rrn: string) => /^[0-9]{12}$/.test(rrn);
/** A masked card of Dargah's recorded shape: the first six and last four digits, stars between. */
export const isRecordableCard = (card: string) => /^[0-9]{6}\*+[0-9]{4}$/.test(card);
