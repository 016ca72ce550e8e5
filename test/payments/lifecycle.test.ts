import assert from 'node:assert/strict';
import { bankOperations } from '../support/bank.ts';
import { apiWith, getHarness, newMerchant, apiWithDeadTemporal, testConfig } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { chooseOutcome, createdPayment, paidPayment, waitForStatus } from '../support/payments.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

type Body = { payment: Payment; code?: string };

async function ledger(paymentId: string) {
  return (await bankOperations(paymentId)).map(({ kind, amount }) => ({ kind, amount }));
}

describe('the payment lifecycle', () => {
  let baseUrl: string;
  let key: string;
  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
    key = (await newMerchant()).key;
  });

  describe('bank outcomes on the test bank', () => {
    it('success: paid, with bank fields, paid_at and verify_deadline_at = paid_at + the verify window', async () => {
      const p = await createdPayment(baseUrl, key);
      const res = await chooseOutcome(baseUrl, p.id, 'success');
      assert.equal(res.status, 303);
      assert.match(res.headers.get('location') ?? '', new RegExp(`/pay/${p.id}/result`));
      const paid = await waitForStatus(baseUrl, key, p.id, 'paid');
      assert.match(
        paid.reference_id ?? '',
        /^[A-Za-z0-9+/]{50}$/,
        "SEP's RefNum: a Base64-like digital receipt (docs/psps/sep.md)",
      );
      assert.match(paid.rrn ?? '', /^[0-9]{12}$/);
      assert.match(paid.card_pan ?? '', /^603799\*{6}[0-9]{4}$/);
      assert.ok(paid.paid_at !== null);
      assert.equal(
        Date.parse(paid.verify_deadline_at!) - Date.parse(paid.paid_at),
        testConfig().VERIFY_WINDOW_SECONDS * 1000,
      );
      assert.equal(paid.fee, 0);
      assert.deepEqual(await ledger(p.id), [{ kind: 'confirm', amount: p.amount }]);
    });

    it('failure: failed, with the reason', async () => {
      const p = await createdPayment(baseUrl, key);
      await chooseOutcome(baseUrl, p.id, 'failure');
      const failed = await waitForStatus(baseUrl, key, p.id, 'failed');
      assert.equal(failed.failure?.code, 'card_declined');
      assert.equal(failed.paid_at, null);
      assert.deepEqual(await ledger(p.id), []);
    });

    it('cancel: canceled', async () => {
      const p = await createdPayment(baseUrl, key);
      await chooseOutcome(baseUrl, p.id, 'cancel');
      const canceled = await waitForStatus(baseUrl, key, p.id, 'canceled');
      assert.equal(canceled.failure?.code, 'canceled_by_customer');
    });

    it('delay: pending first, then confirmed as paid by a durable timer', async () => {
      const p = await createdPayment(baseUrl, key);
      await chooseOutcome(baseUrl, p.id, 'delay');
      const pending = await waitForStatus(baseUrl, key, p.id, 'pending');
      assert.equal(pending.paid_at, null);
      const paid = await waitForStatus(baseUrl, key, p.id, 'paid');
      assert.ok(paid.paid_at !== null);
    });

    it('a second choice after the first changes nothing', async () => {
      const p = await createdPayment(baseUrl, key);
      await chooseOutcome(baseUrl, p.id, 'failure');
      await waitForStatus(baseUrl, key, p.id, 'failed');
      await chooseOutcome(baseUrl, p.id, 'success');
      await new Promise((r) => setTimeout(r, 500));
      const res = await client(baseUrl, key).get<Body>(`/payments/${p.id}`);
      assert.equal(res.body.payment.status, 'failed');
      assert.deepEqual(await ledger(p.id), []);
    });
  });

  describe('verify in every state', () => {
    const verify = (id: string, amount: number, k = key) =>
      client(baseUrl, k).post<Body>(`/payments/${id}/verify`, { amount });

    it('paid + the right amount → 200 verified, verified_at and the fee set', async () => {
      const p = await paidPayment(baseUrl, key, { amount: 2_000_000 });
      const res = await verify(p.id, 2_000_000);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.payment.status, 'verified');
      assert.ok(res.body.payment.verified_at !== null);
      // The test merchant has the default plan (FEE_BPS 100, FEE_MIN 1 000, FEE_MAX 400 000): 1 % of 2 000 000.
      assert.equal(res.body.payment.fee, 20_000);
      const stored = await client(baseUrl, key).get<Body>(`/payments/${p.id}`);
      assert.deepEqual(stored.body.payment, res.body.payment);
    });

    it('verifying again with the same amount answers the same 200 (idempotent)', async () => {
      const p = await paidPayment(baseUrl, key);
      const first = await verify(p.id, p.amount);
      const second = await verify(p.id, p.amount);
      assert.equal(second.status, 200);
      assert.deepEqual(second.body, first.body);
    });

    it('a wrong amount → 422 amount_mismatch and the payment stays paid', async () => {
      const p = await paidPayment(baseUrl, key);
      const res = await verify(p.id, p.amount + 1);
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'amount_mismatch');
      const stored = await client(baseUrl, key).get<Body>(`/payments/${p.id}`);
      assert.equal(stored.body.payment.status, 'paid');
      assert.equal(stored.body.payment.fee, 0);
    });

    it('a wrong amount on a verified payment → 422 amount_mismatch', async () => {
      const p = await paidPayment(baseUrl, key);
      await verify(p.id, p.amount);
      const res = await verify(p.id, p.amount - 1);
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'amount_mismatch');
    });

    it('created → 409 payment_not_paid', async () => {
      const p = await createdPayment(baseUrl, key);
      const res = await verify(p.id, p.amount);
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'payment_not_paid');
    });

    for (const outcome of ['failure', 'cancel'] as const) {
      it(`${outcome === 'failure' ? 'failed' : 'canceled'} → 409 payment_not_paid`, async () => {
        const p = await createdPayment(baseUrl, key);
        await chooseOutcome(baseUrl, p.id, outcome);
        await waitForStatus(baseUrl, key, p.id, outcome === 'failure' ? 'failed' : 'canceled');
        const res = await verify(p.id, p.amount);
        assert.equal(res.status, 409);
        assert.equal(res.body.code, 'payment_not_paid');
      });
    }

    it('pending → 409 payment_pending (retry later)', async () => {
      const slow = await apiWith({ BANK_RECONFIRM_AFTER_SECONDS: '30' });
      const p = await createdPayment(slow, key);
      await chooseOutcome(slow, p.id, 'delay');
      await waitForStatus(slow, key, p.id, 'pending');
      const res = await client(slow, key).post<Body>(`/payments/${p.id}/verify`, { amount: p.amount });
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'payment_pending');
    });

    it('a missing or non-integer amount → 422 validation_failed', async () => {
      const p = await paidPayment(baseUrl, key);
      for (const body of [{}, { amount: '1' }, { amount: 1.5 }, { amount: 1, extra: true }]) {
        const res = await client(baseUrl, key).post(`/payments/${p.id}/verify`, body);
        assert.equal(res.status, 422, JSON.stringify(body));
        assert.equal(res.body.code, 'validation_failed');
      }
    });

    it('concurrent verifies make one transition and every caller gets the same verified payment', async () => {
      const h = await getHarness();
      const p = await paidPayment(baseUrl, key);
      const results = await Promise.all(Array.from({ length: 10 }, () => verify(p.id, p.amount)));
      for (const r of results) assert.equal(r.status, 200, r.text);
      const verifiedAt = new Set(results.map((r) => r.body.payment.verified_at));
      assert.equal(verifiedAt.size, 1);
      const row = await h.db
        .selectFrom('payments')
        .select(['status', 'version'])
        .where('id', '=', p.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        row,
        { status: 'verified', version: 3 },
        'created(1) → paid(2) → verified(3): one verify transition',
      );
    });

    it('an unknown payment → 404 payment_not_found', async () => {
      const res = await verify('00000000-0000-4000-8000-000000000000', 10_000);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'payment_not_found');
    });

    it('Temporal unreachable while verifying → 503 service_unavailable, the payment stays paid', async () => {
      const p = await paidPayment(baseUrl, key);
      const broken = await apiWithDeadTemporal();
      const res = await client(broken, key).post<Body>(`/payments/${p.id}/verify`, { amount: p.amount });
      assert.equal(res.status, 503);
      assert.equal(res.body.code, 'service_unavailable');
      const after = await verify(p.id, p.amount);
      assert.equal(after.status, 200, 'a retry on a healthy API verifies');
    });
  });

  describe('durable timers', () => {
    it('a payment not paid before expires_at expires, and a late bank answer does not pay it', async () => {
      const shortLived = await apiWith({ PAYMENT_TTL_SECONDS: '2' });
      const p = await createdPayment(shortLived, key);
      const expired = await waitForStatus(shortLived, key, p.id, 'expired');
      assert.equal(expired.failure?.code, 'payment_expired');
      await chooseOutcome(shortLived, p.id, 'success');
      await new Promise((r) => setTimeout(r, 500));
      const res = await client(baseUrl, key).get<Body>(`/payments/${p.id}`);
      assert.equal(res.body.payment.status, 'expired');
      assert.deepEqual(await ledger(p.id), []);
      const verify = await client(baseUrl, key).post<Body>(`/payments/${p.id}/verify`, { amount: p.amount });
      assert.equal(verify.body.code, 'payment_not_paid');
    });

    it('a paid payment not verified by verify_deadline_at is reversed: full amount back once, no fee', async () => {
      const shortWindow = await apiWith({ VERIFY_WINDOW_SECONDS: '2' });
      const p = await paidPayment(shortWindow, key, { amount: 3_000_000 });
      const reversed = await waitForStatus(shortWindow, key, p.id, 'reversed');
      assert.equal(reversed.refunded_amount, 3_000_000);
      assert.equal(reversed.fee, 0);
      assert.equal(reversed.verified_at, null);
      assert.deepEqual(await ledger(p.id), [
        { kind: 'confirm', amount: 3_000_000 },
        { kind: 'reverse', amount: 3_000_000 },
      ]);
      const res = await client(shortWindow, key).post<Body>(`/payments/${p.id}/verify`, { amount: p.amount });
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'verify_deadline_passed');
    });

    it('a payment verified in time is not reversed when the deadline passes', async () => {
      const shortWindow = await apiWith({ VERIFY_WINDOW_SECONDS: '3' });
      const p = await paidPayment(shortWindow, key);
      const ok = await client(shortWindow, key).post<Body>(`/payments/${p.id}/verify`, { amount: p.amount });
      assert.equal(ok.status, 200, ok.text);
      await new Promise((r) => setTimeout(r, 4_000));
      const res = await client(baseUrl, key).get<Body>(`/payments/${p.id}`);
      assert.equal(res.body.payment.status, 'verified');
      // SEP's verify at the return captured: the merchant's verify asks the bank nothing (no settle).
      assert.deepEqual(
        (await ledger(p.id)).map((o) => o.kind),
        ['confirm'],
      );
    });
  });
});

describe('reading payments', () => {
  let baseUrl: string;
  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
  });

  it('GET /payments/{id} returns the recorded payment', async () => {
    const { key } = await newMerchant();
    const p = await createdPayment(baseUrl, key);
    const res = await client(baseUrl, key).get<Body>(`/payments/${p.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.payment, p);
  });

  it("another merchant's payment is 404 payment_not_found everywhere, and absent from its list", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const p = await paidPayment(baseUrl, a.key);
    const asB = client(baseUrl, b.key);
    for (const res of [
      await asB.get(`/payments/${p.id}`),
      await asB.post(`/payments/${p.id}/verify`, { amount: p.amount }),
    ]) {
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'payment_not_found');
    }
    const list = await asB.get<{ data: Payment[] }>('/payments');
    assert.equal(list.body.data.length, 0);
    const stillPaid = await client(baseUrl, a.key).get<Body>(`/payments/${p.id}`);
    assert.equal(stillPaid.body.payment.status, 'paid');
  });

  it('lists newest first with cursor pagination that neither skips nor repeats', async () => {
    const { key } = await newMerchant();
    const created: string[] = [];
    for (let i = 0; i < 5; i++)
      created.push((await createdPayment(baseUrl, key, { merchant_reference: `page-${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${cursor}`;
      const res = await client(baseUrl, key).get<{ data: Payment[]; has_more: boolean; next_cursor: string | null }>(
        `/payments${q}`,
      );
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.data.map((p) => p.id));
      cursor = res.body.next_cursor;
      assert.equal(res.body.has_more, cursor !== null);
      pages += 1;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...created].reverse());
  });

  it('filters by status, merchant_reference and created range', async () => {
    const { key } = await newMerchant();
    const first = await createdPayment(baseUrl, key, { merchant_reference: 'filter-a' });
    const second = await createdPayment(baseUrl, key, { merchant_reference: 'filter-b' });
    await chooseOutcome(baseUrl, second.id, 'cancel');
    await waitForStatus(baseUrl, key, second.id, 'canceled');
    const api = client(baseUrl, key);
    const byStatus = await api.get<{ data: Payment[] }>('/payments?status=canceled');
    assert.deepEqual(
      byStatus.body.data.map((p) => p.id),
      [second.id],
    );
    const byRef = await api.get<{ data: Payment[] }>('/payments?merchant_reference=filter-a');
    assert.deepEqual(
      byRef.body.data.map((p) => p.id),
      [first.id],
    );
    const byRange = await api.get<{ data: Payment[] }>(
      `/payments?created_gte=${encodeURIComponent(second.created_at)}`,
    );
    assert.deepEqual(
      byRange.body.data.map((p) => p.id),
      [second.id],
    );
    const before = await api.get<{ data: Payment[] }>(`/payments?created_lt=${encodeURIComponent(second.created_at)}`);
    assert.deepEqual(
      before.body.data.map((p) => p.id),
      [first.id],
    );
  });

  it('refuses bad list parameters with 422 validation_failed', async () => {
    const { key } = await newMerchant();
    for (const q of [
      '?limit=0',
      '?limit=101',
      '?status=lost',
      '?created_gte=yesterday',
      '?cursor=bm90LWEtY3Vyc29y',
      '?colour=red',
    ]) {
      const res = await request(baseUrl, 'GET', `/api/v1/payments${q}`, { key });
      assert.equal(res.status, 422, q);
      assert.equal(res.body.code, 'validation_failed', q);
    }
  });
});
