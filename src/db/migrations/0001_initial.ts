import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('gateway_status', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
    .addColumn('live_mode', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('fee_bps', 'integer', (c) => c.notNull())
    .addColumn('fee_min', 'bigint', (c) => c.notNull())
    .addColumn('fee_max', 'bigint', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('merchant_domains')
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('merchant_domains_pk', ['merchant_id', 'domain'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('key_hash', sql`binary(32)`, (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('revoked_at', sql`datetime(3)`)
    .addColumn('expires_at', sql`datetime(3)`)
    .addColumn('last_used_at', sql`datetime(3)`)
    .execute();
  await db.schema.createIndex('api_keys_merchant').on('api_keys').columns(['merchant_id', 'mode']).execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(24)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refunded_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'char(3)', (c) => c.notNull())
    .addColumn('merchant_reference', 'varchar(64)', (c) => c.notNull())
    .addColumn('tracking_code', 'char(12)', (c) => c.notNull().unique())
    .addColumn('reference_id', 'varchar(32)')
    .addColumn('rrn', 'char(12)')
    .addColumn('card_pan', 'varchar(19)')
    .addColumn('description', 'varchar(255)', (c) => c.notNull())
    .addColumn('mobile', 'char(11)')
    .addColumn('callback_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('failure_code', 'varchar(64)')
    .addColumn('failure_message', 'varchar(255)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('paid_at', sql`datetime(3)`)
    .addColumn('verified_at', sql`datetime(3)`)
    .addColumn('verify_deadline_at', sql`datetime(3)`)
    .addColumn('expires_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('settlement_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payments_list')
    .on('payments')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('payments_by_reference')
    .on('payments')
    .columns(['merchant_id', 'mode', 'merchant_reference'])
    .execute();
  await db.schema
    .createIndex('payments_by_status')
    .on('payments')
    .columns(['merchant_id', 'mode', 'status', 'created_at'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull())
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('operation', 'varchar(64)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('request_hash', 'char(64)', (c) => c.notNull())
    .addColumn('resource_id', 'char(36)', (c) => c.notNull())
    .addColumn('locked_until', sql`datetime(3)`)
    .addColumn('response_status', 'integer')
    .addColumn('response_body', sql`mediumtext`)
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('expires_at', sql`datetime(3)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['merchant_id', 'mode', 'operation', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();

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

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'bank_operations',
    'idempotency_keys',
    'payments',
    'api_keys',
    'merchant_domains',
    'merchants',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
