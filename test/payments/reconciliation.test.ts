/**
 * Reconciliation queries (issue #13): the payment list's filters (status
 * lists, merchant reference, tracking code, RRN, amount and date ranges),
 * the list of all refunds, and the streamed payments CSV, each kept to the
 * caller's merchant and mode, backed by an index (EXPLAIN on MariaDB), and
 * the CSV in constant memory over 50,000 rows.
 *
 * Most rows are written straight into MySQL (a workflow per row would take
 * minutes and tell nothing more about a query); a real paid, verified and
 * refunded payment made through the API is among them.
 */
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CompiledQuery, Kysely, MysqlDialect, TableNode, type KyselyPlugin } from 'kysely';
import { createDatabase, type Database, type Db, type NewPaymentRow } from '../../src/db/database.ts';
import { paymentFromRow } from '../../src/db/payments.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../src/domain/payment.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { PAYMENTS_REPORT_COLUMNS } from '../../src/domain/report-schemas.ts';
import { listPayments } from '../../src/payments/service.ts';
import { csvField, paymentsReport, reportLine } from '../../src/payments/report.ts';
import { listAllRefunds } from '../../src/refunds/service.ts';
import { getHarness, newMerchant, startApi, testConfig } from '../support/harness.ts';
import { client, request, type TestResponse } from '../support/http.ts';
import { createdPayment } from '../support/payments.ts';
import { verifiedPayment, waitForRefund } from '../support/refunds.ts';
import { markSeeded } from '../support/ledger.ts';

interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}
interface ErrorBody {
  code: string;
  message: string;
  details?: { path: string; message: string }[];
}

// ---------------------------------------------------------------------------
// Rows written straight into MySQL

const PAID_LIKE: readonly PaymentStatus[] = ['paid', 'verified', 'reversed', 'partially_refunded', 'refunded'];
let trackingBase = 100_000_000_000 + randomInt(0, 800_000_000_000);
const nextTrackingCode = () => String(trackingBase++);
const digits12 = () => String(randomInt(100_000_000_000, 1_000_000_000_000));

interface Seed {
  mode?: 'test' | 'live';
  status?: PaymentStatus;
  amount?: number;
  merchant_reference?: string;
  rrn?: string | null;
  created_at: Date;
}

function paymentRow(merchantId: string, seed: Seed): NewPaymentRow {
  const status = seed.status ?? 'created';
  const paid = PAID_LIKE.includes(status);
  const amount = seed.amount ?? 150_000;
  const at = seed.created_at;
  const later = (s: number) => new Date(at.getTime() + s * 1000);
  const mode = seed.mode ?? 'test';
  return {
    id: randomUUID(),
    merchant_id: merchantId,
    mode,
    status,
    amount,
    fee: paid && status !== 'paid' && status !== 'reversed' ? Math.round(amount / 100) : 0,
    refunded_amount: status === 'refunded' ? amount : status === 'partially_refunded' ? Math.floor(amount / 2) : 0,
    currency: 'IRR',
    merchant_reference: seed.merchant_reference ?? `order-${randomUUID().slice(0, 8)}`,
    tracking_code: nextTrackingCode(),
    reference_id: paid ? String(randomInt(100_000_000, 999_999_999)) : null,
    rrn: seed.rrn !== undefined ? seed.rrn : paid ? digits12() : null,
    card_pan: paid ? '603799******1234' : null,
    description: 'seeded for reconciliation tests',
    mobile: null,
    callback_url: 'http://localhost:8000/return',
    failure_code: status === 'failed' ? 'card_declined' : null,
    failure_message: status === 'failed' ? 'The card was declined.' : null,
    created_at: at,
    paid_at: paid ? later(30) : null,
    verified_at: paid && status !== 'paid' && status !== 'reversed' ? later(60) : null,
    verify_deadline_at: paid ? later(930) : null,
    expires_at: later(900),
    settlement_status: mode === 'test' ? 'not_applicable' : 'pending',
    version: 1,
    updated_at: at,
  };
}

/** Seeds payments straight into the table (no workflow, no movements): their merchants are left out of the ledger check. */
async function insertPayments(db: Db, rows: NewPaymentRow[], batch = 2_000): Promise<void> {
  for (const row of rows) markSeeded(row.merchant_id);
  for (let i = 0; i < rows.length; i += batch) await db.insertInto('payments').values(rows.slice(i, i + batch)).execute();
}

interface RefundSeed {
  payment: NewPaymentRow;
  status: Refund['status'];
  amount?: number;
  created_at: Date;
}

async function insertRefunds(db: Db, seeds: RefundSeed[]): Promise<string[]> {
  for (const seed of seeds) markSeeded(seed.payment.merchant_id);
  const rows = seeds.map((s) => ({
    id: randomUUID(),
    payment_id: s.payment.id,
    merchant_id: s.payment.merchant_id,
    mode: s.payment.mode,
    amount: s.amount ?? 10_000,
    status: s.status,
    reason: null,
    failure_code: s.status === 'failed' ? 'bank_refused' : null,
    failure_message: s.status === 'failed' ? 'The bank refused the refund.' : null,
    created_at: s.created_at,
    succeeded_at: s.status === 'succeeded' ? new Date(s.created_at.getTime() + 5_000) : null,
    updated_at: s.created_at,
  }));
  await db.insertInto('refunds').values(rows).execute();
  return rows.map((r) => r.id);
}

/** What a refused request must leave untouched: the merchant's rows in every table a request could write. */
async function writtenBy(db: Db, merchantId: string): Promise<string> {
  const counts = await Promise.all(
    (['payments', 'refunds', 'idempotency_keys', 'events', 'webhook_endpoints'] as const).map(async (table) => {
      const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('merchant_id', '=', merchantId).executeTakeFirstOrThrow();
      return `${table}=${Number(row.n)}`;
    }),
  );
  return counts.join(' ');
}

// ---------------------------------------------------------------------------
// Reading lists through the API

type Api = ReturnType<typeof client>;

/** Every page of a list, `limit` at a time, following next_cursor; checks that no row repeats. */
async function allPages<T extends { id: string }>(api: Api, path: string, query: Record<string, string>, limit = 3): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const params = new URLSearchParams({ ...query, limit: String(limit), ...(cursor === null ? {} : { cursor }) });
    const res: TestResponse<Page<T>> = await api.get<Page<T>>(`${path}?${params.toString()}`);
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.data.length <= limit);
    assert.equal(res.body.has_more, res.body.next_cursor !== null);
    ids.push(...res.body.data.map((item) => item.id));
    cursor = res.body.next_cursor;
    pages += 1;
  } while (cursor !== null && pages < 1_000);
  assert.equal(new Set(ids).size, ids.length, 'no row on two pages');
  return { ids, pages };
}

/** Newest first by (created_at, id), as the lists order. */
const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

// ---------------------------------------------------------------------------
// CSV

/** An RFC 4180 reader: quoted fields, doubled quotes, CRLF record ends. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  assert.ok(!quoted && field === '' && record.length === 0, 'the file ends with a complete record and CRLF');
  return records;
}

/** The fields a payment's line must hold, formula-like starts defused. */
function expectedFields(p: Payment): string[] {
  const defused = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
  const text = (v: string | number | null) => (v === null ? '' : defused(String(v)));
  return [
    p.id, p.created_at, p.status, p.mode, p.amount, p.fee, p.refunded_amount, p.currency, p.merchant_reference, p.tracking_code,
    p.reference_id, p.rrn, p.card_pan, p.paid_at, p.verified_at, p.settlement_status, JSON.stringify(p.metadata),
  ].map(text);
}

const reportPath = (from: string, to: string) => `/reports/payments.csv?created_gte=${encodeURIComponent(from)}&created_lt=${encodeURIComponent(to)}`;

/** A Kysely over the same database whose selects from `payments` fail, after the first `okSelects`, as if MySQL had gone away. */
function failingPaymentsDb(db: Db, okSelects: number): Db {
  let selects = 0;
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      const froms = node.kind === 'SelectQueryNode' ? (node.from?.froms ?? []) : [];
      const onPayments = froms.some((f) => TableNode.is(f) && f.table.identifier.name === 'payments');
      if (onPayments && ++selects > okSelects) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return db.withPlugin(plugin);
}

/** V8's full collection, exposed at run time (the suite runs without --expose-gc). */
function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

// ---------------------------------------------------------------------------

describe('reconciliation', function () {
  this.timeout(300_000);

  describe('GET /payments filters and GET /refunds', () => {
    const T0 = Date.parse('2025-03-01T00:00:00.000Z');
    const hour = (h: number) => new Date(T0 + h * 3_600_000);
    let api: Api;
    let merchantId: string;
    let other: { merchantId: string; key: string };
    /** Every test-mode payment of the merchant, read back from MySQL: the oracle of each filter. */
    let universe: Payment[];
    let real: Payment;
    let realRefund: Refund;
    const seeded: NewPaymentRow[] = [];
    let twinRows: NewPaymentRow[];
    let refundRows: { id: string; payment_id: string; status: Refund['status']; created_at: string }[] = [];

    before(async () => {
      const h = await getHarness();
      const m = await newMerchant();
      merchantId = m.merchantId;
      api = client(h.baseUrl, m.key);
      other = await newMerchant();

      // A real payment through the API: paid at the test bank, verified, then partly refunded.
      real = await verifiedPayment(h.baseUrl, m.key, { amount: 2_300_000, merchant_reference: 'real-order-1' });
      const refunded = await api.post<{ refund: Refund }>(`/payments/${real.id}/refunds`, { amount: 300_000 });
      assert.equal(refunded.status, 201, refunded.text);
      realRefund = await waitForRefund(h.baseUrl, m.key, refunded.body.refund.id, 'succeeded');
      await createdPayment(h.baseUrl, m.key, { amount: 10_000, merchant_reference: 'real-order-2' });

      // 30 seeded payments an hour apart, every status, amounts 100,000 … 3,000,000.
      for (let i = 0; i < 30; i++) {
        seeded.push(
          paymentRow(merchantId, {
            status: PAYMENT_STATUSES[i % PAYMENT_STATUSES.length]!,
            amount: (i + 1) * 100_000,
            merchant_reference: i % 10 === 3 ? 'order-shared' : `order-${i}`,
            created_at: hour(i),
          }),
        );
      }
      // Twins that must never show: the same references, RRNs, amounts, statuses and times in live mode and at another merchant.
      twinRows = seeded.flatMap((row) => [
        { ...paymentRow(merchantId, { mode: 'live', status: row.status as PaymentStatus, amount: Number(row.amount), merchant_reference: row.merchant_reference, created_at: row.created_at }), rrn: row.rrn ?? null },
        { ...paymentRow(other.merchantId, { status: row.status as PaymentStatus, amount: Number(row.amount), merchant_reference: row.merchant_reference, created_at: row.created_at }), rrn: row.rrn ?? null },
      ]);
      twinRows.push({ ...paymentRow(other.merchantId, { status: 'verified', amount: real.amount, merchant_reference: real.merchant_reference, created_at: new Date(real.created_at) }), rrn: real.rrn });
      await insertPayments(h.db, [...seeded, ...twinRows]);

      // Refunds: of the merchant's refundable seeded payments, in each status, an hour apart; twins in live mode and at the other merchant.
      const refundable = seeded.filter((r) => r.status === 'partially_refunded' || r.status === 'refunded');
      const statuses: Refund['status'][] = ['pending', 'succeeded', 'failed'];
      const seeds: RefundSeed[] = [];
      for (let i = 0; i < 12; i++) seeds.push({ payment: refundable[i % 5]!, status: statuses[i % 3]!, created_at: hour(40 + i) });
      const ids = await insertRefunds(h.db, seeds);
      refundRows = seeds.map((s, i) => ({ id: ids[i]!, payment_id: s.payment.id, status: s.status, created_at: s.created_at.toISOString() }));
      const twinRefundable = twinRows.filter((r) => r.status === 'refunded' || r.status === 'partially_refunded');
      await insertRefunds(
        h.db,
        twinRefundable.map((payment, i) => ({ payment, status: statuses[i % 3]!, created_at: hour(40 + i) })),
      );

      const rows = await h.db.selectFrom('payments').selectAll().where('merchant_id', '=', merchantId).where('mode', '=', 'test').execute();
      universe = rows.map(paymentFromRow);
      assert.equal(universe.length, 32);
    });

    /** The filter's answer through the API, page by page, equals the oracle's, newest first; and it is a real selection. */
    async function assertFilter(query: Record<string, string>, predicate: (p: Payment) => boolean, limit = 3) {
      const expected = universe.filter(predicate).sort(newestFirst).map((p) => p.id);
      assert.ok(expected.length > 0 && expected.length < universe.length, `the filter ${JSON.stringify(query)} selects some payments, not all`);
      const { ids, pages } = await allPages<Payment>(api, '/payments', query, limit);
      assert.deepEqual(ids, expected, JSON.stringify(query));
      assert.equal(pages, Math.max(1, Math.ceil(expected.length / limit)));
    }

    it('filters by each filter alone', async () => {
      await assertFilter({ status: 'verified' }, (p) => p.status === 'verified');
      await assertFilter({ status: 'partially_refunded' }, (p) => p.status === 'partially_refunded');
      await assertFilter({ merchant_reference: 'order-shared' }, (p) => p.merchant_reference === 'order-shared');
      await assertFilter({ merchant_reference: 'real-order-1' }, (p) => p.id === real.id);
      const seededRow = seeded[7]!;
      await assertFilter({ tracking_code: seededRow.tracking_code }, (p) => p.id === seededRow.id);
      await assertFilter({ tracking_code: real.tracking_code }, (p) => p.id === real.id);
      assert.ok(real.rrn !== null && /^[0-9]{12}$/.test(real.rrn));
      await assertFilter({ rrn: real.rrn }, (p) => p.id === real.id);
      const paidRow = seeded.find((r) => r.rrn !== null)!;
      await assertFilter({ rrn: paidRow.rrn! }, (p) => p.id === paidRow.id);
      await assertFilter({ amount_gte: '2500000' }, (p) => p.amount >= 2_500_000);
      await assertFilter({ amount_lte: '300000' }, (p) => p.amount <= 300_000);
      await assertFilter({ amount_gte: '1500000', amount_lte: '1500000' }, (p) => p.amount === 1_500_000);
      await assertFilter({ created_gte: hour(25).toISOString() }, (p) => p.created_at >= hour(25).toISOString());
      await assertFilter({ created_lt: hour(4).toISOString() }, (p) => p.created_at < hour(4).toISOString());
      // An offset other than Z means the same instant.
      await assertFilter({ created_gte: '2025-03-01T05:30:00+03:30', created_lt: '2025-03-01T08:00:00+03:30' }, (p) => p.created_at >= hour(2).toISOString() && p.created_at < hour(4.5).toISOString());
    });

    it('takes a comma-separated list of statuses, and one status as before', async () => {
      await assertFilter({ status: 'paid,verified' }, (p) => p.status === 'paid' || p.status === 'verified');
      await assertFilter({ status: 'refunded,partially_refunded,failed' }, (p) => ['refunded', 'partially_refunded', 'failed'].includes(p.status));
      await assertFilter({ status: 'verified,verified' }, (p) => p.status === 'verified');
      await assertFilter({ status: 'created' }, (p) => p.status === 'created');
    });

    it('combines filters, page by page', async () => {
      const from = hour(5).toISOString();
      const to = hour(26).toISOString();
      await assertFilter({ status: 'paid,verified,refunded', amount_gte: '700000', created_gte: from, created_lt: to }, (p) =>
        ['paid', 'verified', 'refunded'].includes(p.status) && p.amount >= 700_000 && p.created_at >= from && p.created_at < to,
      1);
      await assertFilter({ merchant_reference: 'order-shared', amount_lte: '2000000' }, (p) => p.merchant_reference === 'order-shared' && p.amount <= 2_000_000, 1);
      // The real payment is partially refunded by now.
      await assertFilter({ status: 'verified,partially_refunded', rrn: real.rrn! }, (p) => p.rrn === real.rrn && ['verified', 'partially_refunded'].includes(p.status));
      await assertFilter({ tracking_code: real.tracking_code, amount_gte: String(real.amount) }, (p) => p.id === real.id);
      // Filters that exclude each other find nothing.
      const exclusive: Record<string, string>[] = [
        { tracking_code: real.tracking_code, status: 'created' },
        { rrn: real.rrn!, amount_lte: '100' },
        { amount_gte: '2000000', amount_lte: '1000000' },
        { created_gte: hour(10).toISOString(), created_lt: hour(10).toISOString() },
      ];
      for (const query of exclusive) {
        const res = await api.get<Page<Payment>>(`/payments?${new URLSearchParams(query).toString()}`);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.data, [], JSON.stringify(query));
      }
    });

    it("never shows another merchant's or the other mode's payments", async () => {
      const h = await getHarness();
      const ours = new Set(universe.map((p) => p.id));
      const twins = new Set(twinRows.map((r) => r.id));
      const queries: Record<string, string>[] = [{}, { status: 'verified,refunded' }, { merchant_reference: 'order-shared' }, { rrn: real.rrn! }, { amount_gte: '1' }, { created_gte: hour(0).toISOString(), created_lt: hour(30).toISOString() }];
      for (const query of queries) {
        const { ids } = await allPages<Payment>(api, '/payments', query, 50);
        assert.ok(ids.length > 0);
        assert.ok(ids.every((id) => ours.has(id) && !twins.has(id)), JSON.stringify(query));
      }
      // The other merchant finds its own twins by the same values, and none of ours.
      const theirs = client(h.baseUrl, other.key);
      const byRrn = await theirs.get<Page<Payment>>(`/payments?rrn=${real.rrn}`);
      assert.equal(byRrn.body.data.length, 1);
      assert.notEqual(byRrn.body.data[0]!.id, real.id);
      const byTracking = await theirs.get<Page<Payment>>(`/payments?tracking_code=${real.tracking_code}`);
      assert.deepEqual(byTracking.body.data, [], "another merchant's tracking code finds nothing");
      const liveTwin = twinRows.find((r) => r.mode === 'live')!;
      const byLiveTracking = await api.get<Page<Payment>>(`/payments?tracking_code=${liveTwin.tracking_code}`);
      assert.deepEqual(byLiveTracking.body.data, [], "the live payment's tracking code finds nothing with a test key");
    });

    it('answers 422 validation_failed with details for invalid filter values, and writes nothing', async () => {
      const h = await getHarness();
      const before = await writtenBy(h.db, merchantId);
      const cases: [string, string][] = [
        ['status=paid,bogus', 'status'],
        ['status=PAID', 'status'],
        ['status=', 'status'],
        ['status=paid,', 'status'],
        ['status=,paid', 'status'],
        ['status=paid%2C%20verified', 'status'],
        ['status=paid&status=verified', 'status'],
        ['tracking_code=12345', 'tracking_code'],
        ['tracking_code=12345678901a', 'tracking_code'],
        ['tracking_code=1234567890123', 'tracking_code'],
        ['rrn=abc', 'rrn'],
        ['rrn=%20123456789012', 'rrn'],
        ['amount_gte=-1', 'amount_gte'],
        ['amount_gte=1.5', 'amount_gte'],
        ['amount_lte=lots', 'amount_lte'],
        ['amount_lte=99999999999999999999', 'amount_lte'],
        ['created_gte=yesterday', 'created_gte'],
        ['created_gte=2025-03-01', 'created_gte'],
        ['created_lt=2025-13-01T00:00:00Z', 'created_lt'],
        ['created_lt=2025-03-01T00:00:00', 'created_lt'],
        ['created_gte=2016-12-31T23:59:60Z', 'created_gte'],
        ['merchant_reference=', 'merchant_reference'],
        ['card_pan=1234', 'card_pan'],
        ['cursor=not-a-cursor', 'cursor'],
        ['limit=0', 'limit'],
      ];
      for (const [query, path] of cases) {
        const res = await api.get<ErrorBody>(`/payments?${query}`);
        assert.equal(res.status, 422, `${query}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(res.body.details?.some((d) => d.path === path), `${query}: ${res.text}`);
      }
      assert.equal(await writtenBy(h.db, merchantId), before);
    });

    it('GET /refunds lists all the merchant\'s refunds, newest first, with each filter and paging', async () => {
      const h = await getHarness();
      const all = [...refundRows, { id: realRefund.id, payment_id: realRefund.payment_id, status: realRefund.status, created_at: realRefund.created_at }];
      const expect = async (query: Record<string, string>, predicate: (r: (typeof all)[number]) => boolean, limit = 4) => {
        const expected = all.filter(predicate).sort(newestFirst).map((r) => r.id);
        assert.ok(expected.length > 0, JSON.stringify(query));
        const { ids } = await allPages<Refund>(api, '/refunds', query, limit);
        assert.deepEqual(ids, expected, JSON.stringify(query));
      };
      await expect({}, () => true);
      await expect({ status: 'pending' }, (r) => r.status === 'pending');
      await expect({ status: 'succeeded' }, (r) => r.status === 'succeeded');
      await expect({ status: 'failed' }, (r) => r.status === 'failed', 1);
      await expect({ payment_id: real.id }, (r) => r.payment_id === real.id);
      const somePayment = refundRows[1]!.payment_id;
      await expect({ payment_id: somePayment }, (r) => r.payment_id === somePayment, 1);
      await expect({ created_gte: hour(45).toISOString() }, (r) => r.created_at >= hour(45).toISOString());
      await expect({ created_lt: hour(43).toISOString() }, (r) => r.created_at < hour(43).toISOString());
      await expect({ status: 'succeeded', created_gte: hour(41).toISOString(), created_lt: hour(50).toISOString() }, (r) =>
        r.status === 'succeeded' && r.created_at >= hour(41).toISOString() && r.created_at < hour(50).toISOString(),
      );
      await expect({ status: 'pending', payment_id: somePayment }, (r) => r.status === 'pending' && r.payment_id === somePayment);

      // The whole list holds the merchant's test-mode refunds and nothing else; the other merchant sees only its own.
      const { ids } = await allPages<Refund>(api, '/refunds', {}, 100);
      assert.equal(ids.length, all.length);
      const theirs = await allPages<Refund>(client(h.baseUrl, other.key), '/refunds', {}, 100);
      assert.ok(theirs.ids.length > 0 && theirs.ids.every((id) => !ids.includes(id)));
      const ofOurPayment = await client(h.baseUrl, other.key).get<Page<Refund>>(`/refunds?payment_id=${real.id}`);
      assert.deepEqual(ofOurPayment.body.data, []);
      const live = await h.db.selectFrom('refunds').select('id').where('merchant_id', '=', merchantId).where('mode', '=', 'live').execute();
      assert.ok(live.length > 0 && live.every((r) => !ids.includes(r.id)), 'no live refund in the test-mode list');
    });

    it('GET /refunds answers 422 for invalid filters, and writes nothing', async () => {
      const h = await getHarness();
      const before = await writtenBy(h.db, merchantId);
      for (const [query, path] of [
        ['status=done', 'status'],
        ['status=pending,failed', 'status'],
        ['payment_id=42', 'payment_id'],
        ['payment_id=%27%20OR%201%3D1', 'payment_id'],
        ['created_gte=now', 'created_gte'],
        ['created_lt=2025-02-30T00:00:00Z', 'created_lt'],
        ['amount_gte=1', 'amount_gte'],
        ['cursor=%2F%2F', 'cursor'],
      ] as const) {
        const res = await api.get<ErrorBody>(`/refunds?${query}`);
        assert.equal(res.status, 422, `${query}: ${res.text}`);
        assert.ok(res.body.details?.some((d) => d.path === path), `${query}: ${res.text}`);
      }
      assert.equal(await writtenBy(h.db, merchantId), before);
    });
  });

  describe('GET /reports/payments.csv', () => {
    const FROM = '2024-06-01T00:00:00.000Z';
    const TO = '2024-06-02T00:00:00.000Z';
    const at = (ms: number) => new Date(Date.parse(FROM) + ms);
    let api: Api;
    let merchantId: string;
    let key: string;
    const inRange: NewPaymentRow[] = [];
    const HOSTILE = ['=HYPERLINK("http://evil.example","click")', 'a,b "quoted", c', '+98-21-1234', '-2+3', '@SUM(A1:A2)', '\tindented', 'two\r\nlines', 'plain-order'];

    before(async () => {
      const h = await getHarness();
      const m = await newMerchant();
      merchantId = m.merchantId;
      key = m.key;
      api = client(h.baseUrl, m.key);
      const other = await newMerchant();
      HOSTILE.forEach((reference, i) => inRange.push(paymentRow(merchantId, { status: i % 2 === 0 ? 'verified' : 'created', amount: 100_000 + i, merchant_reference: reference, created_at: at(i * 60_000) })));
      // Exactly at the start counts; one millisecond before it and exactly at the end do not; nor the other mode's or merchant's.
      inRange.push(paymentRow(merchantId, { status: 'paid', created_at: at(0) }));
      inRange.push(paymentRow(merchantId, { status: 'failed', created_at: at(86_400_000 - 1) }));
      const outside = [
        paymentRow(merchantId, { created_at: at(-1), merchant_reference: 'outside-before' }),
        paymentRow(merchantId, { created_at: at(86_400_000), merchant_reference: 'outside-after' }),
        paymentRow(merchantId, { mode: 'live', created_at: at(1_000), merchant_reference: 'outside-live' }),
        paymentRow(other.merchantId, { created_at: at(1_000), merchant_reference: 'outside-other' }),
      ];
      await insertPayments(h.db, [...inRange, ...outside]);
    });

    it('streams a header line and one line per payment in range, oldest first, quoted and defused', async () => {
      const h = await getHarness();
      const res = await api.get(reportPath(FROM, TO));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="payments-20240601T000000Z-20240602T000000Z.csv"');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('transfer-encoding'), 'chunked', 'streamed, not sent with a precomputed length');
      assert.ok(res.text.endsWith('\r\n'));

      const records = parseCsv(res.text);
      assert.deepEqual(records[0], [...PAYMENTS_REPORT_COLUMNS]);
      assert.equal(res.text.split('\r\n')[0], PAYMENTS_REPORT_COLUMNS.join(','));
      const lines = records.slice(1);
      assert.equal(lines.length, inRange.length);
      assert.ok(lines.every((l) => l.length === PAYMENTS_REPORT_COLUMNS.length));

      // Each line is the payment as GET /payments/{id} shows it, in (created_at, id) order.
      const payments = await Promise.all(inRange.map(async (r) => (await api.get<{ payment: Payment }>(`/payments/${r.id}`)).body.payment));
      payments.sort((a, b) => -newestFirst(a, b));
      assert.deepEqual(lines.map((l) => l[0]), payments.map((p) => p.id));
      assert.deepEqual(lines, payments.map(expectedFields));
      assert.ok(!res.text.includes('outside-'), 'nothing outside the range, the mode or the merchant');

      // Hostile references: formula starts defused with an apostrophe, quotes doubled, commas and line breaks quoted.
      const reference = (r: string) => lines.find((l) => l[0] === inRange[HOSTILE.indexOf(r)]!.id)![8];
      assert.equal(reference('=HYPERLINK("http://evil.example","click")'), `'=HYPERLINK("http://evil.example","click")`);
      assert.ok(res.text.includes(`,"'=HYPERLINK(""http://evil.example"",""click"")",`));
      assert.equal(reference('a,b "quoted", c'), 'a,b "quoted", c');
      assert.ok(res.text.includes(',"a,b ""quoted"", c",'));
      assert.equal(reference('+98-21-1234'), "'+98-21-1234");
      assert.equal(reference('-2+3'), "'-2+3");
      assert.equal(reference('@SUM(A1:A2)'), "'@SUM(A1:A2)");
      assert.equal(reference('\tindented'), "'\tindented");
      assert.equal(reference('two\r\nlines'), 'two\r\nlines');
      assert.ok(res.text.includes(',"two\r\nlines",'));
      assert.equal(reference('plain-order'), 'plain-order');
      assert.ok(lines.every((l) => l[16] === '{}'), 'metadata is a JSON object');
      assert.ok(res.text.includes(',{}\r\n'), 'metadata {} needs no quotes');
      assert.equal(Number((await h.db.selectFrom('payments').select((eb) => eb.fn.countAll<number>().as('n')).where('merchant_id', '=', merchantId).executeTakeFirstOrThrow()).n), inRange.length + 3);
    });

    it('escapes every field by RFC 4180 and defuses formula starts, metadata included', () => {
      assert.equal(csvField(null), '');
      assert.equal(csvField(1_500_000), '1500000');
      assert.equal(csvField('order-1'), 'order-1');
      assert.equal(csvField('a"b'), '"a""b"');
      assert.equal(csvField('a\nb'), '"a\nb"');
      assert.equal(csvField('a\rb'), '"a\rb"');
      assert.equal(csvField('=1+1'), "'=1+1");
      assert.equal(csvField('\r=1'), `"'\r=1"`);
      assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
      assert.equal(csvField(JSON.stringify({ note: '=cmd|calc', "k,1": 'v"2' })), '"{""note"":""=cmd|calc"",""k,1"":""v\\""2""}"');
      assert.equal(csvField('-'), "'-");
    });

    it('answers an empty range with the header line alone', async () => {
      const res = await api.get(reportPath('2020-01-01T00:00:00Z', '2020-02-01T00:00:00Z'));
      assert.equal(res.status, 200);
      assert.equal(res.text, `${PAYMENTS_REPORT_COLUMNS.join(',')}\r\n`);
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="payments-20200101T000000Z-20200201T000000Z.csv"');
    });

    it('answers 422 validation_failed as JSON for a missing, invalid, reversed or too long range, and writes nothing', async () => {
      const h = await getHarness();
      const before = await writtenBy(h.db, merchantId);
      const cases: [string, string][] = [
        ['', 'created_gte'],
        [`created_gte=${FROM}`, 'created_lt'],
        [`created_lt=${TO}`, 'created_gte'],
        ['created_gte=2024-06-01&created_lt=2024-06-02', 'created_gte'],
        [`created_gte=${TO}&created_lt=${FROM}`, 'created_lt'],
        [`created_gte=${FROM}&created_lt=${FROM}`, 'created_lt'],
        ['created_gte=2024-01-01T00:00:00Z&created_lt=2025-01-01T00:00:00.001Z', 'created_lt'],
        [`created_gte=${FROM}&created_lt=${TO}&status=paid`, 'status'],
        [`created_gte=${FROM}&created_lt=${TO}&limit=10`, 'limit'],
      ];
      for (const [query, path] of cases) {
        const res = await api.get<ErrorBody>(`/reports/payments.csv?${query}`);
        assert.equal(res.status, 422, `${query}: ${res.text}`);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(res.body.details?.some((d) => d.path === path), `${query}: ${res.text}`);
      }
      // 366 days exactly is allowed (a leap year).
      const year = await api.get(reportPath('2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z'));
      assert.equal(year.status, 200);
      const unauthenticated = await request(h.baseUrl, 'GET', `/api/v1${reportPath(FROM, TO)}`);
      assert.equal(unauthenticated.status, 401);
      assert.equal(await writtenBy(h.db, merchantId), before);
    });

    it('answers 503 service_unavailable as JSON when MySQL fails before the first byte', async () => {
      const h = await getHarness();
      const baseUrl = await startApi({ db: failingPaymentsDb(h.db, 0), logger: h.logger, temporalClient: h.temporal.client }, testConfig());
      const res = await request<ErrorBody>(baseUrl, 'GET', `/api/v1${reportPath(FROM, TO)}`, { key });
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'service_unavailable');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(res.headers.get('retry-after'), '2');
      assert.equal(res.headers.get('content-disposition'), null);
    });
  });

  describe('at scale', () => {
    it('streams 50,000 payments as CSV in constant memory', async function () {
      this.timeout(600_000);
      const h = await getHarness();
      const m = await newMerchant();
      const ROWS = 50_000;
      const start = Date.parse('2023-01-01T00:00:00.000Z');
      let inserted = performance.now();
      const rows = Array.from({ length: ROWS }, (_, j) =>
        paymentRow(m.merchantId, { status: PAYMENT_STATUSES[j % PAYMENT_STATUSES.length]!, amount: 10_000 + j, merchant_reference: `bulk-${j}`, created_at: new Date(start + j * 30_000) }),
      );
      await insertPayments(h.db, rows);
      inserted = performance.now() - inserted;

      const url = `${h.baseUrl}/api/v1${reportPath('2023-01-01T00:00:00Z', '2023-02-01T00:00:00Z')}`;
      const heapBefore = process.memoryUsage().heapUsed;
      let heapPeak = heapBefore;
      const sampler = setInterval(() => {
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      }, 10);
      const started = performance.now();
      let firstByte = 0;
      let bytes = 0;
      let lines = 0;
      let chunks = 0;
      try {
        const res = await fetch(url, { headers: { authorization: `Bearer ${m.key}` } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-length'), null);
        const reader = res.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (chunks === 0) firstByte = performance.now() - started;
          chunks += 1;
          bytes += value.byteLength;
          for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines += 1;
          heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        }
      } finally {
        clearInterval(sampler);
      }
      const elapsed = performance.now() - started;
      const growthMb = (heapPeak - heapBefore) / 1024 / 1024;
      const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

      // For scale: what the same report takes when its rows and text are all held at once (measured between full collections).
      const gc = fullGc();
      gc();
      const heldBefore = process.memoryUsage().heapUsed;
      const held = await h.db.selectFrom('payments').selectAll().where('merchant_id', '=', m.merchantId).orderBy('created_at').orderBy('id').execute();
      const heldText = held.map((row) => reportLine(paymentFromRow(row))).join('');
      gc();
      const heldBytes = process.memoryUsage().heapUsed - heldBefore;
      assert.equal(heldText.length + PAYMENTS_REPORT_COLUMNS.join(',').length + 2, bytes, 'the streamed file is the report of every row');

      console.log(
        `      50k CSV: inserted ${ROWS} rows in ${Math.round(inserted)} ms; downloaded ${mb(bytes)} in ${Math.round(elapsed)} ms ` +
          `(first byte after ${Math.round(firstByte)} ms, ${chunks} chunks); heap ${mb(heapBefore)} → peak ${mb(heapPeak)} during the download, ` +
          `growth ${growthMb.toFixed(1)} MB; the rows and text held at once: ${mb(heldBytes)}`,
      );
      assert.equal(lines, ROWS + 1, 'the header and one line per payment');
      assert.ok(chunks > 10, 'written as it was read');
      assert.ok(growthMb < 40, `heap growth ${growthMb.toFixed(1)} MB stays well below what the rows take in memory (${mb(heldBytes)})`);

      // A MySQL failure after the first batch cuts the download short (no final chunk): the client cannot take it for complete.
      const cutUrl = (await startApi({ db: failingPaymentsDb(h.db, 1), logger: h.logger, temporalClient: h.temporal.client }, testConfig())) + url.slice(h.baseUrl.length);
      const cut = await fetch(cutUrl, { headers: { authorization: `Bearer ${m.key}` } });
      assert.equal(cut.status, 200);
      await assert.rejects(cut.text(), 'the body ends in an error, not a clean end');
    });
  });

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
      for (const [merchantId, mode, n] of [[a.merchantId, 'test', 3_000], [b.merchantId, 'test', 3_000], [a.merchantId, 'live', 1_000]] as const) {
        for (let i = 0; i < n; i++) {
          rows.push(paymentRow(merchantId, {
            mode,
            status: PAYMENT_STATUSES[randomInt(0, PAYMENT_STATUSES.length)]!,
            amount: randomInt(10_000, 50_000_000),
            merchant_reference: `order-${randomInt(0, 1_000_000)}`,
            created_at: new Date(start + randomInt(0, 30 * 86_400_000)),
          }));
        }
      }
      await insertPayments(h.db, rows, 1_000);
      sample = rows.find((r) => r.merchant_id === a.merchantId && r.mode === 'test' && r.rrn !== null)!;
      const refundable = rows.filter((r) => r.status === 'refunded' || r.status === 'partially_refunded');
      const statuses: Refund['status'][] = ['pending', 'succeeded', 'failed'];
      const refunds = refundable.flatMap((payment) => [0, 1].map((k) => ({ payment, status: statuses[randomInt(0, 3)]!, created_at: new Date(new Date(payment.created_at).getTime() + k * 60_000) })));
      for (let i = 0; i < refunds.length; i += 500) await insertRefunds(h.db, refunds.slice(i, i + 500));
      refundedPayment = refundable.find((r) => r.merchant_id === a.merchantId && r.mode === 'test')!.id;
      await logged.executeQuery(CompiledQuery.raw('ANALYZE TABLE payments, refunds'));
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
      console.log(`      EXPLAIN (MariaDB), filter → table: access type, key, rows examined (estimate)\n${report.map((l) => `        ${l}`).join('\n')}`);
    });

    /** Every table each query reads is read through an index: a key, and neither a full table scan nor a full index scan. */
    function assertIndexed(name: string, explained: { sql: string; plan: Plan[] }[]) {
      for (const { sql, plan } of explained) {
        for (const row of plan) {
          report.push(`${name} → ${row.table}: ${row.type}, ${row.key ?? 'NO KEY'}, ${row.rows}${row.Extra === null ? '' : ` (${row.Extra})`}`);
          assert.ok(row.key !== null, `${name}: ${row.table} is read without an index: ${JSON.stringify(row)}\n${sql}`);
          assert.ok(row.type !== 'ALL' && row.type !== 'index', `${name}: ${row.table} is scanned whole (${row.type}): ${JSON.stringify(row)}\n${sql}`);
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
        if (first.next_cursor !== null) assertIndexed(`payments ${name}, next page`, await plansOf(() => listPayments(logged, tenant, { ...query, cursor: first.next_cursor } as never)));
      }
    });

    it('every refund list filter reads through an index', async () => {
      for (const [name, query] of [
        ['no filter', {}],
        ['status', { status: 'failed' }],
        ['payment_id', { payment_id: refundedPayment }],
        ['created range', { created_gte: day(10), created_lt: day(11) }],
        ['status+created range', { status: 'pending', created_gte: day(10), created_lt: day(12) }],
      ] as const) {
        assertIndexed(`refunds ${name}`, await plansOf(() => listAllRefunds(logged, tenant, query)));
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
