import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The retention workflow (src/db/retention.ts) reads each pruned table's oldest rows by the column its
// age is measured from: these indexes make every such read a range scan of the rows past their period.
// The other pruned tables had theirs already (idempotency_keys_expiry, events_by_age,
// rate_limit_counters_window, merchants_onboarding_status).
const INDEXES = [
  { name: 'webhook_attempts_by_age', table: 'webhook_attempts', columns: ['attempted_at'] },
  { name: 'user_sessions_by_expiry', table: 'user_sessions', columns: ['expires_at'] },
  { name: 'user_sessions_by_last_seen', table: 'user_sessions', columns: ['last_seen_at'] },
  { name: 'user_email_tokens_by_expiry', table: 'user_email_tokens', columns: ['expires_at'] },
  { name: 'user_sign_in_challenges_by_expiry', table: 'user_sign_in_challenges', columns: ['expires_at'] },
  {
    name: 'merchant_document_submissions_by_status',
    table: 'merchant_document_submissions',
    columns: ['status', 'created_at'],
  },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of INDEXES)
    await db.schema
      .createIndex(index.name)
      .on(index.table)
      .columns([...index.columns])
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [...INDEXES].reverse()) await db.schema.dropIndex(index.name).on(index.table).execute();
}
