import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The in-worker sandbox bank's ledger is gone: the bank behind payments is a
// separate service (the bank simulator in test mode, a PSP in live mode) that
// keeps its own ledger (docs/BANK.md). Its rows described money that never
// moved (test payments only).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bank_operations').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_operations')
    .addColumn('id', 'bigint', (c) => c.primaryKey().autoIncrement())
    .addColumn('payment_id', 'char(36)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('operation_key', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reference_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('rrn', 'char(12)', (c) => c.notNull())
    .addColumn('card_pan', 'varchar(19)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_operations_payment').on('bank_operations').column('payment_id').execute();
}
