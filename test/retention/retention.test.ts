/**
 * Retention against the real stack (docs/RETENTION.md): every table of the
 * test database has a rule; the retention workflow, run through Temporal by
 * the suite's worker, deletes every pruned table's rows past their period in
 * small batches, files of rejected documents with their rows, and nothing
 * else: rows inside their period stay, every kept table's rows stay as they
 * were however old, and the ledger still checks.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { sql } from 'kysely';
import { documentStore } from '../../src/adapters/document-store.ts';
import { createDatabase } from '../../src/db/database.ts';
import { MIGRATIONS, migrateToLatest, recreateDatabase } from '../../src/db/migrate.ts';
import { IDEMPOTENCY_CLEANUP_SCHEDULE_ID, IDEMPOTENCY_CLEANUP_WORKFLOW } from '../../src/domain/maintenance.ts';
import {
  RETENTION_EVERY_MS,
  RETENTION_RULES,
  RETENTION_SCHEDULE_ID,
  RETENTION_WORKFLOW,
  type RetentionResult,
} from '../../src/domain/retention.ts';
import { registry } from '../../src/observability/metrics.ts';
import { ensureRetentionSchedule } from '../../src/temporal/schedules.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { paidPayment } from '../support/payments.ts';
import { seedRetention, type Seeded } from './seed.ts';
import { approveTypedIban, REFUND_IBAN } from '../support/refunds.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

const DAY = 86_400_000;

describe('retention (docs/RETENTION.md)', function () {
  this.timeout(180_000);

  it('every table of the database has a rule, and every rule a table', async () => {
    const h = await getHarness();
    const tables = await sql<{
      name: string;
    }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()`.execute(h.db);
    assert.deepEqual(tables.rows.map((t) => t.name).sort(), Object.keys(RETENTION_RULES).sort());
  });

  it('migration 0040 adds the age indexes the prunes read by, and takes them back down', async () => {
    const url = `${process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL}_retention`;
    await recreateDatabase(url);
    const { db } = createDatabase(url);
    const indexes = async () =>
      (
        await sql<{
          name: string;
        }>`SELECT DISTINCT index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND index_name LIKE '%\_by\_%'`.execute(
          db,
        )
      ).rows
        .map((r) => r.name)
        .sort();
    const added = [
      'merchant_document_submissions_by_status',
      'user_email_tokens_by_expiry',
      'user_sessions_by_expiry',
      'user_sessions_by_last_seen',
      'user_sign_in_challenges_by_expiry',
      'webhook_attempts_by_age',
    ];
    try {
      await migrateToLatest(db);
      const latest = await indexes();
      for (const name of added) assert.ok(latest.includes(name), name);
      await MIGRATIONS['0040_retention_indexes']!.down!(db as never);
      assert.deepEqual(
        (await indexes()).filter((n) => added.includes(n)),
        [],
      );
      await MIGRATIONS['0040_retention_indexes']!.up(db as never);
      assert.deepEqual(await indexes(), latest);
    } finally {
      await db.destroy();
    }
  });

  describe('the workflow', () => {
    let seeded: Seeded;
    let result: RetentionResult;
    let merchant: { merchantId: string; key: string };
    let paymentId: string;
    const keptBefore = new Map<string, unknown>();
    let countsBefore: Record<string, number>;

    before(async () => {
      const h = await getHarness();
      // Money that moved for real (a verified and refunded payment: its ledger postings and events), made old.
      merchant = await newMerchant();
      const paid = await paidPayment(h.baseUrl, merchant.key, { amount: 200_000 });
      paymentId = paid.id;
      const api = client(h.baseUrl, merchant.key);
      assert.equal((await api.post(`/payments/${paymentId}/verify`, { amount: 200_000 })).status, 200);
      const refund = await api.post<{ refund: Refund }>(
        `/payments/${paymentId}/refunds`,
        { destination_iban: REFUND_IBAN, amount: 50_000 },
        { idempotencyKey: `retention-${paymentId}` },
      );
      assert.equal(refund.status, 201, refund.text);
      await approveTypedIban(refund.body.refund);
      await waitFor(
        async () =>
          (await h.db.selectFrom('refunds').select('status').where('payment_id', '=', paymentId).executeTakeFirst())
            ?.status === 'succeeded',
      );
      const elevenYears = new Date(Date.now() - 11 * 365 * DAY);
      await h.db.updateTable('payments').set({ created_at: elevenYears }).where('id', '=', paymentId).execute();
      await h.db.updateTable('refunds').set({ created_at: elevenYears }).where('payment_id', '=', paymentId).execute();
      seeded = await seedRetention(h, merchant.merchantId);
      for (const [table, read] of Object.entries(keptSnapshots(merchant.merchantId, paymentId)))
        keptBefore.set(table, await read(h.db));
      countsBefore = await keptCounts(h.db);

      // Small batches: each table takes several, as a backlog would.
      result = await h.temporal.client.workflow.execute(RETENTION_WORKFLOW, {
        taskQueue: h.config.TEMPORAL_TASK_QUEUE,
        workflowId: `retention-test-${randomUUID()}`,
        args: [{ batch_size: 2, max_batches: 10_000 }],
      });
    });

    it('deletes the rows past their period, in every pruned table, and counts them', async () => {
      const h = await getHarness();
      for (const [table, ids] of Object.entries(seeded.old)) {
        assert.deepEqual(await seeded.present(h.db, table, ids), [], `${table}: rows past their period are gone`);
        assert.ok((result[table] ?? 0) >= ids.length, `${table}: counted ${result[table]} ≥ ${ids.length}`);
      }
      assert.ok(Object.values(seeded.old).every((ids) => ids.length > 0));
      const metric = await registry.getSingleMetricAsString('dargah_retention_pruned_rows_total');
      assert.match(metric, /dargah_retention_pruned_rows_total\{table="events"\} \d+/);
    });

    it('keeps the rows inside their period', async () => {
      const h = await getHarness();
      for (const [table, ids] of Object.entries(seeded.recent)) {
        assert.deepEqual(await seeded.present(h.db, table, ids), ids, `${table}: rows inside their period stay`);
      }
    });

    it('removes the files of the documents it prunes, and only those', async () => {
      const h = await getHarness();
      const store = documentStore(h.config);
      for (const file of seeded.filesGone)
        assert.equal(existsSync(join(store.directory, file.merchant_id, file.id)), false, `${file.id} removed`);
      for (const file of seeded.filesKept)
        assert.equal(existsSync(join(store.directory, file.merchant_id, file.id)), true, `${file.id} kept`);
    });

    it('leaves every kept table as it was, however old its rows, and the ledger checks', async () => {
      const h = await getHarness();
      for (const [table, read] of Object.entries(keptSnapshots(merchant.merchantId, paymentId))) {
        assert.deepEqual(await read(h.db), keptBefore.get(table), `${table} unchanged`);
      }
      const countsAfter = await keptCounts(h.db);
      for (const [table, count] of Object.entries(countsBefore))
        assert.ok(countsAfter[table]! >= count, `${table}: ${countsAfter[table]} rows, ${count} before`);
      const report = await assertLedgerBalanced(h.db, 'after the retention run', {
        merchantIds: [merchant.merchantId, ...seeded.merchants],
      });
      assert.ok(report.payments >= 1);
    });
  });

  describe('the schedule', () => {
    after(async () => {
      const h = await getHarness();
      await h.temporal.client.schedule
        .getHandle(RETENTION_SCHEDULE_ID)
        .delete()
        .catch((e: unknown) => {
          if (!(e instanceof ScheduleNotFoundError)) throw e;
        });
    });

    it("is created idempotently at worker start, runs the retention workflow every 10 minutes, and replaces the idempotency cleanup's", async () => {
      const h = await getHarness();
      // The schedule an earlier version made.
      await h.temporal.client.schedule.create({
        scheduleId: IDEMPOTENCY_CLEANUP_SCHEDULE_ID,
        spec: { intervals: [{ every: RETENTION_EVERY_MS }] },
        action: {
          type: 'startWorkflow',
          workflowType: IDEMPOTENCY_CLEANUP_WORKFLOW,
          workflowId: 'idempotency-cleanup',
          taskQueue: h.config.TEMPORAL_TASK_QUEUE,
          args: [{ batch_size: 1000, max_batches: 1000 }],
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
        state: { paused: true },
      });
      await ensureRetentionSchedule(h.temporal.client, h.config);
      await ensureRetentionSchedule(h.temporal.client, h.config); // a second worker starting
      const schedule = await h.temporal.client.schedule.getHandle(RETENTION_SCHEDULE_ID).describe();
      assert.equal(Number(schedule.spec.intervals?.[0]?.every), RETENTION_EVERY_MS);
      assert.equal(schedule.action.type === 'startWorkflow' ? schedule.action.workflowType : '', RETENTION_WORKFLOW);
      assert.deepEqual(schedule.action.type === 'startWorkflow' ? schedule.action.args : [], [
        { batch_size: h.config.RETENTION_BATCH_SIZE, max_batches: h.config.RETENTION_MAX_BATCHES },
      ]);
      await assert.rejects(
        h.temporal.client.schedule.getHandle(IDEMPOTENCY_CLEANUP_SCHEDULE_ID).describe(),
        ScheduleNotFoundError,
      );
      // Other settings make it again with them.
      await ensureRetentionSchedule(h.temporal.client, { ...h.config, RETENTION_BATCH_SIZE: 50 });
      const remade = await h.temporal.client.schedule.getHandle(RETENTION_SCHEDULE_ID).describe();
      assert.deepEqual(remade.action.type === 'startWorkflow' ? remade.action.args : [], [
        { batch_size: 50, max_batches: h.config.RETENTION_MAX_BATCHES },
      ]);
    });
  });
});

/**
 * Reads of every kept table's rows this test made or touched (the merchant's, the payment's), in a
 * stable order: the same before and after the run. Background work of earlier tests may still write
 * other merchants' rows meanwhile, so the comparison is of these rows, plus each table's row count
 * never going down.
 */
function keptSnapshots(merchantId: string, paymentId: string) {
  type Db = Awaited<ReturnType<typeof getHarness>>['db'];
  const byMerchant =
    (
      table:
        | 'payments'
        | 'refunds'
        | 'ledger_postings'
        | 'audit_log'
        | 'onboarding_events'
        | 'api_keys'
        | 'webhook_endpoints'
        | 'merchant_domains'
        | 'users'
        | 'psp_routes',
    ) =>
    (db: Db) =>
      db
        .selectFrom(table)
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .execute()
        .then((rows) => rows.map((r) => JSON.stringify(r)).sort());
  return {
    payments: byMerchant('payments'),
    refunds: byMerchant('refunds'),
    ledger_postings: byMerchant('ledger_postings'),
    ledger_entries: (db: Db) =>
      db
        .selectFrom('ledger_entries')
        .innerJoin('ledger_postings', 'ledger_postings.id', 'ledger_entries.posting_id')
        .selectAll('ledger_entries')
        .where('ledger_postings.merchant_id', '=', merchantId)
        .execute()
        .then((rows) => rows.map((r) => JSON.stringify(r)).sort()),
    audit_log: byMerchant('audit_log'),
    onboarding_events: byMerchant('onboarding_events'),
    api_keys: byMerchant('api_keys'),
    webhook_endpoints: byMerchant('webhook_endpoints'),
    merchant_domains: byMerchant('merchant_domains'),
    users: byMerchant('users'),
    merchants: (db: Db) =>
      db
        .selectFrom('merchants')
        .selectAll()
        .where('id', '=', merchantId)
        .execute()
        .then((rows) => rows.map((r) => JSON.stringify(r))),
    payment_events: (db: Db) =>
      db.selectFrom('events').select('id').where('object_id', '=', paymentId).orderBy('id').execute(),
  };
}

/** Each kept table's row count: other tests' background work may add rows meanwhile, never take any. */
async function keptCounts(db: Awaited<ReturnType<typeof getHarness>>['db']): Promise<Record<string, number>> {
  const kept = Object.entries(RETENTION_RULES)
    .filter(([, rule]) => rule.rule === 'kept')
    .map(([table]) => table);
  const counts: Record<string, number> = {};
  for (const table of kept)
    counts[table] = Number(
      (await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(db)).rows[0]!.n,
    );
  return counts;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}
