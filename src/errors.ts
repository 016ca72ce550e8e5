/**
 * The gateway's errors, in one place (docs/API.md#errors). Services throw a
 * DomainError with a stable code; the HTTP layer answers it as
 * `{ code, message, request_id, details? }` with the status this table gives.
 * The OpenAPI document lists the same table. Anything that is not a
 * DomainError is a bug (500 `internal_error`) or an unreachable dependency
 * (503 `service_unavailable`), decided by the HTTP layer.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  live_mode_not_enabled: 403,
  test_mode_only: 403,
  live_mode_only: 403,
  insufficient_scope: 403,
  payment_not_found: 404,
  refund_not_found: 404,
  settlement_not_found: 404,
  payment_link_not_found: 404,
  mandate_not_found: 404,
  plan_not_found: 404,
  subscription_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_use: 409,
  payment_not_paid: 409,
  payment_pending: 409,
  verify_deadline_passed: 409,
  payment_not_refundable: 409,
  refund_not_awaiting: 409,
  payment_not_cancelable: 409,
  payment_not_reversible: 409,
  test_clock_unavailable: 409,
  payment_not_payable: 409,
  payment_link_inactive: 409,
  payment_link_expired: 409,
  payment_link_used_up: 409,
  mandate_not_active: 409,
  direct_debit_not_configured: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  request_header_too_large: 431,
  validation_failed: 422,
  callback_url_not_allowed: 422,
  callback_domain_unverified: 422,
  amount_mismatch: 422,
  idempotency_key_reused: 422,
  refund_exceeds_amount: 422,
  refund_needs_iban: 422,
  split_exceeds_amount: 422,
  beneficiary_not_approved: 422,
  charged_amount_exceeds_max: 422,
  mandate_limit_exceeded: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);

export interface ErrorDetail {
  path: string;
  message: string;
}

export class DomainError extends Error {
  override name = 'DomainError';
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers: Record<string, string>;
  constructor(
    code: ErrorCode,
    message: string,
    details?: ErrorDetail[],
    /** Response headers the answer needs, e.g. Retry-After. */
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * A refusal a workflow answered with (an ApplicationFailure's type and
 * message) as a DomainError; undefined when the type is not a code of the
 * table, e.g. `illegal_transition`, which is a bug and must stay a 500.
 */
export function refusalError(type: string | null | undefined, message: string): DomainError | undefined {
  return isErrorCode(type) && ERROR_STATUS[type] < 500 ? new DomainError(type, message) : undefined;
}

/** A dependency that did not answer in time: the HTTP layer answers 503. */
export class DependencyTimeoutError extends Error {
  override name = 'DependencyTimeoutError';
}

/** Rejects with a DependencyTimeoutError when `work` takes longer than `ms`. */
export async function withTimeout<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DependencyTimeoutError(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
