/**
 * A MySQL that hangs instead of dying (SIGSTOP, a partition): the sockets
 * stay open and nothing answers, so without bounds every request waits until
 * TCP gives up. With DATABASE_QUERY_TIMEOUT_MS and DATABASE_ACQUIRE_TIMEOUT_MS
 * each request answers 503 service_unavailable with Retry-After meanwhile, an
 * activity's query fails (so Temporal retries it), and everything serves
 * again once MySQL is back, with nothing lost or doubled. The database here is
 * the suite's own, behind a proxy that can freeze it.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { createRecordActivities } from '../../activities/records.ts';
import { createDatabase, type Db } from '../../src/db/database.ts';
import { isMysqlUnavailable } from '../../src/db/errors.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { listen } from '../../src/http/server.ts';
import { createApp } from '../../src/main/http-app.ts';
import { startFreezableProxy, type FreezableProxy } from '../support/freezable-proxy.ts';
import { getHarness, newMerchant, testConfig } from '../support/harness.ts';
import { request, waitFor, type TestResponse } from '../support/http.ts';
import { createPayment } from '../support/payments.ts';

/** Fails when `work` is still pending after `ms`: what a hung dependency does to a caller without bounds. */
async function answeredWithin<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms while MySQL hangs`)), ms);
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a MySQL that hangs instead of dying', () => {
  let proxy: FreezableProxy;
  let db: Db;
  let server: Server;
  let base: string;
  let proxiedUrl: string;

  before(async () => {
    const h = await getHarness();
    const real = new URL(h.config.DATABASE_URL);
    proxy = await startFreezableProxy(Number(real.port === '' ? 3306 : real.port), real.hostname);
    const viaProxy = new URL(h.config.DATABASE_URL);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    proxiedUrl = viaProxy.toString();
    ({ db } = createDatabase(proxiedUrl, { poolSize: 4, queryTimeoutMs: 1_000, acquireTimeoutMs: 1_000 }));
    const config = testConfig({ DATABASE_URL: proxiedUrl, RATE_LIMIT_STORE: 'mysql' });
    server = await listen(createApp({ config, db, temporal: h.temporal.client, logger: h.logger }), 0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    proxy.thaw();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await db.destroy();
    await proxy.close();
  });

  it('answers every request 503 with Retry-After while it hangs, then serves again; nothing lost or doubled', async () => {
    const h = await getHarness();
    const { key, merchantId } = await newMerchant();
    const first = await createPayment(base, key, { merchant_reference: 'hung-0' }, 'hung-0');
    assert.equal(first.status, 201, first.text);

    proxy.freeze();
    try {
      const calls: (() => Promise<TestResponse<unknown>>)[] = [];
      for (let i = 1; i <= 4; i++)
        calls.push(() => createPayment(base, key, { merchant_reference: `hung-${i}` }, `hung-${i}`));
      for (let i = 0; i < 4; i++) calls.push(() => request(base, 'GET', '/api/v1/payments', { key }));
      for (let i = 0; i < 4; i++)
        calls.push(() => request(base, 'GET', `/api/v1/payments/${first.body.payment.id}`, { key }));
      // Twice as many requests as the pool has connections: some wait for a connection, some for an answer.
      const answers = await answeredWithin('the requests', 30_000, Promise.all(calls.map((call) => call())));
      for (const res of answers) {
        assert.equal(res.status, 503, res.text);
        assert.equal((res.body as { code: string }).code, 'service_unavailable');
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
      }
      // A second wave on a pool whose connections all timed out: still answered, not queued behind the hung ones.
      const again = await answeredWithin('the second wave', 30_000, request(base, 'GET', '/api/v1/payments', { key }));
      assert.equal(again.status, 503);
    } finally {
      proxy.thaw();
    }

    await waitFor(
      'the gateway to serve again',
      async () => ((await request(base, 'GET', '/api/v1/payments', { key })).status === 200 ? true : undefined),
      20_000,
      200,
    );
    for (let i = 1; i <= 4; i++) {
      const retried = await createPayment(base, key, { merchant_reference: `hung-${i}` }, `hung-${i}`);
      assert.equal(retried.status, 201, retried.text);
    }
    const rows = await h.db
      .selectFrom('payments')
      .select('merchant_reference')
      .where('merchant_id', '=', merchantId)
      .execute();
    assert.deepEqual(
      rows.map((r) => r.merchant_reference).sort(),
      ['hung-0', 'hung-1', 'hung-2', 'hung-3', 'hung-4'],
      'each create exactly once',
    );
  });

  it("an activity's query fails instead of hanging, so Temporal retries the activity", async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const created = await createPayment(h.baseUrl, key);
    assert.equal(created.status, 201);
    const payment: Payment = created.body.payment;
    // The worker's own pool, with the timeouts the worker takes from its configuration, and a connection already open.
    const { db: workerDb } = createDatabase(proxiedUrl, {
      poolSize: 1,
      queryTimeoutMs: 1_000,
      acquireTimeoutMs: 1_000,
    });
    await sql`select 1`.execute(workerDb);
    const records = createRecordActivities({
      db: workerDb,
      logger: h.logger,
      temporal: h.temporal.client,
      config: h.config,
    });
    proxy.freeze();
    try {
      const failure = await answeredWithin(
        'recordTransition',
        30_000,
        records.recordTransition({ payment: { ...payment, status: 'canceled' }, version: 99 }).then(
          () => assert.fail('it cannot succeed while MySQL hangs'),
          (error: unknown) => error,
        ),
      );
      assert.ok(isMysqlUnavailable(failure), `a retryable unavailability: ${String(failure)}`);
    } finally {
      proxy.thaw();
      await workerDb.destroy();
    }
  });

  it('bounds a slow query and replaces its connection, but lets the migration lock wait for another process', async () => {
    const h = await getHarness();
    const { db: tight } = createDatabase(h.config.DATABASE_URL, {
      poolSize: 2,
      queryTimeoutMs: 300,
      acquireTimeoutMs: 1_000,
    });
    const { db: holder } = createDatabase(h.config.DATABASE_URL, { poolSize: 1 });
    try {
      const slow = await sql`select sleep(2)`.execute(tight).then(
        () => assert.fail('a 2 s query under a 300 ms bound'),
        (error: unknown) => error,
      );
      assert.equal((slow as { code?: string }).code, 'PROTOCOL_SEQUENCE_TIMEOUT');
      assert.ok(isMysqlUnavailable(slow));
      assert.deepEqual(
        (await sql<{ one: number }>`select 1 as one`.execute(tight)).rows,
        [{ one: 1 }],
        'the pool serves on a fresh connection',
      );
      // Another process migrating holds the server-wide lock for a second: the migrator waits for it (Kysely's get_lock).
      const lock = `dargah_test_lock_${Date.now()}`;
      await holder.connection().execute(async (c) => {
        await sql`select get_lock(${lock}, 1)`.execute(c);
        const waiting = sql<{ got: number }>`select get_lock(${lock}, 10) as got`.execute(tight);
        await new Promise((r) => setTimeout(r, 1_000));
        await sql`select release_lock(${lock})`.execute(c);
        assert.deepEqual((await waiting).rows, [{ got: 1 }]);
      });
    } finally {
      await tight.destroy();
      await holder.destroy();
    }
  });
});
