/** What a MySQL/MariaDB error means, decided in one place. */

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** A unique key already holds this value. */
export const isDuplicateKey = (error: unknown) => codeOf(error) === 'ER_DUP_ENTRY';

/** MariaDB (4025) and MySQL (3819) report a violated CHECK constraint differently. */
export function isCheckViolation(error: unknown): boolean {
  const e = error as { errno?: number; code?: string };
  return e.errno === 4025 || e.errno === 3819 || e.code === 'ER_CHECK_CONSTRAINT_VIOLATED' || e.code === 'ER_CONSTRAINT_FAILED';
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
