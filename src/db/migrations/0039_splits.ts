import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Split settlement, تسهیم (docs/PAYMENTS.md#split-settlement, docs/LEDGER.md#split-settlement).
export async function up(db: Kysely<unknown>): Promise<void> {
  // The IBANs a merchant may split payments to: registered by the merchant (`pending`), reviewed by the
  // operator (`approved` or `rejected`, with a reason). Shaparak pays only registered accounts. Not per
  // mode: a test payment splits to the same approved accounts as a live one, so the rule is the same.
  await db.schema
    .createTable('beneficiaries')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('iban', 'varchar(26)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(255)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('reviewed_at', sql`datetime(3)`)
    .addUniqueConstraint('beneficiaries_merchant_iban', ['merchant_id', 'iban'])
    .execute();
  await db.schema
    .createIndex('beneficiaries_by_status')
    .on('beneficiaries')
    .columns(['status', 'created_at'])
    .execute();

  // A payment's shares for its beneficiaries, fixed at create. `settled_in`: the settlement that paid it out.
  await db.schema
    .createTable('payment_splits')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('payment_id', 'char(36)', (c) => c.notNull().references('payments.id'))
    .addColumn('beneficiary_id', 'char(36)', (c) => c.notNull().references('beneficiaries.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull())
    .addColumn('refunded', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('settled_in', 'char(36)')
    .addUniqueConstraint('payment_splits_position', ['payment_id', 'position'])
    .addCheckConstraint('payment_splits_amount_positive', sql`amount > 0 and refunded >= 0 and refunded <= amount`)
    .execute();
  await db.schema
    .createIndex('payment_splits_by_settlement')
    .on('payment_splits')
    .columns(['settled_in', 'beneficiary_id'])
    .execute();

  // What each refund of a split payment took from each share (docs/LEDGER.md#refunds-of-a-split-payment):
  // a refused refund gives it back to the same shares (those not paid out yet).
  await db.schema
    .createTable('refund_split_allocations')
    .addColumn('refund_id', 'char(36)', (c) => c.notNull())
    .addColumn('split_id', 'char(36)', (c) => c.notNull().references('payment_splits.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('refund_split_allocations_pk', ['refund_id', 'split_id'])
    .addCheckConstraint('refund_split_allocations_positive', sql`amount > 0`)
    .execute();

  // One transfer per settlement and beneficiary: the sum of that beneficiary's shares the settlement covers.
  await db.schema
    .createTable('beneficiary_payouts')
    .addColumn('settlement_id', 'char(36)', (c) => c.notNull().references('settlements.id'))
    .addColumn('beneficiary_id', 'char(36)', (c) => c.notNull().references('beneficiaries.id'))
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull())
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('iban', 'varchar(26)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('bank_reference', 'varchar(64)')
    .addColumn('failure_code', 'varchar(64)')
    .addColumn('failure_message', 'varchar(255)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('updated_at', sql`datetime(3)`, (c) => c.notNull())
    .addPrimaryKeyConstraint('beneficiary_payouts_pk', ['settlement_id', 'beneficiary_id'])
    .addCheckConstraint('beneficiary_payouts_amount_positive', sql`amount > 0`)
    .execute();

  // A settlement now also carries the beneficiaries' shares it pays; the merchant's own net may be 0
  // when the shares took all of it (the beneficiaries are still paid).
  await db.schema
    .alterTable('settlements')
    .addColumn('splits', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // A split line names the beneficiary's IBAN its share is paid to.
  await db.schema.alterTable('settlement_lines').addColumn('iban', 'varchar(26)').execute();
  await sql`ALTER TABLE settlements DROP CONSTRAINT settlements_net_positive`.execute(db);
  await sql`ALTER TABLE settlements ADD CONSTRAINT settlements_pays_something CHECK (net >= 0 AND net + splits > 0)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE settlements DROP CONSTRAINT settlements_pays_something`.execute(db);
  await sql`ALTER TABLE settlements ADD CONSTRAINT settlements_net_positive CHECK (net > 0)`.execute(db);
  await db.schema.alterTable('settlement_lines').dropColumn('iban').execute();
  await db.schema.alterTable('settlements').dropColumn('splits').execute();
  await db.schema.dropTable('beneficiary_payouts').ifExists().execute();
  await db.schema.dropTable('refund_split_allocations').ifExists().execute();
  await db.schema.dropTable('payment_splits').ifExists().execute();
  await db.schema.dropTable('beneficiaries').ifExists().execute();
}
