import type { Context } from 'koa';
import { DomainError } from '../errors.ts';

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** The Idempotency-Key header, if sent: 1–255 printable ASCII characters (docs/API.md#idempotency). */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  const key = ctx.get('idempotency-key');
  if (key === '') return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new DomainError('validation_failed', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', [
      { path: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  }
  return key;
}
