/**
 * Reconciliation (issue #13): every payment and refund list filter, and the
 * CSV report's batches, read through an index (EXPLAIN on MariaDB, over
 * thousands of payments of two merchants in both modes).
 */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { CompiledQuery, Kysely, MysqlDialect } from 'kysely';
import { createDatabase, type Database, type NewPaymentRow } from '../../src/db/database.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import { PAYMENT_STATUSES } from '../../src/domain/payment.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { listPayments } from '../../src/payments/service.ts';
import { paymentsReport } from '../../src/payments/report.ts';
import { listAllRefunds } from '../../src/refunds/service.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { insertPayments, insertRefunds, paymentRow } from '../support/merchant-export.ts';
import { approvedBeneficiary } from '../support/settlement.ts';

describe('reconciliation', function () {
  this.timeout(300_000);

  describe('indexes', () => {
    /** A Kysely over the test database that records every query it runs, to EXPLAIN exactly those. */
    let logged: Kysely<Database>;
    const queries: CompiledQuery[] = [];
    let tenant: ReturnType<typeof tenantOf>;
    let sample: NewPaymentRow;
    let refundedPayment: string;

    before(async function () {
      this.timeout(300_000);
      const h = await getHarness();
      const { pool } = createDatabase(h.config.DATABASE_URL, { poolSize: 2 });
      logged = new Kysely<Database>({
        dialect: new MysqlDialect({ pool }),
        log: (event) => {
          if (event.level === 'query') queries.push(event.query);
        },
      });
      // Two merchants with 3,000 test-mode payments each over 30 days, and some in live mode: the tenant prefix alone is not selective.
      const a = await newMerchant();
      const b = await newMerchant();
      tenant = tenantOf(a.merchantId, 'test');
      const start = Date.parse('2025-09-01T00:00:00.000Z');
      const rows: NewPaymentRow[] = [];
      for (const [merchantId, mode, n] of [
        [a.merchantId, 'test', 3_000],
        [b.merchantId, 'test', 3_000],
        [a.merchantId, 'live', 1_000],
      ] as const) {
        for (let i = 0; i < n; i++) {
          rows.push(
            paymentRow(merchantId, {
              mode,
              status: PAYMENT_STATUSES[randomInt(0, PAYMENT_STATUSES.length)]!,
              amount: randomInt(10_000, 50_000_000),
              merchant_reference: `order-${randomInt(0, 1_000_000)}`,
              created_at: new Date(start + randomInt(0, 30 * 86_400_000)),
            }),
          );
        }
      }
      await insertPayments(h.db, rows, 1_000);
      sample = rows.find((r) => r.merchant_id === a.merchantId && r.mode === 'test' && r.rrn !== null)!;
      const refundable = rows.filter((r) => r.status === 'refunded' || r.status === 'partially_refunded');
      const statuses: Refund['status'][] = ['pending', 'succeeded', 'failed'];
      const refunds = refundable.flatMap((payment) =>
        [0, 1].map((k) => ({
          payment,
          status: statuses[randomInt(0, 3)]!,
          created_at: new Date(new Date(payment.created_at).getTime() + k * 60_000),
        })),
      );
      for (let i = 0; i < refunds.length; i += 500) await insertRefunds(h.db, refunds.slice(i, i + 500));
      refundedPayment = refundable.find((r) => r.merchant_id === a.merchantId && r.mode === 'test')!.id;
      // A share on every third payment of each merchant: a list reads its page's shares too (one query a page),
      // and on a table this full the planner shows whether that read goes through payment_splits' index.
      for (const merchantId of [a.merchantId, b.merchantId]) {
        const beneficiary = await approvedBeneficiary(h.db, merchantId, 'Agency');
        const shares = rows
          .filter((r, i) => r.merchant_id === merchantId && i % 3 === 0)
          .map((r) => ({
            id: randomUUID(),
            payment_id: r.id,
            beneficiary_id: beneficiary.id,
            position: 0,
            amount: 1_000,
            description: '',
            refunded: 0,
            settled_in: null,
          }));
        for (let i = 0; i < shares.length; i += 1_000)
          await h.db
            .insertInto('payment_splits')
            .values(shares.slice(i, i + 1_000))
            .execute();
      }
      await logged.executeQuery(CompiledQuery.raw('ANALYZE TABLE payments, refunds, payment_splits, beneficiaries'));
    });

    after(async () => {
      await logged.destroy();
    });

    interface Plan {
      table: string;
      type: string;
      key: string | null;
      rows: number;
      Extra: string | null;
    }

    /** EXPLAIN of the queries that `run` makes, as MariaDB plans them. */
    async function plansOf(run: () => Promise<unknown>): Promise<{ sql: string; plan: Plan[] }[]> {
      queries.length = 0;
      await run();
      const ran = queries.splice(0);
      assert.ok(ran.length > 0);
      const out = [];
      for (const q of ran) {
        const { rows } = await logged.executeQuery<Plan>(CompiledQuery.raw(`EXPLAIN ${q.sql}`, [...q.parameters]));
        out.push({ sql: q.sql, plan: rows });
      }
      return out;
    }

    const report: string[] = [];
    after(() => {
      console.log(
        `      EXPLAIN (MariaDB), filter → table: access type, key, rows examined (estimate)\n${report.map((l) => `        ${l}`).join('\n')}`,
      );
    });

    /** Every table each query reads is read through an index: a key, and neither a full table scan nor a full index scan. */
    function assertIndexed(name: string, explained: { sql: string; plan: Plan[] }[]) {
      for (const { sql, plan } of explained) {
        for (const row of plan) {
          report.push(
            `${name} → ${row.table}: ${row.type}, ${row.key ?? 'NO KEY'}, ${row.rows}${row.Extra === null ? '' : ` (${row.Extra})`}`,
          );
          assert.ok(row.key !== null, `${name}: ${row.table} is read without an index: ${JSON.stringify(row)}\n${sql}`);
          assert.ok(
            row.type !== 'ALL' && row.type !== 'index',
            `${name}: ${row.table} is scanned whole (${row.type}): ${JSON.stringify(row)}\n${sql}`,
          );
        }
      }
    }

    const day = (d: number) => new Date(Date.parse('2025-09-01T00:00:00.000Z') + d * 86_400_000).toISOString();

    it('every payment list filter, alone and combined, reads through an index', async () => {
      const filters: [string, Record<string, string | number>][] = [
        ['no filter', {}],
        ['status', { status: 'verified' }],
        ['status list', { status: 'paid,verified' }],
        ['merchant_reference', { merchant_reference: sample.merchant_reference }],
        ['tracking_code', { tracking_code: sample.tracking_code }],
        ['rrn', { rrn: sample.rrn! }],
        ['amount_gte+amount_lte', { amount_gte: 1_000_000, amount_lte: 1_200_000 }],
        ['amount_gte', { amount_gte: 49_000_000 }],
        ['amount_lte', { amount_lte: 200_000 }],
        ['created_gte+created_lt', { created_gte: day(10), created_lt: day(11) }],
        ['created_gte', { created_gte: day(29) }],
        ['created_lt', { created_lt: day(1) }],
        ['status+created range', { status: 'paid,verified', created_gte: day(3), created_lt: day(5) }],
        ['status+amount range', { status: 'verified', amount_gte: 1_000_000, amount_lte: 1_500_000 }],
      ];
      for (const [name, query] of filters) {
        assertIndexed(`payments ${name}`, await plansOf(() => listPayments(logged, tenant, query)));
        // The next page (a cursor) too.
        const first = await listPayments(logged, tenant, { ...query, limit: 1 });
        if (first.next_cursor !== null)
          assertIndexed(
            `payments ${name}, next page`,
            await plansOf(() => listPayments(logged, tenant, { ...query, cursor: first.next_cursor } as never)),
          );
      }
    });

    it('every refund list filter reads through an index', async () => {
      const { config } = await getHarness();
      for (const [name, query] of [
        ['no filter', {}],
        ['status', { status: 'failed' }],
        ['payment_id', { payment_id: refundedPayment }],
        ['created range', { created_gte: day(10), created_lt: day(11) }],
        ['status+created range', { status: 'pending', created_gte: day(10), created_lt: day(12) }],
      ] as const) {
        assertIndexed(`refunds ${name}`, await plansOf(() => listAllRefunds(logged, tenant, query, config)));
      }
    });

    it("the CSV report's batches read through an index", async () => {
      const explained = await plansOf(async () => {
        const report = await paymentsReport(logged, tenant, { created_gte: day(3), created_lt: day(6) }, 100);
        for await (const _ of report.body) void _;
      });
      assert.ok(explained.length > 2, 'several batches, each after the last row of the one before');
      assertIndexed('CSV report batches', explained);
    });
  });
});
