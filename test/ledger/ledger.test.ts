/**
 * The double-entry ledger against the real stack: every money movement of a
 * payment posts balanced entries in the transaction of its record, the
 * accounts agree with the records, the server refuses to change or remove an
 * entry, and `ledger check` finds a corrupted one.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { createDatabase } from '../../src/db/database.ts';
import { accountBalances } from '../../src/db/ledger.ts';
import { createRecordActivities } from '../../activities/records.ts';
import { paymentFromRow } from '../../src/db/payments.ts';
import { MIGRATIONS, migrateToLatest, recreateDatabase } from '../../src/db/migrate.ts';
import { checkLedger } from '../../src/ledger/check.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { bankFault } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { chooseOutcome, createdPayment, paidPayment, waitForStatus } from '../support/payments.ts';
import { approveTypedIban, REFUND_IBAN, verifiedPayment, waitForRefund } from '../support/refunds.ts';

/** A payment's postings as `movement: account amount, …`, in posting order. */
async function postingsOf(paymentId: string): Promise<string[]> {
  const h = await getHarness();
  const rows = await h.db
    .selectFrom('ledger_postings as p')
    .innerJoin('ledger_entries as e', 'e.posting_id', 'p.id')
    .select(['p.id', 'p.movement', 'e.account', 'e.amount'])
    .where('p.payment_id', '=', paymentId)
    .orderBy('p.id')
    .orderBy('e.id')
    .execute();
  const byPosting = new Map<number, string[]>();
  const movement = new Map<number, string>();
  for (const r of rows) {
    movement.set(r.id, r.movement);
    byPosting.set(r.id, [...(byPosting.get(r.id) ?? []), `${r.account} ${Number(r.amount)}`]);
  }
  return [...byPosting.entries()].map(([id, lines]) => `${movement.get(id)}: ${lines.join(', ')}`);
}

describe('ledger', () => {
  afterEach(() => bankFault(null));

  it('posts each movement of a payment once, balanced, and the merchant balance is verified less fees and refunds', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    // The test merchant's default fee plan, computed here from the inputs: 1% of 1,000,000, within its bounds.
    const verified = await verifiedPayment(h.baseUrl, m.key, { amount: 1_000_000 });
    const fee = verified.fee;
    assert.ok(fee > 0);
    assert.deepEqual(await postingsOf(verified.id), [
      'capture: clearing -1000000, held 1000000',
      `verify: held -1000000, balance ${1_000_000 - fee}, fees ${fee}`,
    ]);

    // A refund that succeeds, then one the bank refuses (its amount is the merchant's again).
    const refund = await api.post<{ refund: Refund }>(`/payments/${verified.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 300_000,
    });
    assert.equal(refund.status, 201, refund.text);
    await approveTypedIban(refund.body.refund);
    await waitForRefund(h.baseUrl, m.key, refund.body.refund.id, 'succeeded');
    await bankFault({ operation: 'payout', fault: 'unknown', times: 2 });
    const refused = await api.post<{ refund: Refund }>(`/payments/${verified.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 200_000,
    });
    assert.equal(refused.status, 201, refused.text);
    await approveTypedIban(refused.body.refund);
    await waitForRefund(h.baseUrl, m.key, refused.body.refund.id, 'failed');
    assert.deepEqual((await postingsOf(verified.id)).slice(2), [
      'refund: balance -300000, refunds 300000',
      'refund_succeeded: refunds -300000, clearing 300000',
      'refund: balance -200000, refunds 200000',
      'refund_failed: refunds -200000, balance 200000',
    ]);

    // Paid then reversed by the merchant: captured and returned whole, no fee.
    const reversedPayment = await paidPayment(h.baseUrl, m.key, { amount: 500_000 });
    const reversed = await api.post<{ payment: Payment }>(`/payments/${reversedPayment.id}/reverse`);
    assert.equal(reversed.status, 200, reversed.text);
    assert.deepEqual(await postingsOf(reversedPayment.id), [
      'capture: clearing -500000, held 500000',
      'reversal: held -500000, clearing 500000',
    ]);

    // Paid, not yet verified: held for the merchant.
    const held = await paidPayment(h.baseUrl, m.key, { amount: 70_000 });
    // Declined and canceled payments move no money.
    const declined = await createdPayment(h.baseUrl, m.key, { amount: 90_000 });
    assert.equal((await chooseOutcome(h.baseUrl, declined.id, 'failure')).status, 303);
    await waitForStatus(h.baseUrl, m.key, declined.id, 'failed');
    const canceled = await createdPayment(h.baseUrl, m.key, { amount: 80_000 });
    assert.equal((await api.post(`/payments/${canceled.id}/cancel`)).status, 200);
    assert.deepEqual(await postingsOf(declined.id), []);
    assert.deepEqual(await postingsOf(canceled.id), []);

    // The merchant's accounts, from the inputs: verified 1,000,000 less its fee and the 300,000 refunded; 70,000 held.
    const balances = await accountBalances(h.db, m.merchantId, 'test');
    assert.equal(balances.balance, 1_000_000 - fee - 300_000);
    assert.equal(balances.fees, fee);
    assert.equal(balances.held, 70_000);
    assert.equal(balances.refunds ?? 0, 0);
    assert.equal(balances.clearing, -(1_000_000 - 300_000) - 70_000);
    assert.equal(held.status, 'paid');

    // A retried write of a recorded transition posts nothing again.
    const before = await postingsOf(verified.id);
    const heldRow = await h.db.selectFrom('payments').selectAll().where('id', '=', held.id).executeTakeFirstOrThrow();
    const records = createRecordActivities({
      db: h.db,
      logger: h.logger,
      temporal: h.temporal.client,
      config: h.config,
    });
    await records.recordTransition({ payment: paymentFromRow(heldRow), version: heldRow.version });
    assert.deepEqual(await postingsOf(held.id), ['capture: clearing -70000, held 70000']);
    assert.deepEqual(await postingsOf(verified.id), before);
    await assertLedgerBalanced(h.db, 'after the movements', { merchantIds: [m.merchantId] });
  });

  it('the server refuses to update or delete a posting or an entry', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    await paidPayment(h.baseUrl, m.key, { amount: 60_000 });
    const entry = await h.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('merchant_id', '=', m.merchantId)
      .executeTakeFirstOrThrow();
    await assert.rejects(
      h.db.updateTable('ledger_entries').set({ amount: 1 }).where('id', '=', entry.id).execute(),
      /append-only/,
    );
    await assert.rejects(h.db.deleteFrom('ledger_entries').where('id', '=', entry.id).execute(), /append-only/);
    await assert.rejects(
      h.db.updateTable('ledger_postings').set({ movement: 'verify' }).where('merchant_id', '=', m.merchantId).execute(),
      /append-only/,
    );
    await assert.rejects(
      h.db.deleteFrom('ledger_postings').where('merchant_id', '=', m.merchantId).execute(),
      /append-only/,
    );
  });

  it('the application never issues an UPDATE or DELETE of the ledger', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (
          path.endsWith('.ts') &&
          /(updateTable|deleteFrom)\(\s*'ledger_|(UPDATE|DELETE\s+FROM)\s+`?ledger_/i.test(readFileSync(path, 'utf8'))
        )
          offenders.push(path);
      }
    };
    for (const dir of ['src', 'activities', 'workflows']) walk(dir);
    assert.deepEqual(offenders, []);
  });

  it('ledger check passes on a sound ledger and fails, naming the break, on a corrupted entry', async function () {
    this.timeout(60_000);
    // Its own database, so the corruption stays out of the suite's ledger.
    const url = `${process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL}_corrupt`;
    await recreateDatabase(url);
    const { db } = createDatabase(url);
    try {
      await migrateToLatest(db);
      const merchantId = '00000000-0000-4000-8000-00000000c0de';
      await sql`INSERT IGNORE INTO merchants (id, name, fee_bps, fee_min, fee_max, created_at) VALUES (${merchantId}, 'Corrupt shop', 100, 0, 0, NOW(3))`.execute(
        db,
      );
      const env = { DATABASE_URL: url };
      const sound = await cliWith(env, 'ledger', 'check', '--json');
      assert.equal(sound.code, 0, sound.stderr + sound.stdout);
      assert.equal((JSON.parse(sound.stdout) as { ok: boolean }).ok, true);

      // One stray entry on a posting: it no longer sums to zero, nor does the ledger, nor the merchant's accounts.
      const posting = await db
        .insertInto('ledger_postings')
        .values({
          cause: `corruption:${Date.now()}`,
          movement: 'capture',
          merchant_id: merchantId,
          mode: 'live',
          created_at: new Date(),
        })
        .executeTakeFirstOrThrow();
      await db
        .insertInto('ledger_entries')
        .values({
          posting_id: Number(posting.insertId),
          merchant_id: merchantId,
          mode: 'live',
          account: 'balance',
          amount: 1_000,
          created_at: new Date(),
        })
        .execute();
      const broken = await cliWith(env, 'ledger', 'check', '--json');
      assert.equal(broken.code, 1, broken.stderr + broken.stdout);
      const report = JSON.parse(broken.stdout) as { ok: boolean; breaks: { invariant: string }[] };
      assert.equal(report.ok, false);
      assert.deepEqual([...new Set(report.breaks.map((b) => b.invariant))].sort(), [
        'ledger_balanced',
        'merchant_accounts',
        'posting_balanced',
      ]);
      assert.equal((await checkLedger(db)).ok, false);
    } finally {
      await db.destroy();
    }
  });
});

describe('ledger migration', () => {
  afterEach(() => bankFault(null));

  it('posts the movements of payments and refunds recorded before the ledger, under the causes later writes use', async function () {
    this.timeout(120_000);
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    // Records made through the real stack: a verified payment with a succeeded and a failed refund, a reversed one, a paid one.
    const verified = await verifiedPayment(h.baseUrl, m.key, { amount: 1_000_000 });
    const ok = await api.post<{ refund: Refund }>(`/payments/${verified.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_000,
    });
    await approveTypedIban(ok.body.refund);
    await waitForRefund(h.baseUrl, m.key, ok.body.refund.id, 'succeeded');
    await bankFault({ operation: 'payout', fault: 'unknown', times: 2 });
    const refused = await api.post<{ refund: Refund }>(`/payments/${verified.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 50_000,
    });
    await approveTypedIban(refused.body.refund);
    await waitForRefund(h.baseUrl, m.key, refused.body.refund.id, 'failed');
    const reversed = await paidPayment(h.baseUrl, m.key, { amount: 40_000 });
    assert.equal((await api.post(`/payments/${reversed.id}/reverse`)).status, 200);
    await paidPayment(h.baseUrl, m.key, { amount: 30_000 });

    // A database at the schema before the ledger, holding copies of those records.
    const url = `${process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL}_opening`;
    await recreateDatabase(url);
    const { db } = createDatabase(url);
    try {
      // Every migration named before the ledger's own (0020), onboarding and the accounts' among them.
      const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0020'));
      await new Migrator({ db, provider: { getMigrations: () => Promise.resolve(before) } }).migrateToLatest();
      const copy = async (table: 'merchants' | 'payments' | 'refunds') => {
        const rows = await h.db
          .selectFrom(table)
          .selectAll()
          .where(table === 'merchants' ? 'id' : 'merchant_id', '=', m.merchantId)
          .execute();
        const columns = await sql<{
          name: string;
        }>`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ${table}`.execute(
          db,
        );
        const opening = new Set(columns.rows.map((c) => c.name));
        for (const row of rows) {
          // Only the columns the schema before the ledger had (later migrations add others: the IBAN, the PSP).
          // A reference of today's simulator is SEP's Base64 RefNum (up to 128 characters since 0043); the
          // schema before the ledger held 32, as every reference recorded then was: cut to that here.
          const values = Object.fromEntries(
            Object.entries(row)
              .filter(([k]) => opening.has(k))
              .map(([k, v]) => [k, k === 'reference_id' && typeof v === 'string' ? v.slice(0, 32) : v]),
          );
          await sql`INSERT INTO ${sql.table(table)} (${sql.join(Object.keys(values).map((k) => sql.ref(k)))}) VALUES (${sql.join(Object.values(values))})`.execute(
            db,
          );
        }
      };
      await copy('merchants');
      await copy('payments');
      await copy('refunds');
      await migrateToLatest(db);

      const report = await checkLedger(db);
      assert.equal(report.ok, true, JSON.stringify(report.breaks));
      const postings = (mine: typeof h.db) =>
        mine
          .selectFrom('ledger_postings')
          .select(['cause'])
          .where('merchant_id', '=', m.merchantId)
          .orderBy('cause')
          .execute();
      assert.deepEqual(await postings(db), await postings(h.db), 'the same postings as the live writers made');
    } finally {
      await db.destroy();
    }
  });
});

async function cliWith(env: Record<string, string>, ...args: string[]) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await cli(...args);
  } finally {
    for (const key of Object.keys(env)) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
}
