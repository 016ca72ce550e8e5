/**
 * Telling a dependency failure (MySQL or Temporal down, slow or restarting)
 * from a bug: the first is a 503 the client may retry, the second a 500.
 * Shared by the API and the hosted pages.
 */
import type { Context } from 'koa';
import { DependencyTimeoutError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { isMysqlUnavailable } from '../db/errors.ts';
import { isTemporalUnavailable } from '../temporal/call.ts';

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 2;

export function isDependencyFailure(error: unknown): boolean {
  if (error instanceof DependencyTimeoutError || isTemporalUnavailable(error) || isMysqlUnavailable(error)) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TransportError' || name === 'ConnectionError';
}

/**
 * A page's error that is no refusal of the visitor's: a dependency failure
 * (503 with Retry-After, a warning without the error's details) or a bug (500,
 * logged whole). The hosted pages and the dashboard answer both with a page.
 */
export function pageFailure(
  ctx: Context,
  error: unknown,
  logger: Logger,
): { status: 503; kind: 'unavailable' } | { status: 500; kind: 'error' } {
  if (isDependencyFailure(error)) {
    logger.warn(
      { request_id: ctx.state.requestId, err: error instanceof Error ? error.message : String(error), path: ctx.path },
      'dependency unavailable',
    );
    ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    return { status: 503, kind: 'unavailable' };
  }
  logger.error({ request_id: ctx.state.requestId, err: error, method: ctx.method, path: ctx.path }, 'unexpected error');
  return { status: 500, kind: 'error' };
}
