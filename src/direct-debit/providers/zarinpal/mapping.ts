/**
 * ZarinPal Payman's messages, pure (docs/psps/zarinpal-payman.md), held against the corpus
 * (test/fixtures/direct-debit/zarinpal/): the answers' codes, the return's query, the dates and the
 * shapes of an authority and a signature. No I/O here.
 */

/** ZarinPal's success code on every call of the service. */
export const PAYMAN_OK = 100;

/** The paths under the API's base address, as ZarinPal's page names them. */
export const PAYMAN_PATHS = {
  request: '/pg/v4/payman/request.json',
  banks: '/pg/v4/payman/banksList.json',
  verify: '/pg/v4/payman/verify.json',
  paymentRequest: '/pg/v4/payment/request.json',
  checkout: '/pg/v4/payman/checkout.json',
  cancel: '/pg/v4/payman/cancelContract.json',
} as const;

/** The signing page under the page's base address: /pg/StartPayman/{payman_authority}/{bank_code}. */
export const paymanPagePath = (authority: string, bankCode: string): string =>
  `/pg/StartPayman/${encodeURIComponent(authority)}/${encodeURIComponent(bankCode)}`;

/** An authority or a bank code: no source shows more than letters, digits, '_' and '-'. */
export const PAYMAN_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** ZarinPal's page: a signature of 200 characters (billing-dashboard's schema holds it to exactly that). */
export const PAYMAN_SIGNATURE_LENGTH = 200;

/**
 * expire_at as ZarinPal's sample writes it, "Y-m-d H:i:s", on Tehran's wall clock (+03:30, no summer
 * time since 2022): no source names a zone, and the provider is in Tehran.
 */
export function paymanDateTime(at: Date): string {
  const tehran = new Date(at.getTime() + 210 * 60_000);
  return tehran.toISOString().slice(0, 19).replace('T', ' ');
}

/** The inverse of paymanDateTime, for the simulator and the tests; undefined when not that shape. */
export function parsePaymanDateTime(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return undefined;
  const utc = Date.parse(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(utc) ? undefined : new Date(utc - 210 * 60_000);
}

/** The error of an answer: ZarinPal's page calls `errors` an array, its v4 API and one integration an object. */
export function paymanError(answer: Record<string, unknown>): { code: number; message: string } | undefined {
  const errors = answer.errors;
  const first: unknown = Array.isArray(errors) ? errors[0] : errors;
  if (typeof first !== 'object' || first === null) return undefined;
  const { code, message, validations } = first as Record<string, unknown>;
  // The validations say which field and why (ZarinPal's v4 shape): kept in the message, they hold no secret.
  const why = Array.isArray(validations)
    ? validations.flatMap((v) =>
        typeof v === 'object' && v !== null ? Object.values(v as Record<string, unknown>).map(String) : [],
      )
    : [];
  return {
    code: typeof code === 'number' && Number.isInteger(code) ? code : -1,
    message: [typeof message === 'string' ? message : 'no message', ...why].join(' '),
  };
}

/** The answer's data when its code is 100, else undefined. */
export function paymanData(answer: Record<string, unknown>): Record<string, unknown> | undefined {
  const data = answer.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  return (data as Record<string, unknown>).code === PAYMAN_OK ? (data as Record<string, unknown>) : undefined;
}

/**
 * checkout's reference: `refrence_id` (sic) in ZarinPal's table and billing-dashboard, `ref_id` or
 * `reference_id` in boundless-horizon-design. The first of those present, as a string.
 */
export function checkoutReference(data: Record<string, unknown>): string | undefined {
  for (const name of ['refrence_id', 'ref_id', 'reference_id']) {
    const value = data[name];
    if (
      (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) ||
      (typeof value === 'string' && /^\d{1,20}$/.test(value))
    )
      return String(value);
  }
  return undefined;
}

/** The customer's return: payman_authority and status (Status in ZarinPal's text) OK or NOK. */
export function paymanReturn(query: Record<string, string>): { authority: string; signed: boolean } | undefined {
  const authority = query.payman_authority;
  const status = query.status ?? query.Status;
  if (authority === undefined || !PAYMAN_TOKEN.test(authority)) return undefined;
  if (status !== 'OK' && status !== 'NOK') return undefined;
  return { authority, signed: status === 'OK' };
}
