/**
 * IranKish's (Iran Kish Credit Card Company's) api/v3 IPG messages as Dargah reads them
 * (docs/psps/irankish.md): the order id a payment is known by (`requestId`), the authentication
 * envelope of the token request, the response codes and what each is to Dargah, the return's fields
 * and the confirmation's answer, as the conformance corpus (test/fixtures/psps/irankish/) shows them.
 * Pure code, no network: the client (client.ts) and the return route share it.
 */
import {
  createCipheriv,
  createHash,
  createPublicKey,
  publicEncrypt,
  randomBytes,
  constants,
  type KeyObject,
} from 'node:crypto';
import type { BankCallback } from '../../domain/payment-workflow.ts';
import type { Confirmation } from '../psp-client.ts';
import { numericOrderId } from '../connector.ts';

/**
 * The order id IranKish knows a payment by: the token request's `requestId`, which its page echoes in
 * the return and its confirmation answers (numericOrderId: fifteen digits at most, under the 20
 * characters iran kish takes, the same on every call and worker without being stored). `paymentId`
 * is IranKish's "شناسه پرداخت", a national payment identifier checked by an algorithm (929), and is
 * sent null as shetabit/multipay sends it.
 */
export function irankishOrderId(paymentId: string): string {
  return numericOrderId(paymentId);
}

/** IranKish's response codes Dargah acts on by name (its answers carry them as strings: "00", "5", "921"). */
export const IRANKISH_CODE = {
  OK: 0,
  /** "The transaction was reversed before" (the code tables of shetabit/multipay, mrjavadseydi/irankish-laravel, mmdm95/sim-fa-payment): a reversal's retry. */
  REVERSED_BEFORE: 2,
  /** "The transaction was abandoned" (از انجام تراکنش صرف نظر شد): the customer's cancel, in two codes. */
  ABANDONED: 5,
  CANCELED: 17,
  /** "The original transaction was not found". */
  NOT_FOUND: 25,
  /** Not IranKish's: Dargah's own code for an answer without a response code. */
  NO_CODE: -1,
  /** Not IranKish's: Dargah's own code for a confirmation that names another amount, terminal or order than the payment's. */
  NOT_THIS_PAYMENT: -1001,
} as const;

type Kind = 'ok' | 'customer' | 'card' | 'merchant' | 'bank' | 'state';

/**
 * IranKish's response codes (the table of its IPG technical guide v9 as shetabit/multipay's driver,
 * mrjavadseydi/irankish-laravel's ResponseCode and mmdm95/sim-fa-payment reproduce it), what each
 * means and what it is to Dargah: `customer` the customer's cancel; `card` the customer's card or
 * account; `merchant` our request or terminal (a refusal, never retried into success); `bank` the
 * PSP's or Shetab's trouble; `state` answers about the transaction itself.
 */
export const IRANKISH_RESULT_CODES: Readonly<Record<number, { meaning: string; kind: Kind }>> = {
  0: { meaning: 'successful', kind: 'ok' },
  2: { meaning: 'the transaction was reversed before', kind: 'state' },
  3: { meaning: 'invalid merchant', kind: 'merchant' },
  5: { meaning: 'the transaction was abandoned', kind: 'customer' },
  14: { meaning: 'the card details are wrong', kind: 'card' },
  17: { meaning: 'the transaction was abandoned', kind: 'customer' },
  25: { meaning: 'the original transaction was not found', kind: 'state' },
  30: { meaning: 'the message format is wrong', kind: 'merchant' },
  31: { meaning: "the buyer's national code is not the card holder's", kind: 'card' },
  40: { meaning: 'the operation is not supported', kind: 'merchant' },
  42: { meaning: 'the card or account cannot take it', kind: 'card' },
  51: { meaning: 'insufficient funds', kind: 'card' },
  54: { meaning: 'the card has expired', kind: 'card' },
  55: { meaning: 'wrong card PIN', kind: 'card' },
  56: { meaning: 'the card was not found', kind: 'card' },
  57: { meaning: 'the terminal may not do this transaction', kind: 'merchant' },
  58: { meaning: 'the terminal may not do this transaction', kind: 'merchant' },
  61: { meaning: 'the amount is above the limit', kind: 'card' },
  62: { meaning: 'the card is restricted', kind: 'card' },
  63: { meaning: "the message's validation code is invalid", kind: 'merchant' },
  64: { meaning: 'the amount is wrong (the shares do not add up to it)', kind: 'merchant' },
  65: { meaning: 'too many transactions', kind: 'card' },
  75: { meaning: 'too many wrong PINs', kind: 'card' },
  77: { meaning: "the transaction's financial day is invalid", kind: 'bank' },
  78: { meaning: 'the card is not active', kind: 'card' },
  79: { meaning: "the card's account is closed or has a problem", kind: 'card' },
  86: { meaning: 'Shetab is signed off', kind: 'bank' },
  94: { meaning: 'a repeated transaction', kind: 'state' },
  96: { meaning: "the system's rules were broken: an internal error", kind: 'bank' },
  97: { meaning: 'the validation code generation is invalid', kind: 'bank' },
  98: { meaning: 'the static second PIN limit is reached', kind: 'card' },
  901: { meaning: 'invalid request (tokenization)', kind: 'merchant' },
  902: { meaning: 'invalid additional parameters (tokenization)', kind: 'merchant' },
  903: { meaning: 'invalid payment id (tokenization)', kind: 'merchant' },
  904: { meaning: 'invalid bill details (tokenization)', kind: 'merchant' },
  905: { meaning: 'invalid request id (tokenization)', kind: 'merchant' },
  906: { meaning: 'the request is out of date (tokenization)', kind: 'merchant' },
  907: { meaning: 'invalid return address (tokenization)', kind: 'merchant' },
  909: { meaning: 'invalid acceptor (tokenization)', kind: 'merchant' },
  912: { meaning: 'the transaction is not active for the acceptor (tokenization)', kind: 'merchant' },
  914: { meaning: "the request's IP address is not allowed", kind: 'merchant' },
  915: { meaning: 'invalid terminal number (tokenization)', kind: 'merchant' },
  916: { meaning: 'invalid acceptor number (tokenization)', kind: 'merchant' },
  917: { meaning: 'invalid transaction type (tokenization)', kind: 'merchant' },
  918: { meaning: 'the acceptor is not active (tokenization)', kind: 'merchant' },
  920: { meaning: 'invalid token', kind: 'state' },
  921: { meaning: 'invalid or expired token', kind: 'state' },
  922: { meaning: 'a security violation of the request (tokenization)', kind: 'merchant' },
  928: { meaning: 'invalid amount (tokenization)', kind: 'merchant' },
  929: { meaning: 'the payment id fails its algorithm (tokenization)', kind: 'merchant' },
  930: { meaning: 'invalid national code (tokenization)', kind: 'merchant' },
  936: { meaning: "the return address's domain is not the acceptor's registered site", kind: 'merchant' },
};

/** A code's meaning for messages and logs; an unknown code says so. */
export const irankishCodeMeaning = (code: number) =>
  IRANKISH_RESULT_CODES[code]?.meaning ?? `unknown response code ${code}`;

/**
 * A response code as a number: IranKish writes "00" for success and other codes both zero-padded
 * ("05") and plain ("5"), sometimes as JSON numbers (mrjavadseydi/irankish-laravel's ResponseCode);
 * NaN for anything else.
 */
export function responseCode(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?[0-9]{1,6}$/.test(value.trim())) return Number(value.trim());
  return Number.NaN;
}

/**
 * IranKish's public key as the terminal's settings give it: a PEM (real or escaped new lines), or
 * the bare base64 of its DER (SubjectPublicKeyInfo), one line, as an environment variable holds it.
 * Anything else is a configuration error, said without the value.
 */
export function irankishPublicKey(value: string): KeyObject {
  const text = value.trim().replace(/\\n/g, '\n');
  try {
    const key = text.includes('-----BEGIN')
      ? createPublicKey(text)
      : createPublicKey({ key: Buffer.from(text.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    return key;
  } catch {
    throw new Error(
      "IranKish's public key must be an RSA public key, PEM or the base64 of its DER (as IranKish gives it)",
    );
  }
}

/**
 * The text the envelope seals: the terminal id, the password and the amount (twelve digits, zeros on
 * the left), then "00" (a purchase that is not shared out), as every source builds it; read as hex.
 * A terminal id or password that is not hex of whole bytes is a configuration error.
 */
export function envelopeText(terminalId: string, password: string, amount: number): Buffer {
  const text = `${terminalId}${password}${String(amount).padStart(12, '0')}00`;
  if (!/^([0-9A-Fa-f]{2})+$/.test(text))
    throw new Error("IranKish's terminal id and password must be hexadecimal digits, of whole bytes together");
  return Buffer.from(text, 'hex');
}

/** The authentication envelope as IranKish takes it: `data` and `iv`, both hex. */
export interface AuthenticationEnvelope {
  data: string;
  iv: string;
}

/**
 * The token request's authenticationEnvelope (test/fixtures/psps/irankish/token-request.json): the
 * envelope's text (envelopeText) under AES-128-CBC with a fresh key and IV (PKCS#7 padding); the
 * fresh key followed by the SHA-256 of that ciphertext, 48 bytes, under IranKish's RSA public key
 * (PKCS#1 v1.5 padding) is `data`, the IV `iv`, both hex. The ciphertext itself is never sent:
 * IranKish recomputes it from what it knows of the terminal and the request's amount.
 */
export function authenticationEnvelope(
  publicKey: KeyObject,
  terminalId: string,
  password: string,
  amount: number,
): AuthenticationEnvelope {
  const key = randomBytes(16);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-cbc', key, iv);
  const sealed = Buffer.concat([cipher.update(envelopeText(terminalId, password, amount)), cipher.final()]);
  const digest = createHash('sha256').update(sealed).digest();
  const data = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([key, digest]));
  return { data: data.toString('hex'), iv: iv.toString('hex') };
}

/** IranKish's token: no source shows a real one's shape, so any of the bank references' alphabet, short enough to ride in the reference. */
export const IRANKISH_TOKEN = /^[A-Za-z0-9+/=_-]{1,100}$/;
const RRN = /^[0-9]{1,12}$/;
const STAN = /^[0-9]{1,6}$/;

/**
 * The reference Dargah keeps for an IranKish sale: the retrieval reference number, the system trace
 * audit number and the token, joined by "-" (`123456789012-123456-<token>`). IranKish's confirmation
 * and reversal name a transaction by all three (every source sends them together), and a payment's
 * reference is the one value the contract hands its confirm and reverse.
 */
export function irankishReference(parts: { rrn: string; stan: string; token: string }): string {
  return `${parts.rrn}-${parts.stan}-${parts.token}`;
}

/** The three parts of a reference made by irankishReference; undefined for anything else. */
export function referenceParts(reference: string): { rrn: string; stan: string; token: string } | undefined {
  const m = /^([0-9]{1,12})-([0-9]{1,6})-(.+)$/.exec(reference);
  if (m === null || !IRANKISH_TOKEN.test(m[3]!)) return undefined;
  return { rrn: m[1]!, stan: m[2]!, token: m[3]! };
}

/** A field by its name in any case: the sources read `requestId` and `RequestId`, `token` and `Token`. */
function field(fields: Record<string, string>, name: string): string | undefined {
  if (Object.hasOwn(fields, name)) return fields[name];
  const lower = name.toLowerCase();
  const key = Object.keys(fields).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : fields[key];
}

/**
 * The fields of IranKish's post to our return route (token, responseCode, requestId,
 * retrievalReferenceNumber, systemTraceAuditNumber; acceptorId, amount, maskedPan, sha256OfPan and
 * the rest are not read: the return is never trusted), checked for shape only. requestId must be the
 * order id of `paymentId` when given. responseCode 0 with a token, an RRN and a STAN is `OK`, its
 * reference the three together (irankishReference); 5 and 17 ("the transaction was abandoned") are
 * the customer's cancel; any other code is `Failed`.
 */
export function irankishReturn(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
  const requestId = (field(fields, 'requestId') ?? '').trim();
  const token = (field(fields, 'token') ?? '').trim();
  const code = responseCode(field(fields, 'responseCode') ?? '');
  if (!/^[0-9]{1,20}$/.test(requestId) || Number.isNaN(code) || (token !== '' && !IRANKISH_TOKEN.test(token)))
    return undefined;
  if (paymentId !== undefined && requestId !== irankishOrderId(paymentId)) return undefined;
  const res_num = paymentId ?? requestId;
  if (code !== IRANKISH_CODE.OK) {
    const state = code === IRANKISH_CODE.ABANDONED || code === IRANKISH_CODE.CANCELED ? 'CanceledByUser' : 'Failed';
    return { state, ref_num: '', res_num, token };
  }
  const rrn = (field(fields, 'retrievalReferenceNumber') ?? '').trim();
  const stan = (field(fields, 'systemTraceAuditNumber') ?? '').trim();
  if (token === '' || !RRN.test(rrn) || !STAN.test(stan)) return undefined;
  return { state: 'OK', ref_num: irankishReference({ rrn, stan, token }), res_num, token };
}

/** Whether a post to our return route carries IranKish's fields (responseCode, requestId and token, by their own names) rather than another PSP's. */
export const recognisesIrankishReturn = (fields: Record<string, string>) =>
  field(fields, 'responseCode') !== undefined &&
  field(fields, 'requestId') !== undefined &&
  field(fields, 'token') !== undefined;

/** An answer's envelope as every v3 call has it: responseCode, description, status and a result. */
export interface IrankishAnswer {
  responseCode?: unknown;
  description?: unknown;
  status?: unknown;
  result?: unknown;
}

/**
 * The code and description of an answer that did not say done (answeredOk false): its own code, or,
 * where it says 00, its result's code; Dargah's NO_CODE (-1) where neither names a refusal (no code,
 * or 00 with a status of false), so that no refusal carries IranKish's code of success.
 */
export function answerCode(answer: IrankishAnswer): { code: number; description: string } {
  const own = responseCode(answer.responseCode);
  const inner =
    typeof answer.result === 'object' && answer.result !== null && 'responseCode' in answer.result
      ? responseCode(answer.result.responseCode)
      : Number.NaN;
  const code = own === IRANKISH_CODE.OK ? inner : own;
  if (Number.isNaN(code) || code === IRANKISH_CODE.OK)
    return { code: IRANKISH_CODE.NO_CODE, description: 'an answer that names no refusal and is not done' };
  const description =
    own === code && typeof answer.description === 'string' && answer.description !== ''
      ? answer.description
      : irankishCodeMeaning(code);
  return { code, description };
}

/**
 * Whether an answer says the call was done: responseCode 0, a status that is not false, and the
 * result's own responseCode (the confirmation's and reversal's result carry one) 0 where it has one,
 * as mrjavadseydi/irankish-laravel holds it.
 */
export function answeredOk(answer: IrankishAnswer): boolean {
  if (responseCode(answer.responseCode) !== IRANKISH_CODE.OK || answer.status === false) return false;
  const result = answer.result;
  if (typeof result !== 'object' || result === null || !('responseCode' in result)) return true;
  return responseCode(result.responseCode) === IRANKISH_CODE.OK;
}

/** A whole number of rials as IranKish writes it: a number, or digits in a string ("130000"); NaN otherwise. */
export const wholeAmount = (v: unknown): number =>
  typeof v === 'number' && Number.isSafeInteger(v)
    ? v
    : typeof v === 'string' && /^[0-9]{1,16}$/.test(v.trim())
      ? Number(v)
      : Number.NaN;

/** The confirmation's result (verify-answer-ok.json): strings, by the sources. */
export interface IrankishConfirmationResult {
  responseCode?: unknown;
  systemTraceAuditNumber?: unknown;
  retrievalReferenceNumber?: unknown;
  requestId?: unknown;
  amount?: unknown;
  duplicateVerify?: unknown;
  terminalId?: unknown;
  tokenIdentity?: unknown;
}

/**
 * confirmation/purchase's answer as a Confirmation. Done (answeredOk), a first confirmation or a
 * repeat (`duplicateVerify` true: "already verified", a retry of our own) confirms; anything else
 * refuses with IranKish's code. The answer names no card (no maskedPan in any answer the sources
 * show), so the confirmation is of the `result_code` basis (as Mellat's and Sadad's): the transaction
 * the call named (its token, RRN and STAN), with the amount, terminal and order the answer itself
 * names (an order that is not the payment's becomes `order:<requestId>`; no amount, -1), so that the
 * workflow's judgment (isGenuineConfirmation) holds them to the payment's and refuses another.
 */
export function readConfirmation(
  answer: unknown,
  paymentId: string,
  reference: string,
  terminal: string,
): Confirmation {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as IrankishAnswer;
  if (!answeredOk(body)) {
    const { code, description } = answerCode(body);
    return { result: 'refused', code, description };
  }

  const result = (
    typeof body.result === 'object' && body.result !== null ? body.result : {}
  ) as IrankishConfirmationResult;
  const amount = wholeAmount(result.amount);
  const requestId =
    typeof result.requestId === 'string' || typeof result.requestId === 'number' ? String(result.requestId) : '';
  const named =
    typeof result.terminalId === 'string' || typeof result.terminalId === 'number' ? String(result.terminalId) : '';
  return {
    result: 'confirmed',
    basis: 'result_code',
    ref_num: reference,
    // The order the answer names, where it names one; else the transaction the call named is this payment's.
    res_num: requestId === '' || requestId === irankishOrderId(paymentId) ? paymentId : `order:${requestId}`,
    amount: Number.isNaN(amount) ? -1 : amount,
    terminal: named === '' ? terminal : named,
    rrn: null,
    card_pan: null,
  };
}
