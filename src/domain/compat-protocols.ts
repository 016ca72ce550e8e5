/**
 * The compatible protocols' rules that do not depend on I/O (docs/COMPAT.md): which protocol
 * created a payment, how a payment's id becomes ZarinPal's `authority` and back, the ZarinPal
 * inquiry status of each payment status, and the address the customer returns to after our
 * result page: the merchant's callback_url with the parameters of the protocol that created it.
 */
import { returnStatus, returnUrl, type PaymentStatus } from './payment.ts';
import type { KeyMode } from './merchant.ts';

/** Who created a payment: Dargah's own API, or one of the protocols it speaks for merchants moving over. */
export const PAYMENT_ORIGINS = ['api', 'zarinpal', 'zibal'] as const;
export type PaymentOrigin = (typeof PAYMENT_ORIGINS)[number];
export const COMPAT_PROTOCOLS = ['zarinpal', 'zibal'] as const;
export type CompatProtocol = (typeof COMPAT_PROTOCOLS)[number];

/**
 * ZarinPal's authority is 36 characters, `A…` (or `S…` for its sandbox, here test mode), that
 * clients check with /^[AS][0-9a-zA-Z]{35}$/. Ours is the payment's id without its dashes behind
 * `A000`/`S000`: nothing to store, and the id is found again without a lookup table.
 */
export function zarinpalAuthority(payment: { id: string; mode: KeyMode }): string {
  return `${payment.mode === 'test' ? 'S' : 'A'}000${payment.id.replace(/-/g, '')}`;
}

const AUTHORITY_PATTERN = /^[AS]000([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/;

/** The payment id an authority names, or undefined for one that no payment of ours could have. */
export function paymentIdOfAuthority(authority: string): string | undefined {
  const parts = AUTHORITY_PATTERN.exec(authority);
  return parts === null ? undefined : parts.slice(1).join('-');
}

/** ZarinPal's inquiry status of a payment (inquiry.json). */
export type ZarinpalInquiryStatus = 'VERIFIED' | 'PAID' | 'IN_BANK' | 'FAILED' | 'REVERSED';
export function zarinpalInquiryStatus(status: PaymentStatus): ZarinpalInquiryStatus {
  switch (status) {
    case 'verified':
    case 'partially_refunded':
      return 'VERIFIED';
    case 'paid':
      return 'PAID';
    case 'created':
    case 'pending':
      return 'IN_BANK';
    case 'reversed':
    case 'refunded':
      return 'REVERSED';
    default:
      return 'FAILED';
  }
}

/** What the return address is made of. */
export interface ReturningPayment {
  id: string;
  mode: KeyMode;
  status: PaymentStatus;
  merchant_reference: string;
  tracking_code: string;
  callback_url: string;
  created_via: PaymentOrigin;
  /** Zibal's trackId, on a payment Zibal's /v1/request made. */
  zibal_track_id?: string | null;
}

/**
 * Where our result page sends the customer: the callback_url with the parameters of the protocol
 * that created the payment (ZarinPal: `Authority` and `Status` OK|NOK; Zibal: `success`, `trackId`,
 * `orderId`, `status`), or Dargah's own four (returnUrl). A pending payment is not a success yet:
 * ZarinPal's and Zibal's merchants read it as a failure, and its bank's late answer is reversed at
 * the verify deadline if nobody verifies it.
 */
export function returnAddress(payment: ReturningPayment): string {
  const url = new URL(payment.callback_url);
  const success = returnStatus(payment.status) === 'success';
  switch (payment.created_via) {
    case 'zarinpal':
      url.searchParams.set('Authority', zarinpalAuthority(payment));
      url.searchParams.set('Status', success ? 'OK' : 'NOK');
      return url.toString();
    case 'zibal':
      url.searchParams.set('success', success ? '1' : '0');
      url.searchParams.set('trackId', zibalTrackId(payment));
      url.searchParams.set('orderId', payment.merchant_reference);
      url.searchParams.set('status', String(zibalStatus(payment.status)));
      return url.toString();
    default:
      // The API's, and any payment that does not say (one read from a workflow started before the column).
      return returnUrl(payment.callback_url, payment);
  }
}

/**
 * Zibal's trackId: a number as Zibal's is, but not the payment's tracking code: GET /start/{trackId}
 * answers anyone, so the trackId must not be guessable (docs/SECURITY.md, "Public pages"). Sixteen
 * random digits (zibalTrackIdFromBytes), stored on the payment; a Zibal payment made before them
 * kept its tracking code, the one its merchant holds, which is also the fallback here.
 */
export const zibalTrackId = (payment: { tracking_code: string; zibal_track_id?: string | null }): string =>
  payment.zibal_track_id ?? payment.tracking_code;

/** The smallest and largest trackIds: sixteen digits, every one exact as a JSON (double) number. */
const TRACK_ID_MIN = 10n ** 15n;
const TRACK_ID_SPAN = BigInt(Number.MAX_SAFE_INTEGER) - TRACK_ID_MIN + 1n;
export const ZIBAL_TRACK_ID_PATTERN = /^[1-9][0-9]{15}$/;

/**
 * A trackId from eight random bytes: one of about 8 × 10^15, uniform but for a modulo bias under
 * 1/2000 (harmless: guessing one still takes about 10^15 tries per payment).
 */
export function zibalTrackIdFromBytes(bytes: Uint8Array): string {
  if (bytes.length < 8) throw new Error('a trackId needs 8 random bytes');
  let value = 0n;
  for (const byte of bytes.subarray(0, 8)) value = (value << 8n) | BigInt(byte);
  return String(TRACK_ID_MIN + (value % TRACK_ID_SPAN));
}

/**
 * Zibal's payment status codes: 1 paid and verified, 2 paid and not verified, 3 canceled by the
 * customer, -1 waiting for payment, -2 for a failure Zibal has no closer code for (the bank
 * declined, the page expired), and Zibal's 18 for a payment reversed and 15 for one refunded.
 */
export function zibalStatus(status: PaymentStatus): number {
  switch (status) {
    case 'verified':
    case 'partially_refunded':
      return 1;
    case 'paid':
      return 2;
    case 'canceled':
      return 3;
    case 'created':
    case 'pending':
      return -1;
    case 'reversed':
      return 18;
    case 'refunded':
      return 15;
    default:
      return -2;
  }
}

/** ZarinPal's reverse.json takes a verified payment back within this time of its verify (its -63 after). */
export const ZARINPAL_REVERSE_WINDOW_MS = 30 * 60 * 1000;

/** ZarinPal's amounts are rials, or toman (ten rials) when the request said `IRT`. */
export const RIALS_PER_UNIT = { IRR: 1, IRT: 10 } as const;
export type ZarinpalCurrency = keyof typeof RIALS_PER_UNIT;

/** Rials shown in a payment's protocol currency; a fee that is not whole toman is rounded up (the merchant is never told less than it pays). */
export const inProtocolUnit = (rials: number, currency: ZarinpalCurrency): number =>
  Math.ceil(rials / RIALS_PER_UNIT[currency]);
