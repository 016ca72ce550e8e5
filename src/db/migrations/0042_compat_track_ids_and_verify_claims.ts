import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The compatible protocols, hardened (docs/COMPAT.md, docs/SECURITY.md):
// - `zibal_track_id`: Zibal's trackId of a payment its /v1/request made, sixteen random digits, the
//   only thing GET /start/{trackId} resolves (the twelve-digit tracking code of any payment did, so
//   anyone could walk them). Zibal payments made before keep their tracking code as trackId, which
//   their merchants already hold.
// - `compat_verify_answered_at`: set by the one verify on ZarinPal's or Zibal's protocol that answers
//   the capture (100); every other verify of the payment answers "verified before" (101/201).
// - `payments_by_link_status`: a payment link's places and open payments are counted from its
//   payments by status (docs/PAYMENTS.md#payment-links), from this index alone.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('zibal_track_id', 'char(16)').execute();
  await db.schema.createIndex('payments_zibal_track_id').on('payments').column('zibal_track_id').unique().execute();
  await sql`UPDATE payments SET zibal_track_id = tracking_code WHERE created_via = 'zibal'`.execute(db);
  await db.schema
    .alterTable('payments')
    .addColumn('compat_verify_answered_at', sql`datetime(3)`)
    .execute();
  await db.schema
    .createIndex('payments_by_link_status')
    .on('payments')
    .columns(['payment_link_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_by_link_status').on('payments').execute();
  await db.schema.alterTable('payments').dropColumn('compat_verify_answered_at').execute();
  await db.schema.dropIndex('payments_zibal_track_id').on('payments').execute();
  await db.schema.alterTable('payments').dropColumn('zibal_track_id').execute();
}
