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
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
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

const idempotencyKeys: Pruner = async (db, { now, batchSize }) => {
  // A key a request holds right now stays, expired or not: that request still writes its answer to it.
  const notHeld = (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]);
  const rows = await db
    .selectFrom('idempotency_keys')
    .select(['merchant_id', 'mode', 'operation', 'idempotency_key'])
    .where('expires_at', '<=', now)
    .where(notHeld)
    .orderBy('expires_at')
    .limit(batchSize)
    .execute();
  if (rows.length === 0) return { deleted: 0 };
  return counted(
    await db
      .deleteFrom('idempotency_keys')
      .where(anyOfKeys<'idempotency_keys', (typeof rows)[number]>(rows))
      .where('expires_at', '<=', now)
      .where(notHeld)
      .executeTakeFirst(),
  );
};

const webhookAttempts: Pruner = async (db, { now, batchSize, eventsKeepMs }) => {
  const cutoff = before(now, eventsKeepMs);
  const rows = await db
    .selectFrom('webhook_attempts')
    .select('id')
    .where('attempted_at', '<', cutoff)
    .orderBy('attempted_at')
    .limit(batchSize)
    .execute();
  if (rows.length === 0) return { deleted: 0 };
  return counted(
    await db
      .deleteFrom('webhook_attempts')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .executeTakeFirst(),
  );
};

const events: Pruner = async (db, { now, batchSize, eventsKeepMs }) => {
  const cutoff = before(now, eventsKeepMs);
  // An event redelivered lately still has attempts inside the period: it stays until they age out too.
  const noAttemptLeft = (eb: ExpressionBuilder<Database, 'events'>) =>
    eb.not(
      eb.exists(
        eb
          .selectFrom('webhook_attempts')
          .select('webhook_attempts.id')
          .whereRef('webhook_attempts.event_id', '=', 'events.id'),
      ),
    );
  const rows = await db
    .selectFrom('events')
    .select('id')
    .where('created_at', '<', cutoff)
    .where(noAttemptLeft)
    .orderBy('created_at')
    .limit(batchSize)
    .execute();
  if (rows.length === 0) return { deleted: 0 };
  return counted(
    await db
      .deleteFrom('events')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .where(noAttemptLeft)
      .executeTakeFirst(),
  );
};

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

function expiredTokens(table: 'user_email_tokens' | 'user_sign_in_challenges'): Pruner {
  return async (db, { now, batchSize }) => {
    const rows = await db
      .selectFrom(table)
      .select('token_hash')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return { deleted: 0 };
    return counted(
      await db
        .deleteFrom(table)
        .where(
          'token_hash',
          'in',
          rows.map((r) => r.token_hash),
        )
        .executeTakeFirst(),
    );
  };
}

const rateLimitCounters: Pruner = async (db, { now, batchSize }) => {
  const cutoff = now.getTime() - RATE_LIMIT_COUNTER_KEEP_MS;
  const rows = await db
    .selectFrom('rate_limit_counters')
    .select(['bucket', 'window_start'])
    .where('window_start', '<', cutoff)
    .orderBy('window_start')
    .limit(batchSize)
    .execute();
  if (rows.length === 0) return { deleted: 0 };
  return counted(
    await db
      .deleteFrom('rate_limit_counters')
      .where(anyOfKeys<'rate_limit_counters', (typeof rows)[number]>(rows))
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
