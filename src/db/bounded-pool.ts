/**
 * The pool as Kysely sees it, with both waits bounded, so a MySQL that hangs
 * instead of dying (a stopped process, a partition, a lock held for ever)
 * fails a request within about acquire + query timeout instead of holding it
 * until TCP gives up:
 * - getting a connection: after acquireTimeoutMs the caller gets a
 *   MysqlAcquireTimeoutError (a connection that turns up later goes straight
 *   back to the pool);
 * - every query (but schema changes and the migration lock) carries mysql2's `timeout`; when it fires, or the connection
 *   fails otherwise, the connection is destroyed rather than returned to the
 *   pool, where the next query would queue behind the hung one for ever.
 */
import type { MysqlPool, MysqlPoolConnection } from 'kysely';
import type { Pool, PoolConnection } from 'mysql2';
import { DependencyTimeoutError } from '../errors.ts';
import { startChildSpan } from '../observability/tracing.ts';

/** Raised when no pooled connection came in time: MySQL is unavailable (503 in a request, a retry in an activity). */
export class MysqlAcquireTimeoutError extends DependencyTimeoutError {
  override name = 'MysqlAcquireTimeoutError';
  readonly code = 'POOL_ACQUIRE_TIMEOUT';
}

/**
 * Statements that may rightly take long: schema changes (a migration may
 * rebuild a large table) and the migrator's server-wide lock, which waits for
 * another process's migrations, whatever pool runs them.
 */
const UNBOUNDED_STATEMENT = /^\s*(alter|create|drop|rename|truncate)\b|\bget_lock\(/i;

export function boundedPool(
  pool: Pool,
  { queryTimeoutMs, acquireTimeoutMs }: { queryTimeoutMs: number; acquireTimeoutMs: number },
): MysqlPool {
  const wrappers = new WeakMap<PoolConnection, MysqlPoolConnection>();
  const wrap = (connection: PoolConnection): MysqlPoolConnection => {
    let wrapper = wrappers.get(connection);
    if (wrapper !== undefined) return wrapper;
    const sqlOf = (sql: string) =>
      queryTimeoutMs > 0 && !UNBOUNDED_STATEMENT.test(sql) ? { sql, timeout: queryTimeoutMs } : { sql };
    wrapper = {
      query: ((sql: string, parameters: unknown[], callback?: (error: unknown, result: unknown) => void) => {
        if (callback === undefined) return connection.query(sqlOf(sql), parameters);
        // The statement's text (placeholders, never the values) names the span; undefined when tracing is off.
        const span = startChildSpan(`mysql ${sql.slice(0, sql.indexOf(' ') >>> 0).toLowerCase()}`, {
          'db.system': 'mysql',
          'db.statement': sql.slice(0, 500),
        });
        connection.query(sqlOf(sql), parameters, (error: unknown, result: unknown) => {
          span?.end(error);
          if (
            error !== null &&
            error !== undefined &&
            ((error as { fatal?: unknown }).fatal === true ||
              (error as { code?: unknown }).code === 'PROTOCOL_SEQUENCE_TIMEOUT')
          ) {
            connection.destroy();
          }
          callback(error, result);
        });
      }) as MysqlPoolConnection['query'],
      release: () => connection.release(),
    };
    wrappers.set(connection, wrapper);
    return wrapper;
  };
  return {
    getConnection(callback) {
      let settled = false;
      const timer =
        acquireTimeoutMs > 0
          ? setTimeout(() => {
              if (settled) return;
              settled = true;
              callback(
                new MysqlAcquireTimeoutError(`MySQL gave no connection within ${acquireTimeoutMs} ms`),
                undefined as unknown as MysqlPoolConnection,
              );
            }, acquireTimeoutMs)
          : undefined;
      pool.getConnection((error, connection) => {
        if (settled) {
          if (error === null || error === undefined) connection.release();
          return;
        }
        settled = true;
        clearTimeout(timer);
        if (error !== null && error !== undefined) callback(error, undefined as unknown as MysqlPoolConnection);
        else callback(null, wrap(connection));
      });
    },
    end: (callback) => pool.end(callback),
  };
}
