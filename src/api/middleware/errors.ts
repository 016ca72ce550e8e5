import type { Middleware } from 'koa';
import { DomainError } from '../../errors.ts';
import { isDependencyFailure, RETRY_AFTER_SECONDS } from '../../http/dependencies.ts';
import type { Logger } from '../../logger.ts';

/**
 * The first middleware: gives every response a request id and turns every
 * error into the documented JSON body. Unknown errors become a 500 that
 * reveals nothing; their details go to the log under the same request id.
 */
export function errorHandler(logger: Logger, newRequestId: () => string): Middleware {
  return async (ctx, next) => {
    const requestId = newRequestId();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new DomainError('not_found', `No resource at ${ctx.method} ${ctx.path}.`);
        if (ctx.status === 405 || ctx.status === 501)
          throw new DomainError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}.`);
      }
    } catch (caught) {
      const error = toDomainError(caught);
      if (error.code === 'internal_error') {
        logger.error(
          { request_id: requestId, err: caught, method: ctx.method, path: loggedPath(ctx.path), address: ctx.ip },
          'unexpected error',
        );
      } else if (error.code === 'service_unavailable') {
        logger.warn({ request_id: requestId, err: caught, path: loggedPath(ctx.path) }, 'dependency unavailable');
      }
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      ctx.body = {
        code: error.code,
        message: error.message,
        request_id: requestId,
        ...(error.details === undefined ? {} : { details: error.details }),
      };
    }
    logger.info(
      {
        request_id: requestId,
        method: ctx.method,
        path: loggedPath(ctx.path),
        status: ctx.status,
        address: ctx.ip,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  };
}

/**
 * The path as the logs record it. A Zibal trackId in `/start/{trackId}` is all it takes to reach that
 * payment's page (sixteen random digits, docs/COMPAT.md): like a key, it stays out of the logs, which
 * also keeps a number of a card's length out of them.
 */
export const loggedPath = (path: string): string => path.replace(/^\/start\/[^/]+/, '/start/:trackId');

export function toDomainError(caught: unknown): DomainError {
  if (caught instanceof DomainError) return caught;
  if (isDependencyFailure(caught)) {
    return new DomainError(
      'service_unavailable',
      'A service the gateway depends on is unavailable; retry shortly.',
      undefined,
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    );
  }
  // koa's own http errors (ctx.throw, router 405/501) keep their status.
  const status = (caught as { status?: unknown }).status;
  if (status === 405) return new DomainError('method_not_allowed', 'This method is not allowed on this path.');
  if (status === 404) return new DomainError('not_found', 'Not found.');
  if (status === 413) return new DomainError('payload_too_large', 'The request body is too large.');
  if (status === 415) return new DomainError('unsupported_media_type', 'Send the request body as application/json.');
  if (status === 400 || status === 501) return new DomainError('not_found', 'Not found.');
  return new DomainError(
    'internal_error',
    'Something went wrong on our side; the request id identifies it for support.',
  );
}
