/**
 * Counting requests against a limit in fixed windows, shared by the API's
 * rate limits (src/api/middleware/rate-limit.ts, docs/API.md#rate-limits)
 * and the dashboard, so an action limited in the API is limited the same way
 * from the dashboard, in the same bucket.
 *
 * Counters live in MySQL by default: one atomic upsert per request (a single
 * round trip, no transaction), shared by every API process, so the limit is
 * exact however many processes run. The `memory` store counts per process.
 */
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { hitCounter, windowStartOf } from '../db/rate-limits.ts';
import { clientBucket } from '../domain/client-bucket.ts';
import type { Tenant } from '../domain/merchant.ts';
import { DomainError } from '../errors.ts';

export interface RateCounter {
  /** Counts one hit in (bucket, window) and answers the hits so far in that window, this one included. */
  hit(bucket: string, windowStart: number, windowMs: number): Promise<number>;
}

/** Old windows of the memory store are deleted now and then by whichever request happens to draw this chance. */
const CLEANUP_CHANCE = 1 / 500;

/** The MySQL store: the one counter every process shares (src/db/rate-limits.ts, also the dashboard's sign-in throttle). */
export function mysqlRateCounter(db: Db): RateCounter {
  return { hit: (bucket, windowStart) => hitCounter(db, bucket, windowStart) };
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

export interface CountedHit {
  /** Hits so far in this window, this one included. */
  hits: number;
  /** The IETF draft's RateLimit-Limit, -Remaining and -Reset. */
  headers: Record<string, string>;
  /** `rate_limited` (with Retry-After) when this hit is over the limit. */
  refusal?: DomainError;
}

/** Counts one hit of `name` in its window (fixed, aligned to the clock: every process agrees on it without asking anyone). */
export async function countHit(
  counter: RateCounter,
  { name, limit, windowSeconds, message }: { name: string; limit: number; windowSeconds: number; message: string },
): Promise<CountedHit> {
  const windowMs = windowSeconds * 1000;
  const now = Date.now();
  const windowStart = windowStartOf(now, windowMs);
  const hits = await counter.hit(name, windowStart, windowMs);
  const reset = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
  const headers = {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, limit - hits)),
    'RateLimit-Reset': String(reset),
  };
  if (hits <= limit) return { hits, headers };
  return {
    hits,
    headers,
    refusal: new DomainError('rate_limited', message, undefined, { ...headers, 'Retry-After': String(reset) }),
  };
}

/** Redeliveries a merchant may ask for per minute and mode, through the API or the dashboard: each starts a delivery workflow per endpoint. */
export function redeliveryQuota(config: Pick<Config, 'WEBHOOK_REDELIVERIES_PER_MINUTE'>) {
  return {
    limit: config.WEBHOOK_REDELIVERIES_PER_MINUTE,
    windowSeconds: 60,
    bucket: (tenant: Tenant) => `redeliver:${tenant.merchant.id}:${tenant.mode}`,
    message: `Too many redeliveries: a merchant may ask for at most ${config.WEBHOOK_REDELIVERIES_PER_MINUTE} a minute. Retry after the number of seconds in Retry-After.`,
  };
}

/**
 * The public pages' actions (docs/SECURITY.md, "Public pages"): POST /l/{slug}, the Pay button and the
 * protocols' start addresses need no credential, so they are counted per client, all in one bucket per
 * client: a client that floods one of them is refused the others too. A client is its address's bucket
 * (src/domain/client-bucket.ts): an IPv4 address, or an IPv6 /64, which one subscriber holds whole.
 */
export function pageActionQuota(config: Pick<Config, 'PAGE_ACTIONS_PER_CLIENT_PER_MINUTE'>) {
  return {
    limit: config.PAGE_ACTIONS_PER_CLIENT_PER_MINUTE,
    windowSeconds: 60,
    bucket: (address: string) => `page:${clientBucket(address)}`,
    message: `Too many requests from this address: at most ${config.PAGE_ACTIONS_PER_CLIENT_PER_MINUTE} a minute. Retry after the number of seconds in Retry-After.`,
  };
}

/** Counts one public page action of `address`; answers the refusal (with Retry-After) past the limit, undefined otherwise (and when the limit is 0: off). */
export async function countPageAction(
  counter: RateCounter,
  config: Pick<Config, 'PAGE_ACTIONS_PER_CLIENT_PER_MINUTE'>,
  address: string,
): Promise<DomainError | undefined> {
  const quota = pageActionQuota(config);
  if (quota.limit === 0) return undefined;
  return (
    await countHit(counter, {
      name: quota.bucket(address),
      limit: quota.limit,
      windowSeconds: quota.windowSeconds,
      message: quota.message,
    })
  ).refusal;
}
