import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Payment links (docs/PAYMENTS.md#payment-links): a merchant's page at /l/{slug} that starts payments
// the gateway verifies itself. `payments_count` is raised by one, below `max_payments`, by the one
// UPDATE that reserves each payment's place, so concurrent customers never take more places than
// there are. A payment started on a link names it in `payments.payment_link_id`.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('slug', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull())
    .addColumn('amount', 'bigint')
    .addColumn('min_amount', 'bigint')
    .addColumn('max_amount', 'bigint')
    .addColumn('collect', 'varchar(200)', (c) => c.notNull())
    .addColumn('expires_at', sql`datetime(3)`)
    .addColumn('max_payments', 'integer')
    .addColumn('payments_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addCheckConstraint(
      'payment_links_amount_or_range',
      sql`(amount IS NOT NULL AND min_amount IS NULL AND max_amount IS NULL) OR (amount IS NULL AND min_amount IS NOT NULL AND max_amount IS NOT NULL AND min_amount <= max_amount)`,
    )
    .addCheckConstraint('payment_links_count_within_max', sql`max_payments IS NULL OR payments_count <= max_payments`)
    .execute();
  await db.schema
    .createIndex('payment_links_list')
    .on('payment_links')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema.alterTable('payments').addColumn('payment_link_id', 'char(36)').execute();
  await db.schema.createIndex('payments_by_link').on('payments').columns(['payment_link_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_by_link').on('payments').execute();
  await db.schema.alterTable('payments').dropColumn('payment_link_id').execute();
  await db.schema.dropTable('payment_links').execute();
}
