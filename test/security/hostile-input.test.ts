/**
 * Hostile input: every request below gets its documented error, writes
 * nothing, and the process goes on serving.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client, request, type TestResponse } from '../support/http.ts';
import { createPayment, paymentRequest, type CreateResponse } from '../support/payments.ts';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Record<string, unknown> | undefined;
}

/** A request with exactly these raw headers (duplicates, Host, odd encodings) and bytes: what fetch will not send. */
function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: string[],
  body?: Buffer | string,
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  // HTTP/1.1 requires a Host header (Node answers 400 without one): the test's own, or the server's.
  const withHost = headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')
    ? headers
    : ['host', url.host, ...headers];
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: withHost, setHost: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown> | undefined;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

async function countsOf(merchantId: string) {
  const h = await getHarness();
  const count = async (table: 'payments' | 'idempotency_keys' | 'webhook_endpoints') =>
    Number(
      (
        await h.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('merchant_id', '=', merchantId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    payments: await count('payments'),
    idempotency_keys: await count('idempotency_keys'),
    webhook_endpoints: await count('webhook_endpoints'),
  };
}

const NOTHING = { payments: 0, idempotency_keys: 0, webhook_endpoints: 0 };

function assertError(
  res: { status: number; body?: Record<string, unknown>; text: string },
  status: number,
  code: string,
  path?: string,
) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.code, code, res.text);
  assert.match(String(res.body?.request_id), /^req_[0-9a-f]{32}$/);
  assert.doesNotMatch(res.text, /\n\s+at |Error:|node_modules|\.ts:\d/, 'no stack trace or internals');
  if (path !== undefined)
    assert.ok(
      (res.body?.details as { path: string }[] | undefined)?.some((d) => d.path === path),
      res.text,
    );
}

describe('hostile input', () => {
  let baseUrl: string;
  let m: Awaited<ReturnType<typeof newMerchant>>;
  const authorization = () => `authorization: Bearer ${m.key}`.split(': ') as [string, string];

  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
    m = await newMerchant('shop.example');
  });

  afterEach(async () => {
    assert.deepEqual(await countsOf(m.merchantId), NOTHING, 'a refused request wrote nothing');
    assert.equal((await request(baseUrl, 'GET', '/healthz')).status, 200, 'the process still serves');
  });

  describe('bodies', () => {
    it('a 1 MB body answers 413 payload_too_large, with or without Content-Length', async () => {
      const big = JSON.stringify({ ...paymentRequest(), description: 'x'.repeat(1_000_000) });
      assertError(
        await request(baseUrl, 'POST', '/api/v1/payments', {
          key: m.key,
          rawBody: big,
          headers: { 'content-type': 'application/json' },
        }),
        413,
        'payload_too_large',
      );
      const chunked = await rawRequest(
        baseUrl,
        'POST',
        '/api/v1/payments',
        [...authorization(), 'content-type', 'application/json', 'transfer-encoding', 'chunked'],
        big,
      );
      assertError(chunked, 413, 'payload_too_large');
    });

    it('deeply nested JSON answers 422 validation_failed (arrays and objects, at the top and inside a field)', async () => {
      const deepArray = '['.repeat(30_000) + ']'.repeat(30_000);
      const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
      const insideField = JSON.stringify(paymentRequest()).replace(
        /}$/,
        `,"description":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
      );
      for (const rawBody of [deepArray, deepObject, insideField]) {
        assertError(
          await request(baseUrl, 'POST', '/api/v1/payments', {
            key: m.key,
            rawBody,
            headers: { 'content-type': 'application/json' },
          }),
          422,
          'validation_failed',
        );
      }
    });

    it('wrong types in every field answer 422 validation_failed naming the field', async () => {
      const wrong: unknown[] = [null, true, [], {}, [1], { $gt: 0 }];
      const fields: Record<string, unknown[]> = {
        amount: [...wrong, '150000', 1.5, -150000, 0, 1e21, 2 ** 53 + 2],
        callback_url: [...wrong, 42, ''],
        merchant_reference: [...wrong, 42],
        description: [...wrong, 42],
        mobile: [...wrong, 9121234567, '+989121234567'],
      };
      for (const [field, values] of Object.entries(fields)) {
        for (const value of values) {
          const res = await request(baseUrl, 'POST', '/api/v1/payments', {
            key: m.key,
            body: paymentRequest({ [field]: value }),
            idempotencyKey: `wrong-${field}`,
          });
          assertError(res, 422, 'validation_failed', field);
        }
      }
      for (const body of [null, 'a string', 42, [paymentRequest()]]) {
        assertError(await request(baseUrl, 'POST', '/api/v1/payments', { key: m.key, body }), 422, 'validation_failed');
      }
      const paymentId = '00000000-0000-4000-8000-000000000000';
      for (const amount of ['1', null, [], {}, 1.5, -1]) {
        const res = await client(baseUrl, m.key).post(`/payments/${paymentId}/verify`, { amount });
        assertError(res, 422, 'validation_failed', 'amount');
      }
      for (const query of [
        'limit=abc',
        'limit=-1',
        'limit=1000000000',
        'status=hacked',
        'cursor=%27%20OR%201%3D1',
        'created_gte=yesterday',
        'limit=1&limit=2',
      ]) {
        assertError(await client(baseUrl, m.key).get(`/payments?${query}`), 422, 'validation_failed');
      }
      assertError(
        await client(baseUrl, m.key).post('/webhook_endpoints', { url: 42 }),
        422,
        'validation_failed',
        'url',
      );
    });

    it('prototype-pollution keys and duplicate keys answer 422 validation_failed and pollute nothing', async () => {
      const base = JSON.stringify(paymentRequest()).slice(1, -1);
      for (const rawBody of [
        `{${base},"__proto__":{"polluted":true}}`,
        `{${base},"constructor":{"prototype":{"polluted":true}}}`,
        `{${base},"amount":"150000"}`,
      ]) {
        assertError(
          await request(baseUrl, 'POST', '/api/v1/payments', {
            key: m.key,
            rawBody,
            headers: { 'content-type': 'application/json' },
          }),
          422,
          'validation_failed',
        );
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('bytes that are not UTF-8, and strings with lone surrogates, answer 400 invalid_json', async () => {
      const text = JSON.stringify(paymentRequest({ description: 'DESC' }));
      const [before, after] = text.split('DESC') as [string, string];
      const invalidUtf8 = Buffer.concat([Buffer.from(before), Buffer.from([0xc0, 0xaf, 0xff]), Buffer.from(after)]);
      const res = await rawRequest(
        baseUrl,
        'POST',
        '/api/v1/payments',
        [...authorization(), 'content-type', 'application/json', 'content-length', String(invalidUtf8.length)],
        invalidUtf8,
      );
      assertError(res, 400, 'invalid_json');
      const loneSurrogate = text.replace('DESC', '\\ud800x');
      assertError(
        await request(baseUrl, 'POST', '/api/v1/payments', {
          key: m.key,
          rawBody: loneSurrogate,
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'invalid_json',
      );
    });

    it('a body in another media type or charset answers 415 unsupported_media_type', async () => {
      const body = JSON.stringify(paymentRequest());
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/xml',
      ]) {
        assertError(
          await request(baseUrl, 'POST', '/api/v1/payments', {
            key: m.key,
            rawBody: body,
            headers: { 'content-type': type },
          }),
          415,
          'unsupported_media_type',
        );
      }
    });
  });

  describe('headers', () => {
    it('abused Authorization headers answer 401', async () => {
      for (const value of [
        `Bearer ${'A'.repeat(8_000)}`,
        `Bearer ${m.key}, Bearer ${m.key}`,
        `Bearer ${m.key} extra`,
        'Bearer',
        `bearer\t${m.key}x`,
        `Bearer sk_test_' OR '1'='1`,
      ]) {
        const res = await rawRequest(baseUrl, 'GET', '/api/v1/payments', ['authorization', value]);
        assertError(res, 401, 'invalid_api_key');
      }
      // Two Authorization headers: Node joins nothing for this header and keeps the first; a forged second one does not matter.
      const twice = await rawRequest(baseUrl, 'GET', '/api/v1/payments', [
        'authorization',
        'Bearer nonsense',
        'authorization',
        `Bearer ${m.key}`,
      ]);
      assertError(twice, 401, 'invalid_api_key');
    });

    it('headers over the server limit answer 431 without reaching the application', async () => {
      const res = await rawRequest(baseUrl, 'GET', '/api/v1/payments', [
        ...authorization(),
        'x-filler',
        'f'.repeat(20_000),
      ]);
      assert.equal(res.status, 431);
    });

    it('a bad Idempotency-Key answers 422 validation_failed', async () => {
      for (const key of ['k'.repeat(256), 'caf\u00e9', 'with space']) {
        const res = await rawRequest(
          baseUrl,
          'POST',
          '/api/v1/payments',
          [...authorization(), 'content-type', 'application/json', 'idempotency-key', key],
          JSON.stringify(paymentRequest()),
        );
        assertError(res, 422, 'validation_failed', 'Idempotency-Key');
      }
    });

    it('a forged Host header does not change the payment page address', async () => {
      const other = await newMerchant();
      const res = await rawRequest(
        baseUrl,
        'POST',
        '/api/v1/payments',
        [
          'host',
          'evil.example',
          'x-forwarded-host',
          'evil.example',
          'authorization',
          `Bearer ${other.key}`,
          'content-type',
          'application/json',
        ],
        JSON.stringify(paymentRequest()),
      );
      assert.equal(res.status, 201, res.text);
      const created = res.body as unknown as CreateResponse;
      assert.ok(
        created.payment_url.startsWith(`${(await getHarness()).config.PUBLIC_BASE_URL}/pay/`),
        created.payment_url,
      );
      assert.doesNotMatch(res.text, /evil/);
    });
  });

  describe('strings', () => {
    it('unicode tricks in merchant_reference answer 422 validation_failed', async () => {
      for (const reference of [
        'order\u200b1',
        '\u043erder-1',
        'order\u202e1',
        'order\u00001',
        '\uff11\uff12\uff13',
        'order-\u{1f4b8}',
        'order\u00a01',
        ' order-1',
        'order-1\n',
      ]) {
        assertError(
          (await createPayment(baseUrl, m.key, {
            callback_url: 'https://shop.example/back',
            merchant_reference: reference,
          })) as unknown as TestResponse,
          422,
          'validation_failed',
          'merchant_reference',
        );
      }
    });

    it('control and direction-override characters in description answer 422 validation_failed', async () => {
      for (const description of ['a\u202eb', 'a\u2066b', 'a\u0000b', 'a\u001bb', 'a\u200fb', 'line\rbreak']) {
        assertError(
          (await createPayment(baseUrl, m.key, {
            callback_url: 'https://shop.example/back',
            description,
          })) as unknown as TestResponse,
          422,
          'validation_failed',
          'description',
        );
      }
    });

    it('callback URLs aimed at internal addresses answer 422 callback_url_not_allowed', async () => {
      for (const url of [
        'https://169.254.169.254/latest/meta-data/',
        'https://10.0.0.1/return',
        'https://[::ffff:a9fe:a9fe]/return',
        'https://0x7f000001/return',
        'https://shop.example@10.0.0.1/return',
        'https://10.0.0.1#@shop.example/return',
        'https://shop.example.10.0.0.1.nip.io/return',
        'https://metadata.google.internal/return',
      ]) {
        const res = await createPayment(baseUrl, m.key, { callback_url: url });
        assert.equal(res.status, 422, `${url}: ${res.text}`);
        assert.ok(
          ['callback_url_not_allowed', 'validation_failed'].includes((res.body as unknown as { code: string }).code),
          `${url}: ${res.text}`,
        );
      }
    });

    it('webhook URLs aimed at internal addresses answer 422 validation_failed on url', async () => {
      const strict = await apiWith({ WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'false' });
      for (const url of [
        'http://127.0.0.1:9/hook',
        'https://localhost/hook',
        'https://0x7f000001/hook',
        'https://2130706433/hook',
        'https://[::1]/hook',
        'https://[::ffff:127.0.0.1]/hook',
        'https://169.254.169.254/latest/meta-data/',
        'https://10.0.0.1/hook',
        'https://172.16.0.1/hook',
        'https://192.168.0.1/hook',
        'https://100.64.0.1/hook',
        'https://0.0.0.0/hook',
        'https://[fd00::1]/hook',
        'https://[fe80::1]/hook',
        'https://metadata.google.internal/hook',
        'file:///etc/passwd',
        'gopher://127.0.0.1:6379/_INFO',
      ]) {
        assertError(await client(strict, m.key).post('/webhook_endpoints', { url }), 422, 'validation_failed', 'url');
      }
    });
  });

  describe('injection strings are data, never code', () => {
    const sqlAndHtml = {
      merchant_reference: `x' OR '1'='1"><script>alert(1)</script>`,
      description: `'; DROP TABLE payments; -- <img src=x onerror=alert(1)><script>alert("pwn")</script>`,
    };

    it('are stored and echoed verbatim, match nothing else in filters, and are escaped on the payment page', async () => {
      const other = await newMerchant();
      const res = await createPayment(baseUrl, other.key, sqlAndHtml);
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.payment.merchant_reference, sqlAndHtml.merchant_reference);
      assert.equal(res.body.payment.description, sqlAndHtml.description);
      assert.equal((await createPayment(baseUrl, other.key)).status, 201);

      const filtered = await client(baseUrl, other.key).get<{ data: unknown[] }>(
        `/payments?merchant_reference=${encodeURIComponent(`' OR '1'='1`)}`,
      );
      assert.equal(filtered.status, 200);
      assert.equal(filtered.body.data.length, 0);
      const exact = await client(baseUrl, other.key).get<{ data: unknown[] }>(
        `/payments?merchant_reference=${encodeURIComponent(sqlAndHtml.merchant_reference)}`,
      );
      assert.equal(exact.body.data.length, 1);
      assertError(
        await client(baseUrl, other.key).get(`/payments/${encodeURIComponent(`' OR '1'='1`)}`),
        404,
        'payment_not_found',
      );

      const page = await (await fetch(`${baseUrl}/pay/${res.body.payment.id}?lang=en`)).text();
      assert.doesNotMatch(page, /<script>alert|<img src=x/);
      assert.match(page, /&lt;script&gt;|&lt;img/);
      const h = await getHarness();
      assert.equal(
        Number(
          (
            await h.db
              .selectFrom('payments')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('merchant_id', '=', other.merchantId)
              .executeTakeFirstOrThrow()
          ).n,
        ),
        2,
      );
    });

    it('Persian text with its zero-width non-joiner is accepted as it is', async () => {
      const other = await newMerchant();
      const description = 'دو دفتر\u200cچه و یک کتاب';
      const res = await createPayment(baseUrl, other.key, { description });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.payment.description, description);
    });
  });
});
