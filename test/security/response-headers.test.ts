/**
 * Responses that carry secrets are never cached, and an https deployment
 * tells browsers to stay on https (docs/SECURITY.md): `Cache-Control:
 * no-store` on every /api/v1 response, errors included; HSTS on every
 * response when PUBLIC_BASE_URL is https; the payment page's CSRF cookie
 * `__Host-` prefixed there.
 */
import assert from 'node:assert/strict';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client, request, type TestResponse } from '../support/http.ts';
import { createdPayment } from '../support/payments.ts';

describe('response headers', () => {
  it('Cache-Control: no-store on every /api/v1 response: secrets, resources, errors and the document alike', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const api = client(h.baseUrl, key);
    const payment = await createdPayment(h.baseUrl, key);
    const answers: [string, TestResponse<unknown>][] = [
      ['webhook endpoint with its secret', await api.post('/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks' })],
      ['payment', await api.get(`/payments/${payment.id}`)],
      ['list', await api.get('/payments')],
      ['401 without a key', await request(h.baseUrl, 'GET', '/api/v1/payments')],
      [
        '401 with a wrong key',
        await request(h.baseUrl, 'GET', '/api/v1/payments', { key: `sk_test_${'A'.repeat(43)}` }),
      ],
      ['404', await api.get('/payments/00000000-0000-4000-8000-000000000000')],
      ['422', await api.post('/payments', { amount: 'x' })],
      ['unknown path', await api.get('/nothing-here')],
      ['OpenAPI document', await request(h.baseUrl, 'GET', '/api/v1/openapi.json')],
    ];
    assert.equal(answers[0]![1].status, 201);
    for (const [what, res] of answers)
      assert.equal(res.headers.get('cache-control'), 'no-store', `${what} (${res.status})`);
  });

  it('HSTS on every response when PUBLIC_BASE_URL is https, and none over plain http', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const payment = await createdPayment(h.baseUrl, key);
    const secure = await apiWith({ PUBLIC_BASE_URL: 'https://pay.example' });
    for (const path of ['/api/v1/payments', `/pay/${payment.id}`, '/healthz', '/docs', '/nothing-here']) {
      const res = await fetch(`${secure}${path}`, { headers: { authorization: `Bearer ${key}` }, redirect: 'manual' });
      assert.equal(res.headers.get('strict-transport-security'), 'max-age=31536000', path);
      const plain = await fetch(`${h.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${key}` },
        redirect: 'manual',
      });
      assert.equal(plain.headers.get('strict-transport-security'), null, `${path} over http`);
    }
  });

  it('the CSRF cookie is __Host- prefixed over https (Secure, Path=/, no Domain) and a cookie without the prefix is not accepted there', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const payment = await createdPayment(h.baseUrl, key);
    const secure = await apiWith({ PUBLIC_BASE_URL: 'https://pay.example' });
    const page = await fetch(`${secure}/pay/${payment.id}`);
    const setCookie = page.headers.get('set-cookie') ?? '';
    assert.match(setCookie, /^__Host-dargah_csrf=[A-Za-z0-9_-]{43}; /);
    const attributes = setCookie.split('; ').slice(1);
    assert.ok(
      attributes.includes('Secure') && attributes.includes('Path=/') && attributes.includes('HttpOnly'),
      setCookie,
    );
    assert.ok(!attributes.some((a) => /^domain=/i.test(a)), 'no Domain');
    const nonce = /^__Host-dargah_csrf=([^;]+)/.exec(setCookie)![1]!;
    const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1]!;
    const post = (cookie: string) =>
      fetch(`${secure}/pay/${payment.id}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: 'https://pay.example' },
        body: `action=pay&csrf_token=${encodeURIComponent(token)}`,
      });
    assert.equal(
      (await post(`dargah_csrf=${nonce}`)).status,
      403,
      'a cookie any subdomain or http page could have planted',
    );
    assert.equal((await post(`__Host-dargah_csrf=${nonce}`)).status, 303);

    const plain = await fetch(`${h.baseUrl}/pay/${payment.id}`);
    assert.match(
      plain.headers.get('set-cookie') ?? '',
      /^dargah_csrf=[^;]+; Path=\/pay; HttpOnly; SameSite=Lax$/,
      'over plain http (development) no prefix and no Secure',
    );
  });
});
