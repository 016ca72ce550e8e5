import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// A payment's charged sum stored as itself (docs/PAYMENTS.md#how-the-record-keeps-the-charged-sum), the
// first release of an expand-and-contract change. Until now the record kept only its inverse,
// `customer_fee`, and every reader added `amount` back. This adds `charged_amount`, nullable: replicas
// of the previous release go on inserting rows without it until the rolling update has replaced them,
// and this release's readers take amount + customer_fee for such a row. Two CHECKs come with it, in
// the same statement (one table copy: adding a CHECK is not done in place by MySQL 8 nor MariaDB 10.11,
// and writes to payments wait for it, as they did for 0036's): where the column is set it is amount +
// customer_fee, so the two can never disagree while both are written, and no more is refunded than it.
// Then every existing row is filled in, in short batches by primary key (backfillChargedAmount).
// The next release fills in the rows the previous release's replicas inserted meanwhile, makes the
// column NOT NULL and moves the refund bound to it.

/** Rows one backfill statement fills in at most. */
export const BACKFILL_BATCH = 1_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  // A run cut short after the ALTER (during the backfill) is run again from the backfill: the
  // statement is atomic, so the column is there with both CHECKs or not at all.
  if (!(await hasChargedAmount(db)))
    await sql`ALTER TABLE payments
      ADD COLUMN charged_amount bigint NULL,
      ADD CONSTRAINT payments_charged_is_amount_and_fee CHECK (charged_amount IS NULL OR charged_amount = amount + customer_fee),
      ADD CONSTRAINT payments_refunded_within_charged_amount CHECK (charged_amount IS NULL OR refunded_amount <= charged_amount)`.execute(
      db,
    );
  await backfillChargedAmount(db, BACKFILL_BATCH);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments
    DROP CONSTRAINT payments_refunded_within_charged_amount,
    DROP CONSTRAINT payments_charged_is_amount_and_fee,
    DROP COLUMN charged_amount`.execute(db);
}

async function hasChargedAmount(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{
    n: number | string;
  }>`SELECT COUNT(*) AS n FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'payments' AND column_name = 'charged_amount'`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

/**
 * Fills in `charged_amount` (amount + customer_fee) on every row without it, `batch` rows at a time in
 * the order of the primary key: each batch a plain read of the next ids (no lock), then one UPDATE of
 * exactly those rows by key (equality on the primary key: no gap locks, so the inserts of the API's
 * replicas go on), each statement its own transaction. Rows inserted behind the cursor meanwhile (by
 * the previous release's replicas, without the column) are left for the next release's backfill.
 * Answers the number of rows filled in.
 */
export async function backfillChargedAmount(db: Kysely<unknown>, batch: number): Promise<number> {
  let after = '';
  let filled = 0;
  for (;;) {
    const { rows } = await sql<{
      id: string;
    }>`SELECT id FROM payments WHERE id > ${after} ORDER BY id LIMIT ${batch}`.execute(db);
    if (rows.length === 0) return filled;
    const ids = rows.map((r) => r.id);
    const result = await sql`UPDATE payments SET charged_amount = amount + customer_fee
      WHERE id IN (${sql.join(ids)}) AND charged_amount IS NULL`.execute(db);
    filled += Number(result.numAffectedRows ?? 0n);
    after = ids[ids.length - 1]!;
  }
}
