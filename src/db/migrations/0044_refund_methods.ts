import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// How each refund reaches the customer (docs/PAYMENTS.md#how-a-refund-is-paid-out): the PSP's refund
// operation (every refund before this migration), a reversal of the whole payment, or a bank transfer
// to the Sheba IBAN the merchant gave, kept on the row so a refund resumed by a later run is paid
// the same way.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('refunds')
    .addColumn('method', 'varchar(16)', (c) => c.notNull().defaultTo('psp_refund'))
    .addColumn('destination_iban', 'varchar(26)')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refunds').dropColumn('destination_iban').dropColumn('method').execute();
}
