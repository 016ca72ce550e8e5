/**
 * The signature of a payment's return address (docs/SECURITY.md, "A stranger ends a payment"): the
 * address the PSP is given with the payment's bank session is `/pay/{id}/return/{signature}`, an
 * HMAC-SHA256 under the API's PAGES_CSRF_SECRET, for a purpose of its own (never a CSRF token), over the
 * payment's id. A payment has one bank session: its workflow asks the PSP for a token once and answers
 * the same token to every later Pay, so the address given to the PSP is the session's and nobody else's.
 * Only the PSP (and a browser it sends back) learns it: a return that does not carry it (the bare
 * `/pay/{id}/return` a stranger can type) ends nothing. The signature is in the path, not the query:
 * PSPs append their own fields to the address's query (Asan Pardakht's localInvoiceId), some naively.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';

const PURPOSE = 'dargah-bank-return-v1';
/** 32 bytes of HMAC-SHA256 in base64url. */
export const RETURN_SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Without PAGES_CSRF_SECRET (a developer machine; production refuses to start the API without it): a
 * random key of this process, as the pages' CSRF tokens, so the returns of bank sessions begun before a
 * restart are unsigned after it (they can still pay, they end nothing).
 */
let processKey: string | undefined;
const keyOf = (config: Pick<Config, 'PAGES_CSRF_SECRET'>): string =>
  config.PAGES_CSRF_SECRET !== '' ? config.PAGES_CSRF_SECRET : (processKey ??= randomBytes(32).toString('base64url'));

/** The signature of payment `paymentId`'s return address. */
export function returnSignature(config: Pick<Config, 'PAGES_CSRF_SECRET'>, paymentId: string): string {
  return createHmac('sha256', keyOf(config)).update(`${PURPOSE}:${paymentId}`).digest('base64url');
}

/** Whether `given` (a return address's last path segment) is payment `paymentId`'s signature. */
export function isReturnSignature(
  config: Pick<Config, 'PAGES_CSRF_SECRET'>,
  paymentId: string,
  given: string | undefined,
): boolean {
  if (given === undefined || !RETURN_SIGNATURE_PATTERN.test(given)) return false;
  const expected = Buffer.from(returnSignature(config, paymentId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The signature a return address `url` carries in its path (`…/pay/{id}/return/{signature}`), if any. */
export function signatureOfReturnUrl(url: string, paymentId: string): string | undefined {
  let path: string;
  try {
    path = new URL(url, 'http://x').pathname;
  } catch {
    return undefined;
  }
  const at = path.lastIndexOf('/');
  const signature = path.slice(at + 1);
  return path.slice(0, at).endsWith(`/pay/${paymentId}/return`) && RETURN_SIGNATURE_PATTERN.test(signature)
    ? signature
    : undefined;
}
