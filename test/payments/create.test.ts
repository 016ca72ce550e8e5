import assert from 'node:assert/strict';
import { getHarness, newMerchant, apiWithDeadTemporal, testConfig } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { createPayment, paymentRequest, type CreateResponse } from '../support/payments.ts';
import { paymentQuery, paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import { PaymentSchema } from '../../src/domain/payment-schemas.ts';

async function paymentCount(merchantId: string): Promise<number> {
  const h = await getHarness();
  const row = await h.db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /api/v1/payments', () => {
  let baseUrl: string;
  let merchant: Awaited<ReturnType<typeof newMerchant>>;
  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
    merchant = await newMerchant();
  });

  it('answers 201 with every field of the Payment at its initial value and the payment page address', async () => {
    const before = Date.now();
    const body = paymentRequest({ amount: 1_250_000, merchant_reference: 'order-initial' });
    const res = await request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', { key: merchant.key, body });
    assert.equal(res.status, 201, res.text);
    const p = res.body.payment;
    // `splits` is there only on a payment created with splits (test/settlements/splits.test.ts).
    assert.deepEqual(
      Object.keys(p).sort(),
      Object.keys(PaymentSchema.properties)
        .filter((k) => k !== 'splits')
        .sort(),
    );
    assert.match(p.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(p.status, 'created');
    assert.equal(p.mode, 'test');
    assert.equal(p.amount, 1_250_000);
    assert.equal(p.fee, 0);
    assert.equal(p.refunded_amount, 0);
    assert.equal(p.currency, 'IRR');
    assert.equal(p.merchant_reference, 'order-initial');
    assert.match(p.tracking_code, /^[0-9]{12}$/);
    assert.equal(p.reference_id, null);
    assert.equal(p.rrn, null);
    assert.equal(p.card_pan, null);
    assert.equal(p.description, body.description);
    assert.deepEqual(p.metadata, {});
    assert.equal(p.failure, null);
    assert.match(p.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Date.parse(p.created_at) >= before - 5 && Date.parse(p.created_at) <= Date.now() + 5);
    assert.equal(p.paid_at, null);
    assert.equal(p.verified_at, null);
    assert.equal(p.verify_deadline_at, null);
    assert.equal(Date.parse(p.expires_at) - Date.parse(p.created_at), testConfig().PAYMENT_TTL_SECONDS * 1000);
    assert.equal(p.settlement_status, 'not_applicable');
    assert.equal(res.body.payment_url, `${baseUrl}/pay/${p.id}`);
  });

  it('records the payment in MySQL and starts its workflow with the operator search attributes', async () => {
    const h = await getHarness();
    const res = await createPayment(baseUrl, merchant.key, { merchant_reference: 'order-sa', amount: 777_000 });
    const id = res.body.payment.id;
    const row = await h.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'created');
    assert.equal(row.version, 1);
    assert.equal(row.mobile, '09121234567');
    const handle = h.temporal.client.workflow.getHandle(paymentWorkflowId(id));
    const description = await handle.describe();
    assert.equal(description.status.name, 'RUNNING');
    const attrs = Object.fromEntries(description.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
    assert.deepEqual(attrs, {
      PaymentStatus: 'created',
      MerchantId: merchant.merchantId,
      MerchantReference: 'order-sa',
      PaymentMode: 'test',
      PaymentAmount: 777_000,
    });
    const live = await handle.query(paymentQuery);
    assert.deepEqual(live, res.body.payment);
  });

  describe('validation: each error is 422 validation_failed naming the field, and nothing is written', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['amount missing', { amount: undefined }, 'amount'],
      ['amount as a string', { amount: '150000' }, 'amount'],
      ['amount with a fraction', { amount: 150000.5 }, 'amount'],
      ['amount below the minimum', { amount: 9_999 }, 'amount'],
      ['amount above the maximum', { amount: 500_000_001 }, 'amount'],
      ['callback_url missing', { callback_url: undefined }, 'callback_url'],
      ['callback_url not a URL', { callback_url: 'not a url' }, 'callback_url'],
      ['merchant_reference missing', { merchant_reference: undefined }, 'merchant_reference'],
      ['merchant_reference empty', { merchant_reference: '' }, 'merchant_reference'],
      ['merchant_reference too long', { merchant_reference: 'r'.repeat(65) }, 'merchant_reference'],
      ['merchant_reference with a control character', { merchant_reference: 'order\n1' }, 'merchant_reference'],
      ['description too long', { description: 'd'.repeat(256) }, 'description'],
      ['description with a bidi override', { description: 'abc\u202Edef' }, 'description'],
      ['mobile not a national mobile number', { mobile: '9121234567' }, 'mobile'],
      ['an unknown field', { currency: 'USD' }, 'currency'],
    ];
    for (const [name, overrides, path] of cases) {
      it(name, async () => {
        const m = await newMerchant();
        const body: Record<string, unknown> = paymentRequest(overrides);
        for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete body[k];
        const res = await request(baseUrl, 'POST', '/api/v1/payments', {
          key: m.key,
          body,
          idempotencyKey: `bad-${name}`,
        });
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(
          (res.body.details as { path: string }[]).some((d) => d.path === path),
          res.text,
        );
        assert.equal(await paymentCount(m.merchantId), 0);
        const h = await getHarness();
        const keys = await h.db
          .selectFrom('idempotency_keys')
          .select('idempotency_key')
          .where('merchant_id', '=', m.merchantId)
          .execute();
        assert.deepEqual(keys, []);
      });
    }

    it('a body that is not an object', async () => {
      const res = await request(baseUrl, 'POST', '/api/v1/payments', { key: merchant.key, body: [1, 2] });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'validation_failed');
    });

    it('no body at all', async () => {
      const res = await request(baseUrl, 'POST', '/api/v1/payments', { key: merchant.key });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'validation_failed');
    });
  });

  describe('callback_url must be on a registered domain', () => {
    for (const [name, url] of [
      ['another host', 'https://evil.example/return'],
      ['a look-alike suffix', 'https://notlocalhost/return'],
      ['plain http on a real domain', 'http://shop.example/return'],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['credentials in the URL', 'http://user:pw@localhost/return'],
    ] as const) {
      it(`refuses ${name} with 422 callback_url_not_allowed`, async () => {
        const m = await newMerchant();
        const res = await createPayment(baseUrl, m.key, { callback_url: url });
        assert.equal(res.status, 422, res.text);
        assert.equal((res.body as unknown as { code: string }).code, 'callback_url_not_allowed');
        assert.equal(await paymentCount(m.merchantId), 0);
      });
    }

    it('accepts https on a subdomain of a registered domain', async () => {
      const m = await newMerchant('shop.example');
      const res = await createPayment(baseUrl, m.key, { callback_url: 'https://pay.shop.example/back?order=9' });
      assert.equal(res.status, 201, res.text);
    });
  });

  describe('authentication', () => {
    it('no Authorization header → 401 missing_api_key', async () => {
      const res = await request(baseUrl, 'POST', '/api/v1/payments', { body: paymentRequest() });
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'missing_api_key');
    });
    for (const [name, header] of [
      ['a malformed key', 'Bearer nonsense'],
      ['a well-formed unknown key', `Bearer sk_test_${'A'.repeat(43)}`],
      ['a Basic scheme', 'Basic dXNlcjpwYXNz'],
    ] as const) {
      it(`${name} → 401 invalid_api_key`, async () => {
        const res = await request(baseUrl, 'POST', '/api/v1/payments', {
          body: paymentRequest(),
          headers: { authorization: header },
        });
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'invalid_api_key');
      });
    }
    it('a key whose secret part is wrong but prefix right → 401 invalid_api_key', async () => {
      const forged = merchant.key.slice(0, -4) + (merchant.key.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      const res = await client(baseUrl, forged).get('/payments');
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'invalid_api_key');
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body', async () => {
      const m = await newMerchant();
      const body = paymentRequest();
      const first = await request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
        key: m.key,
        body,
        idempotencyKey: 'k-1',
      });
      const second = await request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
        key: m.key,
        body,
        idempotencyKey: 'k-1',
      });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.equal(first.headers.get('idempotent-replayed'), null);
      assert.deepEqual(second.body, first.body);
      assert.equal(await paymentCount(m.merchantId), 1);
    });

    it('refuses the same key with another body: 422 idempotency_key_reused', async () => {
      const m = await newMerchant();
      await createPayment(baseUrl, m.key, { amount: 20_000 }, 'k-2');
      const res = await createPayment(baseUrl, m.key, { amount: 30_000 }, 'k-2');
      assert.equal(res.status, 422);
      assert.equal((res.body as unknown as { code: string }).code, 'idempotency_key_reused');
      assert.equal(await paymentCount(m.merchantId), 1);
    });

    it('scopes keys per merchant: two merchants may use the same key', async () => {
      const a = await newMerchant();
      const b = await newMerchant();
      const body = paymentRequest();
      const ra = await request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
        key: a.key,
        body,
        idempotencyKey: 'shared',
      });
      const rb = await request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
        key: b.key,
        body,
        idempotencyKey: 'shared',
      });
      assert.equal(ra.status, 201);
      assert.equal(rb.status, 201);
      assert.notEqual(ra.body.payment.id, rb.body.payment.id);
    });

    it('10 concurrent creates with one key make exactly one payment', async () => {
      const m = await newMerchant();
      const body = paymentRequest();
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', { key: m.key, body, idempotencyKey: 'storm' }),
        ),
      );
      for (const r of results)
        assert.ok(
          r.status === 201 ||
            (r.status === 409 && (r.body as unknown as { code: string }).code === 'idempotency_key_in_use'),
          r.text,
        );
      assert.equal(await paymentCount(m.merchantId), 1);
      const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.payment.id));
      assert.equal(ids.size, 1);
      const after = await request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
        key: m.key,
        body,
        idempotencyKey: 'storm',
      });
      assert.equal(after.status, 201);
      assert.ok(ids.has(after.body.payment.id));
    });

    it('a create that failed half-way (row written, Temporal down) is completed by the retry, never duplicated', async () => {
      const h = await getHarness();
      const m = await newMerchant();
      const broken = await apiWithDeadTemporal();
      const body = paymentRequest();
      const failed = await request(broken, 'POST', '/api/v1/payments', { key: m.key, body, idempotencyKey: 'half' });
      assert.equal(failed.status, 503, failed.text);
      assert.equal(failed.body.code, 'service_unavailable');
      assert.ok(failed.headers.get('retry-after'));
      assert.doesNotMatch(failed.text, /at |Error:/);
      assert.equal(await paymentCount(m.merchantId), 1, 'the record was written before the workflow start failed');

      const retried = await request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
        key: m.key,
        body,
        idempotencyKey: 'half',
      });
      assert.equal(retried.status, 201, retried.text);
      assert.equal(await paymentCount(m.merchantId), 1);
      const description = await h.temporal.client.workflow
        .getHandle(paymentWorkflowId(retried.body.payment.id))
        .describe();
      assert.equal(description.status.name, 'RUNNING');
    });

    it('without a key, a create that cannot start its workflow leaves no record behind', async () => {
      const m = await newMerchant();
      const broken = await apiWithDeadTemporal();
      const failed = await request(broken, 'POST', '/api/v1/payments', { key: m.key, body: paymentRequest() });
      assert.equal(failed.status, 503);
      assert.equal(await paymentCount(m.merchantId), 0);
    });
  });
});
