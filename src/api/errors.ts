/**
 * The error model of the API (DESIGN §4): every error is an ApiError with
 * an HTTP status and a stable code; the error middleware turns it into
 * `{ code, message, request_id, details? }`. Anything else is a bug and
 * becomes a 500 `internal_error` that reveals nothing about the internals.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  live_mode_not_enabled: 403,
  payment_not_found: 404,
  refund_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_use: 409,
  payment_not_paid: 409,
  payment_pending: 409,
  verify_deadline_passed: 409,
  payment_not_refundable: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  request_header_too_large: 431,
  validation_failed: 422,
  callback_url_not_allowed: 422,
  amount_mismatch: 422,
  idempotency_key_reused: 422,
  refund_exceeds_amount: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 2;

export function serviceUnavailable(what: string): ApiError {
  return new ApiError('service_unavailable', `${what} is temporarily unavailable; retry shortly.`, undefined, {
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });
}
