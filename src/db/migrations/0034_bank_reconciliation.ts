import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Bank reconciliation (docs/psps/README.md#bank-reconciliation): each run of a PSP terminal's day and
// its items. Append-only: a later run of the same day (the bank corrected its report) is a new run,
// and the newest run of a day is what stands.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_reconciliation_runs')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('psp', 'varchar(16)', (c) => c.notNull())
    .addColumn('terminal_id', 'varchar(64)', (c) => c.notNull())
    // The Tehran calendar day, YYYY-MM-DD.
    .addColumn('day', 'char(10)', (c) => c.notNull())
    // Where the bank's report came from: asked of the PSP (`psp`) or a file an operator imported (`file`).
    .addColumn('source', 'varchar(8)', (c) => c.notNull())
    // SHA-256 of the items: the same report against the same records makes no second run.
    .addColumn('digest', 'char(64)', (c) => c.notNull())
    .addColumn('matched', 'integer', (c) => c.notNull())
    .addColumn('bank_only', 'integer', (c) => c.notNull())
    .addColumn('gateway_only', 'integer', (c) => c.notNull())
    .addColumn('amount_mismatch', 'integer', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bank_reconciliation_runs_by_day')
    .on('bank_reconciliation_runs')
    .columns(['mode', 'psp', 'terminal_id', 'day', 'created_at'])
    .execute();
  await db.schema
    .createIndex('bank_reconciliation_runs_by_age')
    .on('bank_reconciliation_runs')
    .column('created_at')
    .execute();
  await db.schema
    .createTable('bank_reconciliation_items')
    .addColumn('run_id', 'char(36)', (c) => c.notNull().references('bank_reconciliation_runs.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('payment_id', 'char(36)')
    .addColumn('order_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('ref_num', 'varchar(64)')
    .addColumn('bank_amount', 'bigint')
    .addColumn('gateway_amount', 'bigint')
    // Masked only (603799******1234).
    .addColumn('card_pan', 'varchar(32)')
    .addPrimaryKeyConstraint('bank_reconciliation_items_pk', ['run_id', 'position'])
    .execute();
  await db.schema
    .createIndex('bank_reconciliation_items_by_payment')
    .on('bank_reconciliation_items')
    .columns(['payment_id', 'kind'])
    .execute();
  // The gateway's side of a run: a terminal's payments by the time the bank confirmed them.
  await db.schema
    .createIndex('payments_by_terminal_paid_at')
    .on('payments')
    .columns(['psp_terminal_id', 'paid_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_by_terminal_paid_at').on('payments').execute();
  await db.schema.dropTable('bank_reconciliation_items').execute();
  await db.schema.dropTable('bank_reconciliation_runs').execute();
}
