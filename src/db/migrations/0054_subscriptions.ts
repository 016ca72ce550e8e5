import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Plans and subscriptions of direct debit (docs/SUBSCRIPTIONS.md#subscriptions). A plan is an amount
// and an interval (a CHECK holds `interval_days` to the `days` interval); a subscription charges its
// plan on one mandate, each period by a debit. Its row is written only by its workflow, versioned as a
// payment's is (a write carries the version it makes and lands only over a lower one), so a retried
// or late activity never moves it backwards.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('interval', 'varchar(8)', (c) => c.notNull())
    .addColumn('interval_days', 'integer')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addCheckConstraint('plans_positive_amount', sql`amount > 0`)
    .addCheckConstraint(
      'plans_interval_days',
      sql`(\`interval\` = 'days' AND interval_days BETWEEN 1 AND 366) OR
          (\`interval\` IN ('week', 'month', 'year') AND interval_days IS NULL)`,
    )
    .execute();
  await db.schema.createIndex('plans_list').on('plans').columns(['merchant_id', 'mode', 'created_at', 'id']).execute();
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('plan_id', 'char(36)', (c) => c.notNull().references('plans.id'))
    .addColumn('mandate_id', 'char(36)', (c) => c.notNull().references('mandates.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    // Period 0 starts here; every period's start is computed from it (src/domain/subscription.ts).
    .addColumn('anchor_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('current_period', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('current_period_start', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('current_period_end', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_payment_id', 'char(36)')
    .addColumn('cancel_reason', 'varchar(32)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('canceled_at', sql`datetime(3)`)
    .addCheckConstraint('subscriptions_positive_amount', sql`amount > 0`)
    .execute();
  await db.schema
    .createIndex('subscriptions_list')
    .on('subscriptions')
    .columns(['merchant_id', 'mode', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('subscriptions').execute();
  await db.schema.dropTable('plans').execute();
}
