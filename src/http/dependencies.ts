/**
 * Telling a dependency failure (MySQL or Temporal down, slow or restarting)
 * from a bug: the first is a 503 the client may retry, the second a 500.
 * Shared by the API and the hosted pages.
 */
import { DependencyTimeoutError } from '../errors.ts';
import { isMysqlUnavailable } from '../db/errors.ts';
import { isTemporalUnavailable } from '../temporal/call.ts';

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 2;

export function isDependencyFailure(error: unknown): boolean {
  if (error instanceof DependencyTimeoutError || isTemporalUnavailable(error) || isMysqlUnavailable(error)) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TransportError' || name === 'ConnectionError';
}
