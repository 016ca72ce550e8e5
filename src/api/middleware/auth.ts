import type { Context, Middleware } from 'koa';
import type { Db } from '../../db/database.ts';
import type { AuthState } from '../../domain/merchant.ts';
import { DomainError } from '../../errors.ts';
import { authenticateKey } from '../../merchants/keys.ts';

/**
 * Sets `ctx.state.auth` from `Authorization: Bearer <key>` on every /api/v1
 * request it guards. It runs before the body is read; a refused request's
 * connection is closed after the answer, so its body is never read at all.
 */
export function authenticate(db: Db): Middleware {
  return async (ctx, next) => {
    try {
      const header = ctx.get('authorization');
      if (header === '')
        throw new DomainError('missing_api_key', 'Send your secret key as "Authorization: Bearer sk_test_…".');
      const match = /^Bearer +(\S+)$/i.exec(header);
      if (match === null) throw new DomainError('invalid_api_key', 'The API key is not valid.');
      ctx.state.auth = await authenticateKey(db, match[1]!);
    } catch (error) {
      const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
      if (hasBody) ctx.set('Connection', 'close');
      throw error;
    }
    await next();
  };
}

/** The caller of an authenticated route. */
export const callerOf = (ctx: Context) => ctx.state.auth as AuthState;
