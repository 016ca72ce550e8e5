import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    // JSON array of event types; NULL subscribes to every type, future ones included.
    .addColumn('events', sql`text`)
    // In clear: HMAC signing needs the secret itself (see src/webhooks/signing.ts).
    .addColumn('secret', 'varchar(100)', (c) => c.notNull())
    .addColumn('previous_secret', 'varchar(100)')
    .addColumn('previous_secret_expires_at', sql`datetime(3)`)
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('enabled'))
    .addColumn('disabled_reason', 'varchar(255)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('deleted_at', sql`datetime(3)`)
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_list')
    .on('webhook_endpoints')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    // The id of the object the event is about (a payment or a refund).
    .addColumn('object_id', 'char(36)', (c) => c.notNull())
    // The JSON body exactly as every delivery sends it.
    .addColumn('body', sql`mediumtext`, (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_list')
    .on('events')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('events_by_type')
    .on('events')
    .columns(['merchant_id', 'mode', 'type', 'created_at'])
    .execute();
  await db.schema.createIndex('events_by_object').on('events').column('object_id').execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().autoIncrement())
    .addColumn('event_id', 'varchar(40)', (c) => c.notNull().references('events.id'))
    .addColumn('endpoint_id', 'char(36)', (c) => c.notNull().references('webhook_endpoints.id'))
    // The delivery (Temporal workflow) the attempt belongs to: the first delivery or a redelivery.
    .addColumn('delivery_id', 'varchar(160)', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'varchar(255)')
    .addColumn('succeeded', 'boolean', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_event')
    .on('webhook_attempts')
    .columns(['event_id', 'attempted_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_attempts', 'events', 'webhook_endpoints']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
