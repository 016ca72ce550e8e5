/** What a MySQL/MariaDB error means, decided in one place. */

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** A unique key already holds this value. */
export const isDuplicateKey = (error: unknown) => codeOf(error) === 'ER_DUP_ENTRY';

/** InnoDB rolled this statement's transaction back to end a deadlock (two inserts into one unique key's gap at once): it may be run again. */
export const isDeadlock = (error: unknown) => codeOf(error) === 'ER_LOCK_DEADLOCK';

/** MariaDB (4025) and MySQL (3819) report a violated CHECK constraint differently. */
export function isCheckViolation(error: unknown): boolean {
  const e = error as { errno?: number; code?: string };
  return (
    e.errno === 4025 ||
    e.errno === 3819 ||
    e.code === 'ER_CHECK_CONSTRAINT_VIOLATED' ||
    e.code === 'ER_CONSTRAINT_FAILED'
  );
}

/**
 * The code of an error raised while reaching or using MySQL (a socket error such
 * as ECONNREFUSED, a server error ER_…, a protocol error), for one-line messages
 * to operators; undefined for anything else.
 */
export function mysqlErrorCode(error: unknown): string | undefined {
  const code = codeOf(error);
  return typeof code === 'string' && /^(E[A-Z]+|ER_\w+|PROTOCOL_\w+)$/.test(code) ? code : undefined;
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'POOL_ACQUIRE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  'ER_ACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
]);

/** MySQL could not be reached or used (down, restarting, overloaded): a retry may succeed. */
export function isMysqlUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; fatal?: unknown } | null;
  if (typeof e !== 'object' || e === null) return false;
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  return e.fatal === true; // mysql2 marks connection-level failures fatal
}
