/**
 * Telling a dependency failure (MySQL or Temporal down, slow or restarting)
 * from a bug: the first is a 503 the client may retry, the second a 500.
 */
import { ServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';

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
