/**
 * Reconciliation (issue #13): the payment list's filters (status lists,
 * merchant reference, tracking code, RRN, amount and date ranges) and the
 * list of all refunds, each kept to the caller's merchant and mode. Most rows
 * are written straight into MySQL; a real paid, verified and refunded payment
 * made through the API is among them.
 */
import assert from 'node:assert/strict';
import type { NewPaymentRow } from '../../src/db/database.ts';
import { paymentFromRow } from '../../src/db/payments.ts';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../src/domain/payment.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client, type TestResponse } from '../support/http.ts';
import { createdPayment } from '../support/payments.ts';
import {
  insertPayments,
  insertRefunds,
  newestFirst,
  paymentRow,
  writtenBy,
  type ErrorBody,
  type RefundSeed,
} from '../support/merchant-export.ts';
import { approveTypedIban, REFUND_IBAN, verifiedPayment, waitForRefund } from '../support/refunds.ts';

interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

type Api = ReturnType<typeof client>;

/** Every page of a list, `limit` at a time, following next_cursor; checks that no row repeats. */
async function allPages<T extends { id: string }>(
  api: Api,
  path: string,
  query: Record<string, string>,
  limit = 3,
): Promise<{ ids: string[]; pages: number }> {
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
      const refunded = await api.post<{ refund: Refund }>(`/payments/${real.id}/refunds`, {
        destination_iban: REFUND_IBAN,
        amount: 300_000,
      });
      assert.equal(refunded.status, 201, refunded.text);
      await approveTypedIban(refunded.body.refund);
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
        {
          ...paymentRow(merchantId, {
            mode: 'live',
            status: row.status as PaymentStatus,
            amount: Number(row.amount),
            merchant_reference: row.merchant_reference,
            created_at: row.created_at,
          }),
          rrn: row.rrn ?? null,
        },
        {
          ...paymentRow(other.merchantId, {
            status: row.status as PaymentStatus,
            amount: Number(row.amount),
            merchant_reference: row.merchant_reference,
            created_at: row.created_at,
          }),
          rrn: row.rrn ?? null,
        },
      ]);
      twinRows.push({
        ...paymentRow(other.merchantId, {
          status: 'verified',
          amount: real.amount,
          merchant_reference: real.merchant_reference,
          created_at: new Date(real.created_at),
        }),
        rrn: real.rrn,
      });
      await insertPayments(h.db, [...seeded, ...twinRows]);

      // Refunds: of the merchant's refundable seeded payments, in each status, an hour apart; twins in live mode and at the other merchant.
      const refundable = seeded.filter((r) => r.status === 'partially_refunded' || r.status === 'refunded');
      const statuses: Refund['status'][] = ['pending', 'succeeded', 'failed'];
      const seeds: RefundSeed[] = [];
      for (let i = 0; i < 12; i++)
        seeds.push({ payment: refundable[i % 5]!, status: statuses[i % 3]!, created_at: hour(40 + i) });
      const ids = await insertRefunds(h.db, seeds);
      refundRows = seeds.map((s, i) => ({
        id: ids[i]!,
        payment_id: s.payment.id,
        status: s.status,
        created_at: s.created_at.toISOString(),
      }));
      const twinRefundable = twinRows.filter((r) => r.status === 'refunded' || r.status === 'partially_refunded');
      await insertRefunds(
        h.db,
        twinRefundable.map((payment, i) => ({ payment, status: statuses[i % 3]!, created_at: hour(40 + i) })),
      );

      const rows = await h.db
        .selectFrom('payments')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('mode', '=', 'test')
        .execute();
      universe = rows.map(paymentFromRow);
      assert.equal(universe.length, 32);
    });

    /** The filter's answer through the API, page by page, equals the oracle's, newest first; and it is a real selection. */
    async function assertFilter(query: Record<string, string>, predicate: (p: Payment) => boolean, limit = 3) {
      const expected = universe
        .filter(predicate)
        .sort(newestFirst)
        .map((p) => p.id);
      assert.ok(
        expected.length > 0 && expected.length < universe.length,
        `the filter ${JSON.stringify(query)} selects some payments, not all`,
      );
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
      await assertFilter(
        { created_gte: '2025-03-01T05:30:00+03:30', created_lt: '2025-03-01T08:00:00+03:30' },
        (p) => p.created_at >= hour(2).toISOString() && p.created_at < hour(4.5).toISOString(),
      );
    });

    it('takes a comma-separated list of statuses, and one status as before', async () => {
      await assertFilter({ status: 'paid,verified' }, (p) => p.status === 'paid' || p.status === 'verified');
      await assertFilter({ status: 'refunded,partially_refunded,failed' }, (p) =>
        ['refunded', 'partially_refunded', 'failed'].includes(p.status),
      );
      await assertFilter({ status: 'verified,verified' }, (p) => p.status === 'verified');
      await assertFilter({ status: 'created' }, (p) => p.status === 'created');
    });

    it('combines filters, page by page', async () => {
      const from = hour(5).toISOString();
      const to = hour(26).toISOString();
      await assertFilter(
        { status: 'paid,verified,refunded', amount_gte: '700000', created_gte: from, created_lt: to },
        (p) =>
          ['paid', 'verified', 'refunded'].includes(p.status) &&
          p.amount >= 700_000 &&
          p.created_at >= from &&
          p.created_at < to,
        1,
      );
      await assertFilter(
        { merchant_reference: 'order-shared', amount_lte: '2000000' },
        (p) => p.merchant_reference === 'order-shared' && p.amount <= 2_000_000,
        1,
      );
      // The real payment is partially refunded by now.
      await assertFilter(
        { status: 'verified,partially_refunded', rrn: real.rrn! },
        (p) => p.rrn === real.rrn && ['verified', 'partially_refunded'].includes(p.status),
      );
      await assertFilter(
        { tracking_code: real.tracking_code, amount_gte: String(real.amount) },
        (p) => p.id === real.id,
      );
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
      const queries: Record<string, string>[] = [
        {},
        { status: 'verified,refunded' },
        { merchant_reference: 'order-shared' },
        { rrn: real.rrn! },
        { amount_gte: '1' },
        { created_gte: hour(0).toISOString(), created_lt: hour(30).toISOString() },
      ];
      for (const query of queries) {
        const { ids } = await allPages<Payment>(api, '/payments', query, 50);
        assert.ok(ids.length > 0);
        assert.ok(
          ids.every((id) => ours.has(id) && !twins.has(id)),
          JSON.stringify(query),
        );
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
        assert.ok(
          res.body.details?.some((d) => d.path === path),
          `${query}: ${res.text}`,
        );
      }
      assert.equal(await writtenBy(h.db, merchantId), before);
    });

    it("GET /refunds lists all the merchant's refunds, newest first, with each filter and paging", async () => {
      const h = await getHarness();
      const all = [
        ...refundRows,
        {
          id: realRefund.id,
          payment_id: realRefund.payment_id,
          status: realRefund.status,
          created_at: realRefund.created_at,
        },
      ];
      const expect = async (
        query: Record<string, string>,
        predicate: (r: (typeof all)[number]) => boolean,
        limit = 4,
      ) => {
        const expected = all
          .filter(predicate)
          .sort(newestFirst)
          .map((r) => r.id);
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
      await expect(
        { status: 'succeeded', created_gte: hour(41).toISOString(), created_lt: hour(50).toISOString() },
        (r) =>
          r.status === 'succeeded' && r.created_at >= hour(41).toISOString() && r.created_at < hour(50).toISOString(),
      );
      await expect(
        { status: 'pending', payment_id: somePayment },
        (r) => r.status === 'pending' && r.payment_id === somePayment,
      );

      // The whole list holds the merchant's test-mode refunds and nothing else; the other merchant sees only its own.
      const { ids } = await allPages<Refund>(api, '/refunds', {}, 100);
      assert.equal(ids.length, all.length);
      const theirs = await allPages<Refund>(client(h.baseUrl, other.key), '/refunds', {}, 100);
      assert.ok(theirs.ids.length > 0 && theirs.ids.every((id) => !ids.includes(id)));
      const ofOurPayment = await client(h.baseUrl, other.key).get<Page<Refund>>(`/refunds?payment_id=${real.id}`);
      assert.deepEqual(ofOurPayment.body.data, []);
      const live = await h.db
        .selectFrom('refunds')
        .select('id')
        .where('merchant_id', '=', merchantId)
        .where('mode', '=', 'live')
        .execute();
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
        assert.ok(
          res.body.details?.some((d) => d.path === path),
          `${query}: ${res.text}`,
        );
      }
      assert.equal(await writtenBy(h.db, merchantId), before);
    });
  });
});
