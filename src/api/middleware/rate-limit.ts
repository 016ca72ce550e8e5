/**
 * Abuse limits (docs/API.md#rate-limits): every API key has a request budget per fixed
 * window, and in test mode a merchant may create only so many payments a
 * minute (test keys are free and issued at once, so they are the cheap way
 * to flood the gateway). Every limited response carries the IETF draft's
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers;
 * past the limit the answer is 429 `rate_limited` with `Retry-After`.
 *
 * Counters live in MySQL by default: one atomic upsert per request (a single
 * round trip, no transaction), shared by every API process, so the limit is
 * exact however many processes run. The `memory` store counts per process.
 */
import type { Context, Middleware } from 'koa';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { hitCounter, windowStartOf } from '../../db/rate-limits.ts';
import type { AuthState } from '../../domain/merchant.ts';
import { DomainError } from '../../errors.ts';

export interface RateCounter {
  /** Counts one hit in (bucket, window) and answers the hits so far in that window, this one included. */
  hit(bucket: string, windowStart: number, windowMs: number): Promise<number>;
}

/** Old windows are deleted now and then by whichever request happens to draw this chance. */
const CLEANUP_CHANCE = 1 / 500;

/** The MySQL store: the counter every process shares (src/db/rate-limits.ts, also the dashboard's sign-in throttle). */
export function mysqlRateCounter(db: Db): RateCounter {
  return { hit: (bucket, windowStart, windowMs) => hitCounter(db, bucket, windowStart, windowMs) };
}

export function memoryRateCounter(): RateCounter {
  const counts = new Map<string, { windowStart: number; hits: number }>();
  return {
    hit(bucket, windowStart) {
      const current = counts.get(bucket);
      const hits = current !== undefined && current.windowStart === windowStart ? current.hits + 1 : 1;
      counts.set(bucket, { windowStart, hits });
      if (Math.random() < CLEANUP_CHANCE) {
        for (const [name, c] of counts) if (c.windowStart < windowStart) counts.delete(name);
      }
      return Promise.resolve(hits);
    },
  };
}

export function rateCounter(config: Pick<Config, 'RATE_LIMIT_STORE'>, db: Db): RateCounter {
  return config.RATE_LIMIT_STORE === 'mysql' ? mysqlRateCounter(db) : memoryRateCounter();
}

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
  const windowMs = windowSeconds * 1000;
  return async (ctx, next) => {
    const name = limit === 0 ? undefined : bucket(ctx);
    if (name === undefined) {
      await next();
      return;
    }
    const now = Date.now();
    // Fixed windows aligned to the clock: every process agrees on the window without asking anyone.
    const windowStart = windowStartOf(now, windowMs);
    const hits = await counter.hit(name, windowStart, windowMs);
    const reset = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    const headers = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - hits)),
      'RateLimit-Reset': String(reset),
    };
    // Under several limits the headers report the one closest to its end (as the IETF draft asks).
    const shown = ctx.response.get('RateLimit-Remaining') as string | undefined;
    if (shown === undefined || shown === '' || Number(shown) >= limit - hits) ctx.set(headers);
    if (hits > limit) throw new DomainError('rate_limited', message, undefined, { ...headers, 'Retry-After': String(reset) });
    await next();
  };
}

const authOf = (ctx: Context) => ctx.state.auth as AuthState | undefined;

/** Per API key: every authenticated /api/v1 request counts. */
export function keyRateLimit(config: Pick<Config, 'RATE_LIMIT_REQUESTS' | 'RATE_LIMIT_WINDOW_SECONDS'>, counter: RateCounter): Middleware {
  return limiter({
    counter,
    limit: config.RATE_LIMIT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    bucket: (ctx) => {
      const auth = authOf(ctx);
      return auth === undefined ? undefined : `key:${auth.keyId}`;
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

/** Per merchant and mode: redeliveries per minute (each starts a delivery workflow per endpoint). */
export function redeliverQuota(config: Pick<Config, 'WEBHOOK_REDELIVERIES_PER_MINUTE'>, counter: RateCounter): Middleware {
  return limiter({
    counter,
    limit: config.WEBHOOK_REDELIVERIES_PER_MINUTE,
    windowSeconds: 60,
    bucket: (ctx) => {
      const auth = authOf(ctx);
      return auth === undefined ? undefined : `redeliver:${auth.merchant.id}:${auth.mode}`;
    },
    message: `Too many redeliveries: a merchant may ask for at most ${config.WEBHOOK_REDELIVERIES_PER_MINUTE} a minute. Retry after the number of seconds in Retry-After.`,
  });
}
