/**
 * The connection to MySQL: the pool's settings, the Kysely instance every
 * query goes through (its waits bounded, bounded-pool.ts), and the database's
 * name in a URL. The tables' types are in schema.ts; they are exported here
 * too, beside `Db`, because every query module imports the two together.
 */
import { Kysely, MysqlDialect } from 'kysely';
import { createPool, type Pool } from 'mysql2';
import {
  DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
  DEFAULT_DATABASE_POOL_SIZE,
  DEFAULT_DATABASE_QUERY_TIMEOUT_MS,
} from '../config.ts';
import { boundedPool } from './bounded-pool.ts';
import type { Database } from './schema.ts';

export type * from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  poolSize?: number;
  /** Longest one query may go unanswered; 0: no limit. Default DEFAULT_DATABASE_QUERY_TIMEOUT_MS. */
  queryTimeoutMs?: number;
  /** Longest a caller waits for a pooled connection; 0: no limit. Default DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS. */
  acquireTimeoutMs?: number;
}

export function mysqlPoolOptions(url: string, poolSize = DEFAULT_DATABASE_POOL_SIZE) {
  return {
    uri: url,
    connectionLimit: poolSize,
    // DATETIME(3) columns hold UTC; mysql2 converts with this zone.
    timezone: 'Z',
    dateStrings: false,
    supportBigNumbers: true,
    bigNumberStrings: false,
    // A dead server is reported within a bounded time instead of hanging requests.
    connectTimeout: 3_000,
    enableKeepAlive: true,
    charset: 'utf8mb4',
  } as const;
}

export function createDatabase(url: string, options: DatabaseOptions = {}): { db: Db; pool: Pool } {
  const pool = createPool(mysqlPoolOptions(url, options.poolSize));
  const bounded = boundedPool(pool, {
    queryTimeoutMs: options.queryTimeoutMs ?? DEFAULT_DATABASE_QUERY_TIMEOUT_MS,
    acquireTimeoutMs: options.acquireTimeoutMs ?? DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
  });
  const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool: bounded }) });
  return { db, pool };
}

/** The database name in a mysql:// URL. */
export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) {
    throw new Error(
      `DATABASE_URL must name a database made of letters, digits and underscores (got ${JSON.stringify(name)})`,
    );
  }
  return name;
}

/** The same URL without its database, to connect before the database exists. */
export function serverUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/';
  return u.toString();
}
