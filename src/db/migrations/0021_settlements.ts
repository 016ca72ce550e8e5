import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Where a merchant's settlements are paid: a Sheba IBAN (IR + 24 digits), checked with mod 97 when set.
  await db.schema.alterTable('merchants').addColumn('settlement_iban', 'varchar(26)').execute();
  // Live payments that ended without money before settlement existed are never settled.
  await sql`UPDATE payments SET settlement_status = 'not_applicable' WHERE mode = 'live' AND status IN ('failed', 'canceled', 'expired', 'reversed')`.execute(
    db,
  );

  await db.schema
    .createTable('settlements')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    // `pending` (the payout is under way), then `paid` or `failed`; `failed` goes back to `pending` only by the operator's retry.
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('gross', 'bigint', (c) => c.notNull())
    .addColumn('fees', 'bigint', (c) => c.notNull())
    .addColumn('refunds', 'bigint', (c) => c.notNull())
    .addColumn('net', 'bigint', (c) => c.notNull())
    .addColumn('payment_count', 'integer', (c) => c.notNull())
    .addColumn('refund_count', 'integer', (c) => c.notNull())
    .addColumn('cutoff_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('iban', 'varchar(26)', (c) => c.notNull())
    .addColumn('payout_attempt', 'integer', (c) => c.notNull())
    .addColumn('bank_reference', 'varchar(64)')
    .addColumn('failure_code', 'varchar(64)')
    .addColumn('failure_message', 'varchar(255)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('paid_at', sql`datetime(3)`)
    .addColumn('failed_at', sql`datetime(3)`)
    .addColumn('updated_at', sql`datetime(3)`, (c) => c.notNull())
    .addCheckConstraint('settlements_net_positive', sql`net > 0`)
    .execute();
  await db.schema
    .createIndex('settlements_list')
    .on('settlements')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('settlements_by_status')
    .on('settlements')
    .columns(['merchant_id', 'mode', 'status', 'created_at'])
    .execute();

  // What a settlement covers: a payment (its amount and fee), a refund (its amount, negative) or a failed
  // refund's return (positive). The key makes each thing covered by one settlement only.
  await db.schema
    .createTable('settlement_lines')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('object_id', 'char(36)', (c) => c.notNull())
    .addColumn('settlement_id', 'char(36)', (c) => c.notNull().references('settlements.id'))
    .addColumn('payment_id', 'char(36)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('settlement_lines_pk', ['kind', 'object_id'])
    .execute();
  await db.schema
    .createIndex('settlement_lines_settlement')
    .on('settlement_lines')
    .columns(['settlement_id', 'kind', 'object_id'])
    .execute();
  // Finding the payments a settlement may cover: live, verified before the cutoff, not yet settled.
  await db.schema
    .createIndex('payments_settleable')
    .on('payments')
    .columns(['merchant_id', 'mode', 'settlement_status', 'verified_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_settleable').on('payments').execute();
  await db.schema.dropTable('settlement_lines').ifExists().execute();
  await db.schema.dropTable('settlements').ifExists().execute();
  await db.schema.alterTable('merchants').dropColumn('settlement_iban').execute();
}
