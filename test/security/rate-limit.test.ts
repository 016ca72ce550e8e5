import assert from 'node:assert/strict';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client, request, type TestResponse } from '../support/http.ts';
import { createPayment } from '../support/payments.ts';

function assertRateLimited(res: TestResponse, limit: number) {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.body.code, 'rate_limited');
  assert.match(String(res.body.request_id), /^req_[0-9a-f]{32}$/);
  assert.equal(res.headers.get('ratelimit-limit'), String(limit));
  assert.equal(res.headers.get('ratelimit-remaining'), '0');
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${res.headers.get('retry-after')}`);
  assert.equal(res.headers.get('ratelimit-reset'), String(retryAfter));
}

/** Fixed windows are aligned to the clock: start a test well inside one, so that it cannot straddle two. */
async function insideWindow(windowSeconds: number, needSeconds: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needSeconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

async function paymentCount(merchantId: string): Promise<number> {
  const h = await getHarness();
  const row = await h.db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('rate limits', () => {
  // An hour-long window: a test never sees the window turn over.
  const perKey = { RATE_LIMIT_REQUESTS: '5', RATE_LIMIT_WINDOW_SECONDS: '3600' };

  it('counts every request of a key in RateLimit-* headers and answers 429 rate_limited with Retry-After past the limit', async () => {
    await insideWindow(3600, 30);
    const baseUrl = await apiWith(perKey);
    const m = await newMerchant();
    const api = client(baseUrl, m.key);
    for (let i = 1; i <= 5; i++) {
      const res = await api.get('/payments');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('ratelimit-limit'), '5');
      assert.equal(res.headers.get('ratelimit-remaining'), String(5 - i));
      const reset = Number(res.headers.get('ratelimit-reset'));
      assert.ok(reset >= 1 && reset <= 3600, `reset ${reset}`);
    }
    assertRateLimited(await api.get('/payments'), 5);
    // Errors count and carry the headers too: a 404 is still a request.
    assertRateLimited(await api.get('/payments/00000000-0000-4000-8000-000000000000'), 5);
    // The limit is the key's: another merchant's key is untouched.
    const other = await newMerchant();
    const fresh = await client(baseUrl, other.key).get('/payments');
    assert.equal(fresh.status, 200);
    assert.equal(fresh.headers.get('ratelimit-remaining'), '4');
  });

  it('does not count unauthenticated requests against anyone, and leaves health and hosted pages unlimited', async () => {
    const baseUrl = await apiWith(perKey);
    for (let i = 0; i < 7; i++) {
      const res = await request(baseUrl, 'GET', '/api/v1/payments');
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('ratelimit-limit'), null);
    }
    for (let i = 0; i < 7; i++) assert.equal((await request(baseUrl, 'GET', '/healthz')).status, 200);
  });

  it('with the mysql store, the limit is exact across API processes sharing one database', async () => {
    await insideWindow(3600, 30);
    const [a, b] = [await apiWith(perKey), await apiWith(perKey)];
    const m = await newMerchant();
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client(i % 2 === 0 ? a : b, m.key)
          .get('/payments')
          .then((r) => r.status),
      ),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 5, String(statuses));
    assert.equal(statuses.filter((s) => s === 429).length, 7, String(statuses));
  });

  it('with the memory store, each process counts on its own', async () => {
    await insideWindow(3600, 30);
    const config = { ...perKey, RATE_LIMIT_STORE: 'memory' };
    const [a, b] = [await apiWith(config), await apiWith(config)];
    const m = await newMerchant();
    for (const baseUrl of [a, b]) {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await client(baseUrl, m.key).get('/payments')).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    }
  });

  it('bounds the payments a merchant creates per minute in test mode, and writes nothing past the bound', async () => {
    await insideWindow(60, 20);
    const baseUrl = await apiWith({ TEST_PAYMENTS_PER_MINUTE: '3' });
    const m = await newMerchant();
    for (let i = 0; i < 3; i++) assert.equal((await createPayment(baseUrl, m.key)).status, 201);
    const refused = await createPayment(baseUrl, m.key, {}, 'over-quota');
    assertRateLimited(refused as unknown as TestResponse, 3);
    assert.ok(Number(refused.headers.get('retry-after')) <= 60);
    assert.equal(await paymentCount(m.merchantId), 3);
    const h = await getHarness();
    assert.deepEqual(
      await h.db
        .selectFrom('idempotency_keys')
        .select('idempotency_key')
        .where('merchant_id', '=', m.merchantId)
        .execute(),
      [],
    );
    // Reads go on, and the quota is per merchant.
    assert.equal((await client(baseUrl, m.key).get('/payments')).status, 200);
    const other = await newMerchant();
    assert.equal((await createPayment(baseUrl, other.key)).status, 201);
  });

  it('0 turns a limit off', async () => {
    const baseUrl = await apiWith({ RATE_LIMIT_REQUESTS: '0', TEST_PAYMENTS_PER_MINUTE: '0' });
    const m = await newMerchant();
    const res = await createPayment(baseUrl, m.key);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('ratelimit-limit'), null);
  });
});
