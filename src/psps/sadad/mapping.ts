/**
 * Sadad's (Bank Melli Iran's IPG) messages as Dargah reads them (docs/psps/sadad.md): the numeric
 * order id of a payment, the SignData, the ResCode tables, the return's fields and the verify's
 * answer, as the conformance corpus (test/fixtures/psps/sadad/) shows them. Pure code, no network:
 * the client (client.ts) and the return route share it.
 */
import { createCipheriv } from 'node:crypto';
import type { BankCallback } from '../../domain/payment-workflow.ts';
import type { Confirmation } from '../psp-client.ts';
import { numericOrderId } from '../connector.ts';

/**
 * The numeric order id (`OrderId`, a long at Sadad, unique per terminal) of a payment (numericOrderId:
 * fifteen digits at most, the same on every call and worker without being stored). The token request and SignData name it; the return's
 * and the verify answer's OrderId are compared to it and never trusted on their own.
 */
export function sadadOrderId(paymentId: string): string {
  return numericOrderId(paymentId);
}

/** Sadad's ResCodes Dargah acts on by name. */
export const SADAD_CODE = {
  OK: 0,
  /** A return's failure (the customer's cancel too: no source shows a code of its own); a verify of no such transaction. */
  FAILED: -1,
  /** To a verify: "a repeated request, registered successfully before" (iran-payment-laravel, from the IPG document v1.11). */
  VERIFIED_BEFORE: 100,
  /** To a verify: the time to send it is over (Sadad gave the money back after 15 minutes). */
  TOO_LATE: 101,
  /** To a token request: the order id was used before. */
  DUPLICATE_ORDER: 1011,
  /** The transaction was returned: its time was over. */
  RETURNED: 1105,
  /** Not Sadad's: Dargah's own code for an operation Sadad does not have (a reversal), refused without a call. */
  NO_SUCH_OPERATION: -1000,
  /** Not Sadad's: Dargah's own code for a verify that answered 0 or 100 for another amount or order than the payment's. */
  NOT_THIS_PAYMENT: -1001,
} as const;

type Kind = 'ok' | 'customer' | 'merchant' | 'bank' | 'state';

/**
 * Sadad's result codes (the request table of Parbad, monopay and iran-payment-laravel; the verify
 * table of Parbad, Sadad's WooCommerce plugin and iran-payment-laravel), what each means and what it
 * is to Dargah: `merchant` codes are our request or terminal (a refusal, never retried into
 * success); `bank` codes the PSP's trouble; `customer` the customer's time or card; `state` answers
 * about the transaction itself.
 */
export const SADAD_RESULT_CODES: Readonly<Record<number, { meaning: string; kind: Kind }>> = {
  0: { meaning: 'successful', kind: 'ok' },
  [-1]: { meaning: 'failed: wrong parameters, or no such transaction', kind: 'state' },
  100: { meaning: 'a repeated request: verified successfully before', kind: 'state' },
  101: { meaning: 'the time to verify the transaction is over', kind: 'state' },
  3: { meaning: 'the merchant is not active', kind: 'merchant' },
  23: { meaning: 'invalid merchant', kind: 'merchant' },
  58: { meaning: 'the terminal may not do this transaction', kind: 'merchant' },
  61: { meaning: 'the amount is above the limit', kind: 'merchant' },
  1000: { meaning: 'the parameters are in the wrong order', kind: 'merchant' },
  1001: { meaning: 'wrong payment parameters', kind: 'merchant' },
  1002: { meaning: 'system error: the transaction failed', kind: 'bank' },
  1003: { meaning: "the merchant's IP address is wrong", kind: 'merchant' },
  1004: { meaning: 'wrong merchant number', kind: 'merchant' },
  1005: { meaning: 'access error: try again later', kind: 'bank' },
  1006: { meaning: 'system error', kind: 'bank' },
  1011: { meaning: 'a repeated request: the order id was used before', kind: 'merchant' },
  1012: { meaning: "wrong merchant data: the date, the time or the transaction's key", kind: 'merchant' },
  1015: { meaning: 'an unknown error from the centre', kind: 'bank' },
  1017: { meaning: "the amount is above the merchant's limit", kind: 'merchant' },
  1018: { meaning: "the system's date and time: set the server's clock to the bank's", kind: 'merchant' },
  1019: { meaning: 'no payment through Shetab for this merchant', kind: 'merchant' },
  1020: { meaning: 'the merchant is disabled', kind: 'merchant' },
  1023: { meaning: 'invalid return address', kind: 'merchant' },
  1024: { meaning: 'invalid merchant timestamp', kind: 'merchant' },
  1025: { meaning: 'invalid transaction signature', kind: 'merchant' },
  1026: { meaning: 'invalid order id', kind: 'merchant' },
  1027: { meaning: 'invalid merchant number', kind: 'merchant' },
  1028: { meaning: 'invalid terminal number', kind: 'merchant' },
  1029: { meaning: "the IP address is outside the merchant's declared addresses", kind: 'merchant' },
  1030: { meaning: "the domain is outside the merchant's declared domains", kind: 'merchant' },
  1031: { meaning: 'the time to pay is over', kind: 'customer' },
  1032: { meaning: 'this card may not pay this merchant', kind: 'customer' },
  1033: { meaning: "payment disabled for a problem with the merchant's site", kind: 'merchant' },
  1036: { meaning: 'additional data missing or wrong', kind: 'merchant' },
  1037: { meaning: 'wrong merchant or terminal number', kind: 'merchant' },
  1053: { meaning: 'the request did not come validly from the merchant', kind: 'merchant' },
  1055: { meaning: 'a value not allowed', kind: 'merchant' },
  1056: { meaning: 'the system is down for now', kind: 'bank' },
  1058: { meaning: 'the internet payment service is out of service', kind: 'bank' },
  1061: { meaning: 'error making a unique code', kind: 'bank' },
  1064: { meaning: 'try again', kind: 'bank' },
  1065: { meaning: 'connection failed: try again in a moment', kind: 'bank' },
  1066: { meaning: 'the payment service is disabled for now', kind: 'bank' },
  1068: { meaning: 'down for an update', kind: 'bank' },
  1072: { meaning: "error reading the merchant's optional parameters", kind: 'merchant' },
  1101: { meaning: 'invalid amount', kind: 'merchant' },
  1103: { meaning: 'invalid token', kind: 'merchant' },
  1104: { meaning: 'wrong multiplexing data', kind: 'merchant' },
  1105: { meaning: 'the transaction was returned: its time was over', kind: 'state' },
};

/** A code's meaning for messages and logs; an unknown code says so. */
export const sadadCodeMeaning = (code: number) => SADAD_RESULT_CODES[code]?.meaning ?? `unknown result code ${code}`;

/**
 * The terminal's key (base64, as Sadad gives it) as Triple-DES wants it: 24 bytes. Anything else is a
 * configuration error, said without the key.
 */
export function sadadKey(keyBase64: string): Buffer {
  const key = Buffer.from(keyBase64.trim(), 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(keyBase64.trim()) || key.length !== 24)
    throw new Error("Sadad's terminal key must be base64 of 24 bytes (as Sadad gives it)");
  return key;
}

/**
 * SignData: `text` (UTF-8) under Triple-DES (des-ede3), ECB, PKCS#7 padding, with the terminal's
 * key, in base64, as Sadad's own samples, Parbad, shetabit/multipay and iran-payment-laravel compute
 * it (test/fixtures/psps/sadad/token-request.json). The token request signs
 * `TerminalId;OrderId;Amount`, the verify the token.
 */
export function sadadSignature(text: string, key: Buffer): string {
  const cipher = createCipheriv('des-ede3', key, null);
  return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}

/**
 * Tehran's wall time as Sadad's PHP sample writes LocalDateTime (`m/d/Y g:i:s a`: 11/27/2026 6:12:00
 * pm). Sadad refuses a time too far from its own clock (1018, 1024).
 */
export function sadadLocalDateTime(at = new Date()): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Tehran',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      hour12: true,
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${p.month}/${p.day}/${p.year} ${p.hour}:${p.minute}:${p.second} ${String(p.dayPeriod).toLowerCase()}`;
}

/** Sadad's token, as the verify names it: no source shows a real one's shape, so any of the bank references' alphabet. */
export const SADAD_TOKEN = /^[A-Za-z0-9+/=_-]{1,128}$/;

/** A field by its name in any case: the sources spell the return's token `token` and `Token`. */
function field(fields: Record<string, string>, name: string): string | undefined {
  if (Object.hasOwn(fields, name)) return fields[name];
  const lower = name.toLowerCase();
  const key = Object.keys(fields).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : fields[key];
}

/**
 * The fields of Sadad's post to our return route (OrderId, token, ResCode; HashedCardNo, PrimaryAccNo
 * and the rest are not read: the return is never trusted), checked for shape only. OrderId must be
 * the order id of `paymentId` when given. ResCode 0 is `OK`; any other is `Failed` (no source shows a
 * code of its own for a cancel: return-canceled.json). The token is both the callback's token and its
 * reference (`ref_num`): Sadad's verify names a transaction by its token alone.
 */
export function sadadCallback(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const orderId = (field(fields, 'OrderId') ?? '').trim();
  const token = (field(fields, 'Token') ?? '').trim();
  const resCode = (field(fields, 'ResCode') ?? '').trim();
  if (!/^[0-9]{1,19}$/.test(orderId) || !/^-?[0-9]{1,6}$/.test(resCode) || (token !== '' && !SADAD_TOKEN.test(token)))
    return undefined;
  if (paymentId !== undefined && orderId !== sadadOrderId(paymentId)) return undefined;
  const state = Number(resCode) === SADAD_CODE.OK ? 'OK' : 'Failed';
  if (state === 'OK' && token === '') return undefined;
  return { state, ref_num: token, res_num: paymentId ?? orderId, token };
}

/** Whether a post to our return route carries Sadad's fields (OrderId, ResCode and a token, in any case) rather than another PSP's. */
export const isSadadReturn = (fields: Record<string, string>) =>
  field(fields, 'OrderId') !== undefined &&
  field(fields, 'ResCode') !== undefined &&
  field(fields, 'Token') !== undefined;

/** Sadad's answer to Advice/Verify (the corpus's verify-answer-*.json): numbers or digit strings, by the source. */
export interface SadadVerifyAnswer {
  ResCode?: number | string;
  Amount?: number | string;
  Description?: string;
  RetrivalRefNo?: string | number;
  SystemTraceNo?: string | number;
  OrderId?: number | string;
}

/** A whole number as Sadad's clients see it: a number, or digits (a sign allowed) in a string; NaN otherwise. */
export const wholeNumber = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v)
    ? v
    : typeof v === 'string' && /^-?[0-9]{1,16}$/.test(v.trim())
      ? Number(v)
      : Number.NaN;

/**
 * Advice/Verify's answer as a Confirmation. 0 verified now, 100 verified before (a retry of our own
 * verify) confirm; anything else refuses. Sadad's answer names no terminal and no card, so the
 * confirmation is of the `result_code` basis (as Mellat's): the transaction the call named (its
 * token, signed with our terminal's key), which the code vouches for, with the Amount and OrderId the
 * answer itself names (an OrderId that is not the payment's becomes `order:<OrderId>`), so that the
 * workflow's judgment (isGenuineConfirmation) holds them to the payment's and refuses another. The
 * RRN (RetrivalRefNo) is not carried, the card is unknown (docs/psps/sadad.md#what-confirms-a-payment).
 */
export function readVerifyAnswer(answer: unknown, paymentId: string, token: string, terminal: string): Confirmation {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as SadadVerifyAnswer;
  const code = wholeNumber(body.ResCode);
  const description = typeof body.Description === 'string' ? body.Description : '';
  if (Number.isNaN(code))
    return { result: 'refused', code: SADAD_CODE.FAILED, description: 'an answer without a ResCode' };
  if (code !== SADAD_CODE.OK && code !== SADAD_CODE.VERIFIED_BEFORE)
    return { result: 'refused', code, description: description || sadadCodeMeaning(code) };
  const amount = wholeNumber(body.Amount);
  const orderId = wholeNumber(body.OrderId);
  const ours = String(orderId) === sadadOrderId(paymentId);
  return {
    result: 'confirmed',
    basis: 'result_code',
    ref_num: token,
    res_num: ours ? paymentId : `order:${Number.isNaN(orderId) ? '' : orderId}`,
    amount: Number.isNaN(amount) ? -1 : amount,
    terminal,
    rrn: null,
    card_pan: null,
  };
}
