import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** The most of an error's `cause` chain a log line carries. */
const MAX_CAUSES = 3;

/** A driver's error: its message and statement may carry the values of the query (a webhook secret, a key's hash). */
function isDatabaseError(e: Record<string, unknown>): boolean {
  return (
    typeof e.sqlState === 'string' ||
    typeof e.sqlMessage === 'string' ||
    'sql' in e ||
    (typeof e.code === 'string' && /^ER_/.test(e.code))
  );
}

/** Quoted values out of a database message; the names of keys, columns, tables and users stay. */
export function withoutValues(message: string): string {
  return message.replace(
    /(\b(?:key|column|table|constraint|database|index|function|procedure|user)\s+)?'(?:[^'\\]|\\.)*'/gi,
    (quoted, name: string | undefined) => (name === undefined ? "'?'" : quoted),
  );
}

/**
 * Errors are logged through an allow-list: their name, message (without the
 * query's values for a database error), code, errno, SQL state, a Temporal
 * failure's type, their causes, and the stack for anything that is not a
 * database error. Never an error's other properties: mysql2 puts the whole
 * statement, values interpolated, in `sql`.
 */
export function serializeError(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const e = value as Record<string, unknown>;
  const database = isDatabaseError(e);
  const message = typeof e.message === 'string' ? e.message : undefined;
  const out: Record<string, unknown> = {};
  out.type = typeof e.name === 'string' ? e.name : (value.constructor?.name ?? 'Object');
  if (message !== undefined) out.message = database ? withoutValues(message) : message;
  for (const field of ['code', 'errno', 'sqlState', 'type', 'nonRetryable', 'fatal'] as const) {
    const v = e[field];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      out[field === 'type' ? 'failureType' : field] = v;
  }
  if (!database && typeof e.stack === 'string') out.stack = e.stack;
  if (e.cause !== undefined && depth < MAX_CAUSES) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/**
 * Structured JSON logs. Secrets never reach them: request logs carry no
 * headers or bodies, errors pass the allow-list of serializeError, and these
 * paths are redacted wherever they appear.
 */
export function createLogger(level: string, name = 'dargah', destination?: DestinationStream): Logger {
  const options = {
    name,
    level,
    serializers: { err: (e: unknown) => serializeError(e), error: (e: unknown) => serializeError(e) },
    redact: {
      paths: [
        'authorization',
        '*.authorization',
        'headers.authorization',
        'key',
        'secret',
        '*.secret',
        'card_number',
        '*.card_number',
        'sql',
        '*.sql',
      ],
      censor: '[redacted]',
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
