import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Direct debit (docs/SUBSCRIPTIONS.md): a customer's mandate at a provider, its debits, and what each
// of its periods has used. The limits are the database's to keep (docs/SUBSCRIPTIONS.md#limits): a
// debit is one row per mandate and idempotency key (unique), and each Tehran day's and month's count
// is a row whose `used` a CHECK holds to its `max`, raised by one conditional statement per debit, so
// concurrent debits can never cross a limit together.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mandates')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('mobile', 'varchar(11)', (c) => c.notNull())
    .addColumn('national_code', 'varchar(10)')
    .addColumn('max_amount', 'bigint', (c) => c.notNull())
    .addColumn('max_daily_count', 'integer', (c) => c.notNull())
    .addColumn('max_monthly_count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('return_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('merchant_reference', 'varchar(255)', (c) => c.notNull())
    .addColumn('provider_authority', 'varchar(64)')
    // The provider's signature, sealed (src/accounts/secret-box.ts): never returned, never logged.
    .addColumn('signature_sealed', 'text')
    .addColumn('failure_code', 'varchar(64)')
    // Raised by the conditional UPDATE that admits each debit (src/db/mandates.ts): a count of requests admitted.
    .addColumn('debits_admitted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('activated_at', sql`datetime(3)`)
    .addColumn('ended_at', sql`datetime(3)`)
    .addCheckConstraint(
      'mandates_positive_limits',
      sql`max_amount > 0 AND max_daily_count > 0 AND max_monthly_count > 0`,
    )
    .execute();
  await db.schema
    .createIndex('mandates_list')
    .on('mandates')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('mandate_debits')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('mandate_id', 'char(36)', (c) => c.notNull().references('mandates.id'))
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull())
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('merchant_reference', 'varchar(255)', (c) => c.notNull())
    .addColumn('payment_id', 'char(36)', (c) => c.notNull().unique())
    // The Tehran day (YYYY-MM-DD) and month (YYYY-MM) whose counts it took.
    .addColumn('day', 'char(10)', (c) => c.notNull())
    .addColumn('month', 'char(7)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addUniqueConstraint('mandate_debits_one_per_key', ['mandate_id', 'idempotency_key'])
    .addCheckConstraint('mandate_debits_positive_amount', sql`amount > 0`)
    .execute();
  await db.schema
    .createTable('mandate_usage')
    .addColumn('mandate_id', 'char(36)', (c) => c.notNull().references('mandates.id'))
    // `d:YYYY-MM-DD` or `m:YYYY-MM`, Tehran's calendar.
    .addColumn('period', 'varchar(12)', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('mandate_usage_pk', ['mandate_id', 'period'])
    .addCheckConstraint('mandate_usage_within_max', sql`used >= 0 AND used <= max`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mandate_usage').execute();
  await db.schema.dropTable('mandate_debits').execute();
  await db.schema.dropTable('mandates').execute();
}
