/**
 * Migration 0056 (docs/PAYMENTS.md#how-the-record-keeps-the-charged-sum) on a database of its own: the
 * payments a database holds before it get `charged_amount` = amount + customer_fee, in batches by
 * primary key; a row inserted without it afterwards (by a replica of the previous release during the
 * rolling update) is read with the right charged sum, by a row's reader and by the sums; the CHECKs
 * refuse a charged_amount that is not amount + customer_fee and a refund past it; a run cut short
 * during the backfill runs again; and down takes it all back.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { createDatabase, type Db, type NewPaymentRow } from '../../src/db/database.ts';
import { MIGRATIONS, migrateToLatest, recreateDatabase } from '../../src/db/migrate.ts';
import { backfillChargedAmount } from '../../src/db/migrations/0056_charged_amount.ts';
import { CHARGED_AMOUNT_SQL, paymentByIdOrThrow, paymentFromRow } from '../../src/db/payments.ts';
import { paymentRow } from '../support/merchant-export.ts';

const MIGRATION = '0056_charged_amount';

/** A row as the schema before 0056 (and the previous release's insert) has it: no charged_amount. */
function olderRow(merchantId: string, amount: number, customerFee: number, refunded = 0) {
  const { charged_amount: _, ...row } = paymentRow(merchantId, {
    status: refunded > 0 ? 'partially_refunded' : 'verified',
    amount,
    created_at: new Date(),
  });
  return {
    ...row,
    fee_payer: customerFee > 0 ? 'customer' : 'merchant',
    customer_fee: customerFee,
    refunded_amount: refunded,
  };
}

async function insertOlder(db: Db, row: ReturnType<typeof olderRow>): Promise<void> {
  await db
    .insertInto('payments')
    .values(row as unknown as NewPaymentRow)
    .execute();
}

async function chargedColumn(db: Db): Promise<Map<string, number | null>> {
  const rows = await sql<{
    id: string;
    charged_amount: number | string | null;
  }>`SELECT id, charged_amount FROM payments`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, r.charged_amount === null ? null : Number(r.charged_amount)]));
}

const refusedByCheck = (e: unknown) => /CONSTRAINT|check constraint/i.test(String((e as Error).message));

describe('migration 0056: the charged sum stored as itself', function () {
  this.timeout(120_000);
  let db: Db;
  const merchantId = randomUUID();

  before(async () => {
    const url = `${process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL}_charged`;
    await recreateDatabase(url);
    db = createDatabase(url).db;
    // The schema as the previous release left it: every migration but this one.
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name !== MIGRATION));
    await new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(before) },
      allowUnorderedMigrations: true,
    }).migrateToLatest();
    await sql`INSERT INTO merchants (id, name, fee_bps, fee_min, fee_max, created_at) VALUES (${merchantId}, 'Charged shop', 100, 1000, 400000, NOW(3))`.execute(
      db,
    );
  });

  after(async () => {
    await db.destroy();
  });

  it('fills in amount + customer_fee on every payment recorded before it, and adds the CHECKs', async () => {
    const rows = [
      olderRow(merchantId, 1_500_000, 15_000),
      olderRow(merchantId, 200_000, 0),
      olderRow(merchantId, 1_500_000, 15_000, 1_515_000),
      olderRow(merchantId, 50_000, 1_000, 20_000),
    ];
    for (const row of rows) await insertOlder(db, row);
    await migrateToLatest(db);

    const charged = await chargedColumn(db);
    for (const row of rows) assert.equal(charged.get(row.id), row.amount + row.customer_fee, row.id);
    const constraints = await sql<{
      name: string;
    }>`SELECT constraint_name AS name FROM information_schema.table_constraints WHERE table_schema = DATABASE() AND table_name = 'payments' AND constraint_type = 'CHECK'`.execute(
      db,
    );
    const names = constraints.rows.map((r) => r.name);
    for (const name of [
      'payments_charged_is_amount_and_fee',
      'payments_refunded_within_charged_amount',
      'payments_refunded_within_charged',
    ])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  });

  it('reads a row inserted without it (by the previous release) as amount + customer_fee, alone and in sums', async () => {
    // This release's insert and the previous release's, of the same customer-pays payment.
    const older = olderRow(merchantId, 3_000_000, 30_000);
    await insertOlder(db, older);
    const newer = { ...olderRow(merchantId, 3_000_000, 30_000), charged_amount: 3_030_000 };
    await db.insertInto('payments').values(newer).execute();
    assert.equal((await chargedColumn(db)).get(older.id), null);
    for (const id of [older.id, newer.id])
      assert.equal(paymentFromRow(await paymentByIdOrThrow(db, id)).charged_amount, 3_030_000, id);
    const sum = await db
      .selectFrom('payments')
      .select(sql<string>`sum(${CHARGED_AMOUNT_SQL})`.as('charged'))
      .where('id', 'in', [older.id, newer.id])
      .executeTakeFirstOrThrow();
    assert.equal(Number(sum.charged), 6_060_000);
  });

  it('refuses a charged_amount other than amount + customer_fee, and a refund past it', async () => {
    const wrong = { ...olderRow(merchantId, 100_000, 1_000), charged_amount: 100_000 };
    await assert.rejects(db.insertInto('payments').values(wrong).execute(), refusedByCheck);
    const row = { ...olderRow(merchantId, 100_000, 1_000), charged_amount: 101_000 };
    await db.insertInto('payments').values(row).execute();
    await assert.rejects(sql`UPDATE payments SET customer_fee = 2000 WHERE id = ${row.id}`.execute(db), refusedByCheck);
    await assert.rejects(
      db.updateTable('payments').set({ refunded_amount: 101_001 }).where('id', '=', row.id).execute(),
      refusedByCheck,
    );
    await db.updateTable('payments').set({ refunded_amount: 101_000 }).where('id', '=', row.id).execute();
  });

  it('backfills in batches by primary key, only rows without it, and runs again after a run cut short', async () => {
    // Rows without the column, as after a run cut short or the previous release's inserts.
    await sql`UPDATE payments SET charged_amount = NULL`.execute(db);
    for (let i = 0; i < 5; i++) await insertOlder(db, olderRow(merchantId, 10_000 * (i + 1), i * 100));
    const total = (await chargedColumn(db)).size;
    assert.equal(await backfillChargedAmount(db as never, 2), total);
    assert.equal(await backfillChargedAmount(db as never, 2), 0, 'nothing left to fill in');
    const rows = await sql<{
      n: number | string;
    }>`SELECT COUNT(*) AS n FROM payments WHERE charged_amount IS NULL OR charged_amount <> amount + customer_fee`.execute(
      db,
    );
    assert.equal(Number(rows.rows[0]!.n), 0);

    // The migration run again over a schema that has the column (the ALTER done, the backfill cut short).
    await sql`UPDATE payments SET charged_amount = NULL`.execute(db);
    await MIGRATIONS[MIGRATION]!.up(db as never);
    for (const [id, charged] of await chargedColumn(db)) assert.notEqual(charged, null, id);
  });

  it('down drops the CHECKs and the column, and up adds them back', async () => {
    const columns = async () =>
      (
        await sql<{
          name: string;
        }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'payments' AND column_name = 'charged_amount'`.execute(
          db,
        )
      ).rows.length;
    await MIGRATIONS[MIGRATION]!.down!(db as never);
    assert.equal(await columns(), 0);
    await MIGRATIONS[MIGRATION]!.up(db as never);
    assert.equal(await columns(), 1);
    const left = await sql<{
      n: number | string;
    }>`SELECT COUNT(*) AS n FROM payments WHERE charged_amount IS NULL`.execute(db);
    assert.equal(Number(left.rows[0]!.n), 0);
  });
});
