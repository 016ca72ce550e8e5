import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { createApp } from '../../src/main/http-app.ts';
import { createDatabase, type Db } from '../../src/db/database.ts';
import { getHarness, newMerchant, testConfig } from '../support/harness.ts';
import { request } from '../support/http.ts';

type Checks = { mysql: { ok: boolean }; temporal: { ok: boolean } };

function assertError(
  res: { status: number; headers: Headers; body: Record<string, unknown> },
  status: number,
  code: string,
) {
  assert.equal(res.status, status);
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.message, 'string');
  assert.match(String(res.body.request_id), /^req_[0-9a-f]{32}$/);
  assert.equal(res.headers.get('x-request-id'), res.body.request_id);
}

/** An app over the given dependencies on an ephemeral port. */
async function serve(db: Db, temporal: Client): Promise<{ url: string; close: () => Promise<void> }> {
  const app = createApp({ config: testConfig(), db, temporal, logger: pino({ level: 'silent' }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('the HTTP error model', () => {
  let baseUrl: string;
  let key: string;
  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
    key = (await newMerchant()).key;
  });

  it('puts a request id on every response, successes included', async () => {
    const res = await request(baseUrl, 'GET', '/healthz');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
  });

  it('answers an unknown route with 404 not_found', async () => {
    assertError(await request(baseUrl, 'GET', '/api/v1/nothing-here', { key }), 404, 'not_found');
    assertError(await request(baseUrl, 'GET', '/nothing-here'), 404, 'not_found');
  });

  it('answers a wrong method with 405 method_not_allowed and an Allow header', async () => {
    const res = await request(baseUrl, 'DELETE', '/api/v1/payments', { key });
    assertError(res, 405, 'method_not_allowed');
    assert.match(res.headers.get('allow') ?? '', /POST/);
  });

  it('answers a body over the limit with 413 payload_too_large', async () => {
    const res = await request(baseUrl, 'POST', '/api/v1/payments', {
      key,
      rawBody: JSON.stringify({ description: 'x'.repeat(70_000) }),
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 413, 'payload_too_large');
  });

  it('answers a non-JSON body with 415 unsupported_media_type', async () => {
    const res = await request(baseUrl, 'POST', '/api/v1/payments', {
      key,
      rawBody: 'amount=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertError(res, 415, 'unsupported_media_type');
  });

  it('answers broken JSON with 400 invalid_json', async () => {
    const res = await request(baseUrl, 'POST', '/api/v1/payments', {
      key,
      rawBody: '{"amount": 1,',
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 400, 'invalid_json');
  });

  it('answers headers over 16 KB, which Node refuses before the app, with 431 in the same JSON shape', async () => {
    const res = await fetch(`${baseUrl}/api/v1/payments`, {
      headers: { authorization: `Bearer ${key}`, 'x-padding': 'p'.repeat(20_000) },
    });
    const body = (await res.json()) as Record<string, unknown>;
    assertError({ status: res.status, headers: res.headers, body }, 431, 'request_header_too_large');
  });

  it('answers an unexpected failure with 500 internal_error and no internals', async () => {
    const broken = {
      selectFrom() {
        throw new TypeError('secret internal detail at /srv/app.ts:42');
      },
    } as unknown as Db;
    const h = await getHarness();
    const server = await serve(broken, h.temporal.client);
    try {
      const res = await request(server.url, 'GET', '/api/v1/payments', { key });
      assertError(res, 500, 'internal_error');
      assert.doesNotMatch(res.text, /secret|TypeError|app\.ts|at /);
    } finally {
      await server.close();
    }
  });

  it('answers 503 service_unavailable with Retry-After when MySQL is unreachable', async () => {
    const { db } = createDatabase('mysql://root@127.0.0.1:1/nowhere', { poolSize: 1 });
    const h = await getHarness();
    const server = await serve(db, h.temporal.client);
    try {
      const res = await request(server.url, 'GET', '/api/v1/payments', { key });
      assertError(res, 503, 'service_unavailable');
      assert.equal(res.headers.get('retry-after'), '2');
    } finally {
      await server.close();
      await db.destroy();
    }
  });
});

describe('health and readiness', () => {
  it('/readyz answers 200 when MySQL and Temporal answer', async () => {
    const { baseUrl } = await getHarness();
    const res = await request(baseUrl, 'GET', '/readyz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.checks, { mysql: { ok: true }, temporal: { ok: true } });
  });

  it('/readyz answers 503 when MySQL is down, and /healthz still 200', async () => {
    const { db } = createDatabase('mysql://root@127.0.0.1:1/nowhere', { poolSize: 1 });
    const h = await getHarness();
    const server = await serve(db, h.temporal.client);
    try {
      const ready = await request(server.url, 'GET', '/readyz');
      assert.equal(ready.status, 503);
      assert.equal(ready.body.code, 'service_unavailable');
      assert.equal((ready.body.checks as Checks).mysql.ok, false);
      assert.equal((ready.body.checks as Checks).temporal.ok, true);
      assert.equal((await request(server.url, 'GET', '/healthz')).status, 200);
    } finally {
      await server.close();
      await db.destroy();
    }
  });

  it('/readyz answers 503 when Temporal is down', async () => {
    const h = await getHarness();
    const connection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '1s' });
    const server = await serve(h.db, new Client({ connection }));
    try {
      const ready = await request(server.url, 'GET', '/readyz');
      assert.equal(ready.status, 503);
      assert.equal((ready.body.checks as Checks).temporal.ok, false);
      assert.equal((ready.body.checks as Checks).mysql.ok, true);
    } finally {
      // The dead connection is left open: the SDK may still hold a retry timer for the failed call.
      await server.close();
    }
  });
});
