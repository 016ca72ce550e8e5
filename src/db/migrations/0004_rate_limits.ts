import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per (limit bucket, fixed window): every API process counts in the same row.
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('bucket', 'varchar(100)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull().unsigned())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['bucket', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_limit_counters_window').on('rate_limit_counters').column('window_start').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_counters').execute();
}
