/**
 * Cursor pagination for every list (docs/API.md#pagination): newest first,
 * ordered by (created_at, id), and the cursor is the last row's pair, so
 * pages never skip or repeat rows even when new ones arrive meanwhile.
 */
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { DomainError } from '../errors.ts';

export interface Cursor {
  created_at: string;
  id: string;
}

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.created_at, c.id])).toString('base64url');

export function decodeCursor(text: string): Cursor {
  try {
    const [created_at, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof created_at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(created_at)))
      return { created_at, id };
  } catch {
    // fall through to the error below
  }
  throw new DomainError('validation_failed', 'cursor is not a cursor this API returned.', [
    { path: 'cursor', message: 'is invalid' },
  ]);
}

/** The rows after `cursor` in newest-first order; use with `.where(...)` on a table with created_at and id. */
export function afterCursor(cursor: string): RawBuilder<SqlBool> {
  const c = decodeCursor(cursor);
  const at = new Date(c.created_at);
  return sql<SqlBool>`(created_at < ${at} or (created_at = ${at} and id < ${c.id}))`;
}

/**
 * A page from `limit + 1` rows fetched in newest-first order: the extra row
 * only tells whether there is more.
 */
export function pageOf<Row, Item>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => Item,
  cursorOf: (row: Row) => Cursor,
) {
  const kept = rows.slice(0, limit);
  const has_more = rows.length > limit;
  const last = kept.at(-1);
  return {
    data: kept.map(toItem),
    has_more,
    next_cursor: has_more && last !== undefined ? encodeCursor(cursorOf(last)) : null,
  };
}

/** The cursor of a row whose created_at is a Date. */
export const rowCursor = (row: { created_at: Date; id: string }): Cursor => ({
  created_at: row.created_at.toISOString(),
  id: row.id,
});

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/**
 * One page of a list query whose rows have created_at and id: the rows after
 * the cursor, newest first, `limit` of them and whether there are more.
 */
export async function keyedPage<DB, TB extends keyof DB, Row extends { created_at: Date; id: string }, Item>(
  query: SelectQueryBuilder<DB, TB, Row>,
  page: PageQuery,
  toItem: (row: Row) => Item,
) {
  const limit = page.limit ?? 20;
  let q = query;
  if (page.cursor !== undefined) q = q.where(afterCursor(page.cursor));
  const rows = await q
    .orderBy(sql`created_at`, 'desc')
    .orderBy(sql`id`, 'desc')
    .limit(limit + 1)
    .execute();
  return pageOf(rows, limit, toItem, rowCursor);
}
