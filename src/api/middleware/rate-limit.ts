/**
 * Abuse limits (docs/API.md#rate-limits): every API key has a request budget per fixed
 * window, and in test mode a merchant may create only so many payments a
 * minute (test keys are free and issued at once, so they are the cheap way
 * to flood the gateway). Every limited response carries the IETF draft's
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers;
 * past the limit the answer is 429 `rate_limited` with `Retry-After`.
 * The counting itself (and its MySQL or memory store) is src/http/rate-limit.ts,
 * which the dashboard uses too.
 */
import type { Context, Middleware } from 'koa';
import type { Config } from '../../config.ts';
import type { AuthState } from '../../domain/merchant.ts';
import { countHit, redeliveryQuota, type RateCounter } from '../../http/rate-limit.ts';

export { memoryRateCounter, mysqlRateCounter, rateCounter, type RateCounter } from '../../http/rate-limit.ts';

interface Limit {
  counter: RateCounter;
  /** Hits allowed per window; 0 means no limit. */
  limit: number;
  windowSeconds: number;
  /** Whom this request counts against, or undefined when the limit does not apply to it. */
  bucket: (ctx: Context) => string | undefined;
  message: string;
}

function limiter({ counter, limit, windowSeconds, bucket, message }: Limit): Middleware {
  return async (ctx, next) => {
    const name = limit === 0 ? undefined : bucket(ctx);
    if (name === undefined) {
      await next();
      return;
    }
    const { hits, headers, refusal } = await countHit(counter, { name, limit, windowSeconds, message });
    // Under several limits the headers report the one closest to its end (as the IETF draft asks).
    const shown = ctx.response.get('RateLimit-Remaining') as string | undefined;
    if (shown === undefined || shown === '' || Number(shown) >= limit - hits) ctx.set(headers);
    if (refusal !== undefined) throw refusal;
    await next();
  };
}

const authOf = (ctx: Context) => ctx.state.auth as AuthState | undefined;

/**
 * Per API key: every authenticated /api/v1 request counts. `bucketOf` names another bucket for the
 * caller (the compatible protocols count per merchant and mode, not per credential).
 */
export function keyRateLimit(
  config: Pick<Config, 'RATE_LIMIT_REQUESTS' | 'RATE_LIMIT_WINDOW_SECONDS'>,
  counter: RateCounter,
  bucketOf: (auth: AuthState) => string = (auth) => `key:${auth.keyId}`,
): Middleware {
  return limiter({
    counter,
    limit: config.RATE_LIMIT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    bucket: (ctx) => {
      const auth = authOf(ctx);
      return auth === undefined ? undefined : bucketOf(auth);
    },
    message: `Too many requests with this API key: at most ${config.RATE_LIMIT_REQUESTS} every ${config.RATE_LIMIT_WINDOW_SECONDS} s. Retry after the number of seconds in Retry-After.`,
  });
}

/** Per merchant, test mode only: payment creates per minute. */
export function testPaymentQuota(config: Pick<Config, 'TEST_PAYMENTS_PER_MINUTE'>, counter: RateCounter): Middleware {
  return limiter({
    counter,
    limit: config.TEST_PAYMENTS_PER_MINUTE,
    windowSeconds: 60,
    bucket: (ctx) => {
      const auth = authOf(ctx);
      return auth?.mode === 'test' ? `test_payments:${auth.merchant.id}` : undefined;
    },
    message: `Too many test payments: a merchant may create at most ${config.TEST_PAYMENTS_PER_MINUTE} test payments a minute. Retry after the number of seconds in Retry-After.`,
  });
}

/** Per merchant and mode: redeliveries per minute (each starts a delivery workflow per endpoint); the dashboard counts in the same bucket. */
export function redeliverQuota(
  config: Pick<Config, 'WEBHOOK_REDELIVERIES_PER_MINUTE'>,
  counter: RateCounter,
): Middleware {
  const quota = redeliveryQuota(config);
  return limiter({
    counter,
    limit: quota.limit,
    windowSeconds: quota.windowSeconds,
    bucket: (ctx) => {
      const auth = authOf(ctx);
      return auth === undefined ? undefined : quota.bucket(auth);
    },
    message: quota.message,
  });
}
