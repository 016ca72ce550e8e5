/**
 * The deletes of the pruned tables' rules (src/domain/retention.ts). Each
 * batch is two short statements: a plain read of the oldest rows past their
 * period by the age column's index (migration 0040 added the ones missing),
 * then a DELETE of exactly those rows by primary key. The read takes no
 * lock; the delete locks only the rows it removes (equality on the primary
 * key: no gap or range locks), so a batch never holds up the requests
 * writing the same table. Where a row's state can change in between (an
 * idempotency key taken again, a session used, an attempt recorded for an
 * event, a resubmitted document set) the delete checks the rule again and
 * such a row stays; an age column that never changes is not checked twice,
 * so the delete has only the primary key to go by.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { DOCUMENT_DRAFT_KEEP_MS, RATE_LIMIT_COUNTER_KEEP_MS, type PrunedTable } from '../domain/retention.ts';
import type { Database } from './schema.ts';
import type { Db } from './database.ts';

export interface PruneLimits {
  now: Date;
  /** Rows one batch deletes at most. */
  batchSize: number;
  /** EVENT_RETENTION_DAYS, in ms. */
  eventsKeepMs: number;
  /** REJECTED_DOCUMENTS_RETENTION_DAYS, in ms. */
  rejectedDocumentsKeepMs: number;
  /** DASHBOARD_SESSION_IDLE_SECONDS, in ms. */
  sessionIdleMs: number;
}

export interface PruneOutcome {
  deleted: number;
  /** Document files whose rows went: the caller removes them from DOCUMENTS_DIR (rows first, as the dashboard does). */
  files?: { merchant_id: string; id: string }[];
}

type Pruner = (db: Db, limits: PruneLimits) => Promise<PruneOutcome>;

const before = (now: Date, ms: number) => new Date(now.getTime() - ms);
const counted = (result: { numDeletedRows: bigint }): PruneOutcome => ({ deleted: Number(result.numDeletedRows) });

/** Rows of a composite primary key, as `(a = ? and b = ?) or …`: an index range per row, in MySQL and MariaDB alike. */
function anyOfKeys<T extends keyof Database, K extends Record<string, unknown>>(rows: K[]) {
  return (eb: ExpressionBuilder<Database, T>) => eb.or(rows.map((row) => eb.and(row as never)));
}

/** The tables whose rule is "past an age column's period": one read by that column, one delete by primary key. */
type AgedTable =
  | 'idempotency_keys'
  | 'webhook_attempts'
  | 'events'
  | 'user_email_tokens'
  | 'user_sign_in_challenges'
  | 'rate_limit_counters';

interface AgeRule<T extends AgedTable> {
  table: T;
  /** The primary key's columns: what the delete goes by. */
  key: readonly (keyof Database[T] & string)[];
  /** The indexed age column, and whether a row is past its period at the cutoff itself (`<=`) or only before it (`<`). */
  age: keyof Database[T] & string;
  through: '<' | '<=';
  /** The instant the age column is compared with (epoch ms for a number column). */
  cutoff: (limits: PruneLimits) => Date | number;
  /** Where the age column can change between the read and the delete (a key taken again): the delete compares it again. */
  ageChanges?: true;
  /** A further condition of the rule, which the read and the delete both check (a row's state can change in between). */
  also?: (limits: PruneLimits) => (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>;
}

/** One batch of an age rule: the oldest rows past the period by the age column's index, then exactly those rows by key. */
function pruneByAge<T extends AgedTable>(rule: AgeRule<T>): Pruner {
  // Kysely types a table name only as a literal: the rule's own types above keep its columns right.
  const { table, key, age, through } = rule as unknown as AgeRule<'events'>;
  return async (anyDb, limits) => {
    const db = anyDb as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const cutoff = rule.cutoff(limits);
    const also = rule.also?.(limits) as unknown as ((eb: unknown) => Expression<SqlBool>) | undefined;
    let read = db
      .selectFrom(table)
      .select(key as never)
      .where(age as never, through, cutoff as never);
    if (also !== undefined) read = read.where(also as never);
    const rows = (await read
      .orderBy(age as never)
      .limit(limits.batchSize)
      .execute()) as Record<string, unknown>[];
    if (rows.length === 0) return { deleted: 0 };
    let remove =
      key.length === 1
        ? db.deleteFrom(table).where(key[0] as never, 'in', rows.map((r) => r[key[0]!]) as never)
        : db.deleteFrom(table).where(anyOfKeys(rows) as never);
    if (rule.ageChanges) remove = remove.where(age as never, through, cutoff as never);
    if (also !== undefined) remove = remove.where(also as never);
    return counted(await remove.executeTakeFirst());
  };
}

const idempotencyKeys = pruneByAge({
  table: 'idempotency_keys',
  key: ['merchant_id', 'mode', 'operation', 'idempotency_key'],
  age: 'expires_at',
  through: '<=',
  cutoff: ({ now }) => now,
  ageChanges: true,
  // A key a request holds right now stays, expired or not: that request still writes its answer to it.
  also:
    ({ now }) =>
    (eb) =>
      eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]),
});

const webhookAttempts = pruneByAge({
  table: 'webhook_attempts',
  key: ['id'],
  age: 'attempted_at',
  through: '<',
  cutoff: ({ now, eventsKeepMs }) => before(now, eventsKeepMs),
});

const events = pruneByAge({
  table: 'events',
  key: ['id'],
  age: 'created_at',
  through: '<',
  cutoff: ({ now, eventsKeepMs }) => before(now, eventsKeepMs),
  // An event redelivered lately still has attempts inside the period: it stays until they age out too.
  also: () => (eb) =>
    eb.not(
      eb.exists(
        eb
          .selectFrom('webhook_attempts')
          .select('webhook_attempts.id')
          .whereRef('webhook_attempts.event_id', '=', 'events.id'),
      ),
    ),
});

const expiredTokens = (table: 'user_email_tokens' | 'user_sign_in_challenges') =>
  pruneByAge({ table, key: ['token_hash'], age: 'expires_at', through: '<=', cutoff: ({ now }) => now });

const rateLimitCounters = pruneByAge({
  table: 'rate_limit_counters',
  key: ['bucket', 'window_start'],
  age: 'window_start',
  through: '<',
  cutoff: ({ now }) => now.getTime() - RATE_LIMIT_COUNTER_KEEP_MS,
});

const userSessions: Pruner = async (db, { now, batchSize, sessionIdleMs }) => {
  const idleSince = before(now, sessionIdleMs);
  // Two reads, each on its own index: an OR of two columns would read neither index.
  const expired = await db
    .selectFrom('user_sessions')
    .select('token_hash')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(batchSize)
    .execute();
  const idle = await db
    .selectFrom('user_sessions')
    .select('token_hash')
    .where('last_seen_at', '<=', idleSince)
    .orderBy('last_seen_at')
    .limit(batchSize)
    .execute();
  const hashes = [
    ...new Map([...expired, ...idle].map((r) => [r.token_hash.toString('hex'), r.token_hash])).values(),
  ].slice(0, batchSize);
  if (hashes.length === 0) return { deleted: 0 };
  return counted(
    await db
      .deleteFrom('user_sessions')
      .where('token_hash', 'in', hashes)
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]))
      .executeTakeFirst(),
  );
};

/**
 * Whether the submission row `alias` is past its rule: a draft never taken for 7 days, or a
 * submitted set of a merchant whose documents have stood rejected for the period. Checked again
 * by each delete, in the same statement.
 */
function submissionPrunable(alias: string, limits: PruneLimits) {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<SqlBool>`((${column('status')} = 'draft' and ${column('created_at')} < ${before(limits.now, DOCUMENT_DRAFT_KEEP_MS)})
    or (${column('status')} = 'submitted' and exists (select 1 from merchants m where m.id = ${column('merchant_id')}
      and m.onboarding_status = 'rejected' and m.onboarding_updated_at < ${before(limits.now, limits.rejectedDocumentsKeepMs)})))`;
}

/** The ids (with their merchants) of prunable submissions' files, or of file-less prunable submissions: drafts, then rejected sets. */
async function prunableDocuments(
  db: Db,
  limits: PruneLimits,
  what: 'files' | 'submissions',
): Promise<{ id: string; merchant_id: string }[]> {
  const draftCutoff = before(limits.now, DOCUMENT_DRAFT_KEEP_MS);
  const rejectedCutoff = before(limits.now, limits.rejectedDocumentsKeepMs);
  const noFiles = sql<SqlBool>`not exists (select 1 from merchant_document_files f where f.submission_id = s.id)`;
  const drafts = db
    .selectFrom('merchant_document_submissions as s')
    .where('s.status', '=', 'draft')
    .where('s.created_at', '<', draftCutoff)
    .orderBy('s.created_at')
    .limit(limits.batchSize);
  // Rejected merchants are few: found by the onboarding status index, then their submissions by merchant.
  const rejected = db
    .selectFrom('merchants as m')
    .innerJoin('merchant_document_submissions as s', 's.merchant_id', 'm.id')
    .where('m.onboarding_status', '=', 'rejected')
    .where('m.onboarding_updated_at', '<', rejectedCutoff)
    .where('s.status', '=', 'submitted')
    .orderBy('m.onboarding_updated_at')
    .limit(limits.batchSize);
  const rows =
    what === 'files'
      ? [
          ...(await drafts
            .innerJoin('merchant_document_files as f', 'f.submission_id', 's.id')
            .select(['f.id', 'f.merchant_id'])
            .execute()),
          ...(await rejected
            .innerJoin('merchant_document_files as f', 'f.submission_id', 's.id')
            .select(['f.id', 'f.merchant_id'])
            .execute()),
        ]
      : [
          ...(await drafts.select(['s.id', 's.merchant_id']).where(noFiles).execute()),
          ...(await rejected.select(['s.id', 's.merchant_id']).where(noFiles).execute()),
        ];
  return rows.slice(0, limits.batchSize);
}

const documentFiles: Pruner = async (db, limits) => {
  const candidates = await prunableDocuments(db, limits, 'files');
  if (candidates.length === 0) return { deleted: 0 };
  const ids = candidates.map((c) => c.id);
  const result = await db
    .deleteFrom('merchant_document_files')
    .where('id', 'in', ids)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('merchant_document_submissions as s')
          .select('s.id')
          .whereRef('s.id', '=', 'merchant_document_files.submission_id')
          .where(submissionPrunable('s', limits)),
      ),
    )
    .executeTakeFirst();
  // The rows the second check kept are still there; the others' files go.
  const kept = new Set(
    (await db.selectFrom('merchant_document_files').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
  );
  return { deleted: Number(result.numDeletedRows), files: candidates.filter((c) => !kept.has(c.id)) };
};

const documentSubmissions: Pruner = async (db, limits) => {
  const candidates = await prunableDocuments(db, limits, 'submissions');
  if (candidates.length === 0) return { deleted: 0 };
  return counted(
    await db
      .deleteFrom('merchant_document_submissions')
      .where(
        'id',
        'in',
        candidates.map((c) => c.id),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('merchant_document_files as f')
              .select('f.id')
              .whereRef('f.submission_id', '=', 'merchant_document_submissions.id'),
          ),
        ),
      )
      .where(submissionPrunable('merchant_document_submissions', limits))
      .executeTakeFirst(),
  );
};

/** One batch of each pruned table's rule; the type makes every pruned table have one. */
export const PRUNERS: Record<PrunedTable, Pruner> = {
  idempotency_keys: idempotencyKeys,
  webhook_attempts: webhookAttempts,
  events,
  user_sessions: userSessions,
  user_email_tokens: expiredTokens('user_email_tokens'),
  user_sign_in_challenges: expiredTokens('user_sign_in_challenges'),
  rate_limit_counters: rateLimitCounters,
  merchant_document_files: documentFiles,
  merchant_document_submissions: documentSubmissions,
};
