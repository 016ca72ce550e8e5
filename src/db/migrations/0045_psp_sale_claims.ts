import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// One PSP sale belongs to one payment (docs/SECURITY.md#invariants-between-payments-and-requests). A
// sale is its PSP terminal's reference (SEP's RefNum, Behpardakht's SaleReferenceId, …) in a mode; the
// bank activity claims it for the payment whose return confirmed it before that payment may answer
// `confirmed`, by inserting this row: the primary key decides between two payments presenting the same
// sale at the same instant, never a read before a write. The reference compares exactly (a Base64
// RefNum is case-sensitive). The masked card and the keyed hash of the PSP's hash of the card are what
// the PSP said of the card that paid, kept for a refund to that card's account (docs/PAYMENTS.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE psp_sale_claims (
      mode varchar(4) NOT NULL,
      psp varchar(32) NOT NULL,
      terminal_id varchar(64) NOT NULL,
      reference_id varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
      payment_id char(36) NOT NULL,
      card_pan varchar(32) NULL,
      card_hash char(64) NULL,
      claimed_at datetime(3) NOT NULL,
      PRIMARY KEY (mode, psp, terminal_id, reference_id),
      KEY psp_sale_claims_by_payment (payment_id)
    )`.execute(db);
  // The sales payments recorded before the claims existed, the first payment of a reference keeping it
  // (a payment older than routing names no PSP, SEP's, nor terminal: '').
  await sql`
    INSERT IGNORE INTO psp_sale_claims (mode, psp, terminal_id, reference_id, payment_id, card_pan, card_hash, claimed_at)
    SELECT mode, COALESCE(psp, 'sep'), COALESCE(psp_terminal_id, ''), reference_id, id, card_pan, NULL,
           COALESCE(paid_at, updated_at, created_at)
    FROM payments
    WHERE reference_id IS NOT NULL
    ORDER BY COALESCE(paid_at, updated_at, created_at), id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('psp_sale_claims').execute();
}
