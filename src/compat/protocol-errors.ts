/**
 * How a compatible protocol answers a refusal (docs/COMPAT.md#codes): Dargah's own refusals
 * (DomainError, from the same services the API uses) become the protocol's code through its
 * table, with the HTTP status of Dargah's error table; a refusal only the protocol has (ZarinPal's
 * reverse window) is a ProtocolRefusal. A dependency failure is 503 and a bug 500, with nothing of
 * the error in the answer (it is logged under the request id), each with the protocol's code for it.
 */
import type { Context, Middleware } from 'koa';
import { toDomainError } from '../api/middleware/errors.ts';
import type { DomainError, ErrorCode, ErrorDetail } from '../errors.ts';
import type { Logger } from '../logger.ts';

/** A refusal the protocol has and Dargah's API does not: its code and HTTP status as they are. */
export class ProtocolRefusal extends Error {
  override name = 'ProtocolRefusal';
  readonly code: number;
  readonly status: number;
  constructor(code: number, message: string, status: number) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** One protocol's way of answering. */
export interface ProtocolErrors {
  /** The protocol's code for each of Dargah's refusals it can meet; `fallback` for the rest. */
  codes: Partial<Record<ErrorCode, number>>;
  fallback: number;
  /** A protocol whose codes name the field (Zibal's): a refused field's code, before `codes`. */
  fieldCodes?: Record<string, number>;
  /** The HTTP status of a refusal with Dargah's `status`: Dargah's by default; Zibal answers its refusals with 200. */
  status?: (status: number) => number;
  /** The answer's body for a refusal. */
  body: (code: number, message: string, details: ErrorDetail[]) => unknown;
}

function answer(ctx: Context, status: number, body: unknown, headers: Record<string, string> = {}): void {
  ctx.status = status;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.body = body;
}

/** The middleware that gives every refusal under it the protocol's shape. */
export function protocolErrors(protocol: ProtocolErrors, logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      if (caught instanceof ProtocolRefusal) {
        answer(ctx, caught.status, protocol.body(caught.code, caught.message, []));
        return;
      }
      const error: DomainError = toDomainError(caught);
      if (error.code === 'internal_error') {
        logger.error(
          { request_id: ctx.state.requestId as unknown, err: caught, method: ctx.method, path: ctx.path },
          'unexpected error',
        );
      } else if (error.code === 'service_unavailable') {
        logger.warn(
          { request_id: ctx.state.requestId as unknown, err: caught, path: ctx.path },
          'dependency unavailable',
        );
      }
      const field =
        error.code === 'validation_failed'
          ? error.details?.map((d) => protocol.fieldCodes?.[d.path]).find((c) => c !== undefined)
          : undefined;
      const code = field ?? protocol.codes[error.code] ?? protocol.fallback;
      answer(
        ctx,
        protocol.status?.(error.status) ?? error.status,
        protocol.body(code, error.message, error.details ?? []),
        error.headers,
      );
    }
  };
}
