import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Secrets never reach them: request logs carry no
 * headers or bodies, and these paths are redacted wherever they appear.
 */
export function createLogger(level: string, name = 'dargah'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['authorization', '*.authorization', 'headers.authorization', 'key', 'secret', '*.secret', 'card_number', '*.card_number'],
      censor: '[redacted]',
    },
  });
}
