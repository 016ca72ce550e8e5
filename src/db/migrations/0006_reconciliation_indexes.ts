import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Indexes for the reconciliation filters of GET /payments and GET /refunds.
// Every one starts with (merchant_id, mode), the tenant filter of every list;
// the others these lists use exist already: payments_list (created_at range,
// the report), payments_by_status, payments_by_reference, the unique
// tracking_code, refunds_by_merchant and refunds_by_payment.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('payments_by_rrn').on('payments').columns(['merchant_id', 'mode', 'rrn']).execute();
  await db.schema
    .createIndex('payments_by_amount')
    .on('payments')
    .columns(['merchant_id', 'mode', 'amount', 'created_at'])
    .execute();
  await db.schema
    .createIndex('refunds_by_status')
    .on('refunds')
    .columns(['merchant_id', 'mode', 'status', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('refunds_by_status').on('refunds').execute();
  await db.schema.dropIndex('payments_by_amount').on('payments').execute();
  await db.schema.dropIndex('payments_by_rrn').on('payments').execute();
}
