/**
 * Sepehr's (Bank Saderat's IPG) messages as Dargah reads them (docs/psps/sepehr.md): the numeric order
 * id of a payment (invoiceID), the result codes and what each is to Dargah, the return's fields and
 * the answers of Advice and Rollback, as the conformance corpus (test/fixtures/psps/sepehr/) shows
 * them. Pure code, no network: the client (client.ts) and the return route share it.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';
import { BANK_REFERENCE_PATTERN } from '../../domain/bank-confirmation.ts';
import type { Confirmation } from '../psp-client.ts';
import { numericOrderId } from '../connector.ts';

/**
 * The order id (`invoiceID`, the merchant's unique number of the sale) of a payment: its numericOrderId,
 * fifteen digits at most, the same on every call and worker without being stored. Every source sends
 * digits; the return's invoiceid is compared to it and never trusted on its own.
 */
export function sepehrOrderId(paymentId: string): string {
  return numericOrderId(paymentId);
}

/** Sepehr's codes Dargah acts on by name: the token's Status, the return's respcode, a NOK's ReturnId. */
export const SEPEHR_CODE = {
  OK: 0,
  /** A return's respcode: the customer canceled. To Advice or Rollback: the transaction was not found. */
  CANCELED: -1,
  NOT_FOUND: -1,
  /** A return's respcode: the customer's time ran out. Elsewhere: the IP address or port 8081 (or a reversal before: sources differ). */
  TIMED_OUT: -2,
  /** The Rollback service is not enabled for the merchant. */
  ROLLBACK_DISABLED: -6,
  /** Not Sepehr's: Dargah's own code for an answer it cannot read as one of Sepehr's (no Status, a malformed token). */
  UNREADABLE: -1000,
} as const;

type Kind = 'ok' | 'customer' | 'merchant' | 'bank' | 'state';

/**
 * Sepehr's codes (the one table of Parbad, shetabit/multipay, larapay and dpsoft, the same for the token,
 * Advice and Rollback), what each means and what it is to Dargah: `merchant` codes are our
 * configuration (a refusal, never retried into success); `bank` Sepehr's trouble; `state` answers about
 * the transaction itself.
 */
export const SEPEHR_RESULT_CODES: Readonly<Record<number, { meaning: string; kind: Kind }>> = {
  0: { meaning: 'successful', kind: 'ok' },
  [-1]: { meaning: 'the transaction was not found', kind: 'state' },
  [-2]: {
    meaning: "the caller's IP address is not registered or port 8081 is closed (or, by one source, reversed before)",
    kind: 'merchant',
  },
  [-3]: { meaning: 'a general error at Sepehr', kind: 'bank' },
  [-4]: { meaning: 'the request cannot be done for this transaction', kind: 'state' },
  [-5]: { meaning: 'an invalid IP address', kind: 'merchant' },
  [-6]: { meaning: 'the rollback service is not enabled for the merchant', kind: 'merchant' },
};

/** The return's respcode, which has its own meanings (shetabit/multipay, dpsoft's README). */
export const SEPEHR_RETURN_CODES: Readonly<Record<number, string>> = {
  0: 'paid',
  [-1]: 'canceled by the customer',
  [-2]: "the customer's time ran out",
};

/** A code's meaning for messages and logs; an unknown code says so. */
export const sepehrCodeMeaning = (code: number) => SEPEHR_RESULT_CODES[code]?.meaning ?? `unknown result code ${code}`;

/** Sepehr's Accesstoken, as the page takes it: no source shows a real one, so any of these characters, up to 512. */
export const SEPEHR_TOKEN = /^[A-Za-z0-9+/=_.-]{1,512}$/;
/** The digital receipt (digitalreceipt), the transaction's reference that Advice and Rollback name: a bank reference's shape. */
export const SEPEHR_RECEIPT = new RegExp(BANK_REFERENCE_PATTERN);

/** A field or key by its name in any case: the sources spell Sepehr's names in several cases. */
export function anyCase<T>(values: Record<string, T>, name: string): T | undefined {
  if (Object.hasOwn(values, name)) return values[name];
  const lower = name.toLowerCase();
  const key = Object.keys(values).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : values[key];
}

/** A whole number as Sepehr's clients see it: a number, or digits (a sign allowed) in a string; NaN otherwise. */
export const wholeNumber = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v)
    ? v
    : typeof v === 'string' && /^-?[0-9]{1,16}$/.test(v.trim())
      ? Number(v)
      : Number.NaN;

/**
 * The fields of Sepehr's post to our return route (respcode, invoiceid, digitalreceipt; rrn, cardnumber,
 * amount and the rest are not read: the return is never trusted, Advice's answer is), checked for shape
 * only. respcode 0 is `OK` (with this payment's invoiceid and a digital receipt, its reference), -1
 * `CanceledByUser`, any other `Failed`. An invoiceid, when present, must be the order id of `paymentId`
 * when given; a paid return must name one. No token: the return does not carry it.
 */
export function sepehrCallback(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const respcode = (anyCase(fields, 'respcode') ?? '').trim();
  const invoice = (anyCase(fields, 'invoiceid') ?? '').trim();
  const receipt = (anyCase(fields, 'digitalreceipt') ?? '').trim();
  if (!/^-?[0-9]{1,6}$/.test(respcode) || (invoice !== '' && !/^[0-9]{1,19}$/.test(invoice))) return undefined;
  if (paymentId !== undefined && invoice !== '' && invoice !== sepehrOrderId(paymentId)) return undefined;
  const code = Number(respcode);
  if (code === SEPEHR_CODE.OK) {
    if (invoice === '' || !SEPEHR_RECEIPT.test(receipt)) return undefined;
    return { state: 'OK', ref_num: receipt, res_num: paymentId ?? invoice, token: '' };
  }
  const resNum = paymentId ?? invoice;
  if (resNum === '') return undefined;
  return {
    state: code === SEPEHR_CODE.CANCELED ? 'CanceledByUser' : 'Failed',
    ref_num: SEPEHR_RECEIPT.test(receipt) ? receipt : '',
    res_num: resNum,
    token: '',
  };
}

/** Whether a post to our return route carries Sepehr's fields (respcode and invoiceid, in any case) rather than another PSP's. */
export const isSepehrReturn = (fields: Record<string, string>) =>
  anyCase(fields, 'respcode') !== undefined && anyCase(fields, 'invoiceid') !== undefined;

/** An answer of Advice or Rollback (the corpus's verify-answer-*.json, reversal-answer-*.json). */
export type SepehrAnswer =
  | { status: 'ok' | 'duplicate'; returnId: number; message: string }
  | { status: 'nok'; code: number; message: string }
  | { status: 'unknown' };

/** Advice's or Rollback's answer: Status in any case (Ok, OK, Duplicate, NOK), ReturnId a number or digits. */
export function readAnswer(answer: Record<string, unknown>): SepehrAnswer {
  const status = anyCase(answer, 'Status');
  const returnId = wholeNumber(anyCase(answer, 'ReturnId'));
  const text = anyCase(answer, 'Message');
  const message = typeof text === 'string' ? text : '';
  const word = typeof status === 'string' ? status.trim().toLowerCase() : '';
  if (word === 'ok' || word === 'duplicate') return { status: word, returnId, message };
  if (word === 'nok')
    return { status: 'nok', code: Number.isNaN(returnId) ? SEPEHR_CODE.UNREADABLE : returnId, message };
  return { status: 'unknown' };
}

/**
 * Advice's answer as a Confirmation (undefined: not an answer of Sepehr's, Dargah asks again). Ok
 * verified now, Duplicate verified before (a retry of our own Advice): both confirm the receipt the call
 * named for our terminal, for the amount the answer's ReturnId names, which the workflow's judgment
 * (isGenuineConfirmation) holds to the payment's: a ReturnId that is not the amount (or none) pays
 * nothing and the payment is reversed. The answer names no RRN and no card: a `result_code`
 * confirmation, as Mellat's (docs/psps/sepehr.md#what-confirms-a-payment). NOK refuses, its ReturnId the code.
 */
export function readAdviceAnswer(
  answer: Record<string, unknown>,
  paymentId: string,
  receipt: string,
  terminal: string,
): Confirmation | undefined {
  const read = readAnswer(answer);
  if (read.status === 'unknown') return undefined;
  if (read.status === 'nok')
    return { result: 'refused', code: read.code, description: read.message || sepehrCodeMeaning(read.code) };
  return {
    result: 'confirmed',
    basis: 'result_code',
    ref_num: receipt,
    res_num: paymentId,
    amount: Number.isNaN(read.returnId) ? -1 : read.returnId,
    terminal,
    rrn: null,
    card_pan: null,
  };
}
