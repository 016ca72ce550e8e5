/**
 * Telling a dependency failure (MySQL or Temporal down, slow or restarting)
 * from a bug: the first is a 503 the client may retry, the second a 500.
 */
import { ServiceError, WorkflowUpdateRPCTimeoutOrCancelledError, type Client } from '@temporalio/client';

const MYSQL_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  'ER_ACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
]);

export class DependencyTimeoutError extends Error {
  override name = 'DependencyTimeoutError';
}

export function isDependencyFailure(error: unknown): boolean {
  if (error instanceof DependencyTimeoutError) return true;
  if (error instanceof ServiceError || error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; fatal?: unknown; errno?: unknown; sqlState?: unknown; name?: unknown };
  if (typeof e.code === 'string' && MYSQL_CONNECTION_CODES.has(e.code)) return true;
  if (e.fatal === true) return true; // mysql2 marks connection-level failures fatal
  if (e.name === 'TransportError' || e.name === 'ConnectionError') return true;
  return false;
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

/** Bound on any one call to Temporal from a request, so a dead server means a prompt 503. */
export const TEMPORAL_CALL_MS = 5_000;

/**
 * Runs a Temporal call under a gRPC deadline: a dead or slow server fails the
 * call (503), never hangs it, and the SDK stops retrying it when the deadline
 * passes (a bare timer would leave the call retrying in the background).
 */
export function temporalCall<T>(temporal: Client, call: () => Promise<T>): Promise<T> {
  return withTimeout('Temporal', TEMPORAL_CALL_MS + 500, temporal.connection.withDeadline(Date.now() + TEMPORAL_CALL_MS, call));
}
