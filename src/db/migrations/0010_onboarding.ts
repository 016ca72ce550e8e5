import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The onboarding workflow's record of each merchant (docs/DASHBOARD.md#onboarding), written only forward (by version).
  await db.schema
    .alterTable('merchants')
    .addColumn('onboarding_status', 'varchar(24)', (c) => c.notNull().defaultTo('account_created'))
    .addColumn('onboarding_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('rejection_reason', 'varchar(2000)')
    .addColumn('onboarding_updated_at', sql`datetime(3)`)
    .execute();
  // Merchants onboarded before the workflow: the status their record implies (a workflow started for them later starts here).
  await sql`
    UPDATE merchants SET onboarding_status = CASE
      WHEN live_mode THEN 'live'
      WHEN gateway_status = 'approved' THEN 'approved'
      WHEN gateway_status = 'requested' THEN 'under_review'
      WHEN EXISTS (SELECT 1 FROM merchant_domains d WHERE d.merchant_id = merchants.id) THEN 'domain_added'
      ELSE 'account_created' END`.execute(db);
  await db.schema
    .createIndex('merchants_onboarding_status')
    .on('merchants')
    .columns(['onboarding_status', 'onboarding_updated_at'])
    .execute();

  // One row per recorded onboarding step and per operator reminder; the id is derived from its cause (merchant, version or round).
  await db.schema
    .createTable('onboarding_events')
    .addColumn('id', 'varchar(80)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(24)', (c) => c.notNull())
    .addColumn('reason', 'varchar(2000)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('onboarding_events_merchant')
    .on('onboarding_events')
    .columns(['merchant_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('onboarding_events_type')
    .on('onboarding_events')
    .columns(['type', 'created_at'])
    .execute();

  // Each time the merchant sends the business documents: a draft until the workflow accepts it.
  await db.schema
    .createTable('merchant_document_submissions')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('legal_name', 'varchar(800)', (c) => c.notNull())
    .addColumn('id_kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('national_id', 'varchar(11)', (c) => c.notNull())
    .addColumn('iban', 'char(26)', (c) => c.notNull())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('submitted_at', sql`datetime(3)`)
    .execute();
  await db.schema
    .createIndex('merchant_document_submissions_merchant')
    .on('merchant_document_submissions')
    .columns(['merchant_id', 'created_at'])
    .execute();

  // The uploaded files: their bytes live in DOCUMENTS_DIR under <merchant id>/<file id>, never under anything served.
  await db.schema
    .createTable('merchant_document_files')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('submission_id', 'char(36)', (c) => c.notNull().references('merchant_document_submissions.id'))
    .addColumn('original_name', 'varchar(1020)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', sql`binary(32)`, (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('merchant_document_files_merchant')
    .on('merchant_document_files')
    .columns(['merchant_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merchant_document_files').execute();
  await db.schema.dropTable('merchant_document_submissions').execute();
  await db.schema.dropTable('onboarding_events').execute();
  await db.schema.dropIndex('merchants_onboarding_status').on('merchants').execute();
  await db.schema
    .alterTable('merchants')
    .dropColumn('onboarding_status')
    .dropColumn('onboarding_version')
    .dropColumn('rejection_reason')
    .dropColumn('onboarding_updated_at')
    .execute();
}
