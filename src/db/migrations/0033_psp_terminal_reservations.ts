import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// A PSP terminal reserved for named merchants (docs/psps/routing.md#terminals-reserved-for-some-merchants):
// an acquirer's terminal granted for those merchants only. One row per merchant the terminal is
// reserved for; a terminal without rows is anyone's. Written by `cli routing restrict`, read by the
// route planning.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('psp_terminal_reservations')
    .addColumn('psp', 'varchar(16)', (c) => c.notNull())
    .addColumn('terminal_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('updated_at', sql`datetime(3)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('psp_terminal_reservations_pk', ['psp', 'terminal_id', 'merchant_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('psp_terminal_reservations').execute();
}
