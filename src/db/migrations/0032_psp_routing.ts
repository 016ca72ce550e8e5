import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Several PSPs behind every payment (docs/psps/routing.md). Run as MIGRATE_DATABASE_URL's user; the
// app's user reads and writes these rows with its row rights only (a health row is inserted by the
// first worker that reports on its terminal).
export async function up(db: Kysely<unknown>): Promise<void> {
  // The operator's route of a merchant's payments in a mode: the PSP terminals in order (position, the
  // entry's place; priority, lower first, entries of one priority sharing it by weight), each for amounts
  // within its range (null: no bound).
  await db.schema
    .createTable('psp_routes')
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('psp', 'varchar(16)', (c) => c.notNull())
    .addColumn('terminal_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addColumn('min_amount', 'bigint')
    .addColumn('max_amount', 'bigint')
    .addColumn('updated_at', sql`datetime(3)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('psp_routes_pk', ['merchant_id', 'mode', 'position'])
    .execute();
  // One circuit breaker per PSP terminal, shared by every worker and API: changed only by single
  // statements or in a transaction holding the row (src/adapters/psp/health.ts).
  await db.schema
    .createTable('psp_health')
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('psp', 'varchar(16)', (c) => c.notNull())
    .addColumn('terminal_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('closed'))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('window_started_at', sql`datetime(3)`)
    .addColumn('opened_at', sql`datetime(3)`)
    .addColumn('probe_started_at', sql`datetime(3)`)
    .addColumn('last_failure', 'varchar(255)')
    .addColumn('updated_at', sql`datetime(3)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('psp_health_pk', ['mode', 'psp', 'terminal_id'])
    .execute();
  // Which PSP and terminal took the payment (gave it its token); null until then, and on every
  // payment made before this column: those all went to SEP.
  await db.schema
    .alterTable('payments')
    .addColumn('psp', 'varchar(16)')
    .addColumn('psp_terminal_id', 'varchar(64)')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('psp_terminal_id').dropColumn('psp').execute();
  await db.schema.dropTable('psp_health').execute();
  await db.schema.dropTable('psp_routes').execute();
}
