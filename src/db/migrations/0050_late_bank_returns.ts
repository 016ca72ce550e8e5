import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// A paid return that came for a payment already ended (canceled, expired, failed): the sale it named was
// confirmed at the PSP and reversed there through the sale's claim (docs/BANK.md#a-paid-return-for-an-ended-payment),
// one row per payment and reference, written by the workflow that did it. `outcome`: reversed, the PSP
// refused the reversal (money held at the PSP: `cli stuck` lists it), not reversed (the sale is another
// payment's), nothing confirmed, or left to the PSP (a PSP that verifies only at the merchant's verify,
// Sadad: nothing was captured, and it gives back by itself what nobody verifies).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE late_bank_returns (
      payment_id char(36) NOT NULL,
      reference_id varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
      mode varchar(4) NOT NULL,
      psp varchar(32) NOT NULL,
      payment_status varchar(16) NOT NULL,
      outcome varchar(32) NOT NULL,
      recorded_at datetime(3) NOT NULL,
      PRIMARY KEY (payment_id, reference_id),
      KEY late_bank_returns_by_outcome (outcome, recorded_at)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('late_bank_returns').execute();
}
