import assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { Webhook } from 'standardwebhooks';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Event, WebhookAttempt, WebhookEndpoint } from '../../src/domain/webhook-schemas.ts';
import { createWebhookActivities } from '../../activities/webhooks.ts';
import { recordEvent } from '../../src/db/events.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import { MERCHANT_BUSY, webhookTaskQueue } from '../../src/domain/webhook-delivery.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client, waitFor, type TestResponse } from '../support/http.ts';
import { chooseOutcome, createdPayment, paidPayment, waitForStatus } from '../support/payments.ts';
import { startReceiver, type ReceivedDelivery, type Receiver } from '../support/receiver.ts';

type Api = ReturnType<typeof client>;
interface EndpointCreated {
  webhook_endpoint: WebhookEndpoint;
  secret: string;
}

const receivers: Receiver[] = [];
async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** A merchant with an endpoint at a fresh receiver that knows its secret. */
async function merchantWithReceiver(events?: string[]) {
  const h = await getHarness();
  const merchant = await newMerchant();
  const api = client(h.baseUrl, merchant.key);
  const rcv = await receiver();
  const res = await api.post<EndpointCreated>('/webhook_endpoints', { url: rcv.url, ...(events === undefined ? {} : { events }) });
  assert.equal(res.status, 201, res.text);
  rcv.secrets.push(res.body.secret);
  return { h, merchant, api, rcv, endpoint: res.body.webhook_endpoint, secret: res.body.secret };
}

const forPayment = (paymentId: string, type?: string) => (d: ReceivedDelivery) =>
  d.event.data.payment?.id === paymentId && (type === undefined || d.event.type === type);

async function attemptsOf(api: Api, eventId: string, count: number): Promise<WebhookAttempt[]> {
  return waitFor(`${count} attempts of ${eventId}`, async () => {
    const res = await api.get<{ event: Event; attempts: WebhookAttempt[] }>(`/events/${eventId}`);
    return res.body.attempts.length >= count ? res.body.attempts : undefined;
  });
}

describe('webhooks', () => {
  after(async () => {
    for (const r of receivers.splice(0)) await r.close();
  });

  describe('endpoint management', () => {
    it('creates an endpoint with a whsec_ secret shown once, lists it without the secret, and deletes it', async () => {
      const { api, endpoint, secret, rcv } = await merchantWithReceiver(['payment.paid', 'payment.verified']);
      assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
      assert.ok(Buffer.from(secret.slice(6), 'base64').length >= 24);
      assert.equal(endpoint.url, rcv.url);
      assert.deepEqual(endpoint.events, ['payment.paid', 'payment.verified']);
      assert.equal(endpoint.mode, 'test');
      assert.equal(endpoint.status, 'enabled');

      const list = await api.get<{ data: WebhookEndpoint[]; has_more: boolean; next_cursor: string | null }>('/webhook_endpoints');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body, { data: [endpoint], has_more: false, next_cursor: null });
      assert.ok(!list.text.includes('whsec_'), 'the secret is never shown again');

      const second = await api.post<EndpointCreated>('/webhook_endpoints', { url: 'http://localhost:9/other' });
      assert.equal(second.body.webhook_endpoint.events, null, 'no events: every type');
      const page1 = await api.get<{ data: WebhookEndpoint[]; has_more: boolean; next_cursor: string }>('/webhook_endpoints?limit=1');
      assert.equal(page1.body.has_more, true);
      const page2 = await api.get<{ data: WebhookEndpoint[]; has_more: boolean }>(`/webhook_endpoints?limit=1&cursor=${page1.body.next_cursor}`);
      assert.deepEqual([...page1.body.data, ...page2.body.data].map((e) => e.id).sort(), [endpoint.id, second.body.webhook_endpoint.id].sort());

      const del = await api.del(`/webhook_endpoints/${endpoint.id}`);
      assert.deepEqual(del.body, { id: endpoint.id, deleted: true });
      assert.equal((await api.del(`/webhook_endpoints/${endpoint.id}`)).body.code, 'not_found');
      const after = await api.get<{ data: WebhookEndpoint[] }>('/webhook_endpoints');
      assert.deepEqual(after.body.data.map((e) => e.id), [second.body.webhook_endpoint.id]);
    });

    it('answers 422 validation_failed for a URL that is not http(s), an unknown event type or an unknown field, and stores nothing', async () => {
      const h = await getHarness();
      const api = client(h.baseUrl, (await newMerchant()).key);
      for (const body of [
        { url: 'ftp://localhost/hooks' },
        { url: 'javascript:alert(1)' },
        { url: 'not a url' },
        { url: 'http://10.0.0.1/hooks' },
        { url: 'http://localhost/hooks', events: ['payment.exploded'] },
        { url: 'http://localhost/hooks', events: [] },
        { url: 'http://localhost/hooks', secret: 'whsec_mine' },
        {},
      ]) {
        const res = await api.post('/webhook_endpoints', body);
        assert.equal(res.status, 422, JSON.stringify(body));
        assert.equal(res.body.code, 'validation_failed');
        assert.ok(Array.isArray(res.body.details));
      }
      const list = await api.get<{ data: unknown[] }>('/webhook_endpoints');
      assert.deepEqual(list.body.data, []);
    });

    it("keeps endpoints and events to their merchant: another merchant's answer 404 not_found", async () => {
      const a = await merchantWithReceiver();
      const payment = await paidPayment(a.h.baseUrl, a.merchant.key);
      const [delivery] = await a.rcv.waitForDeliveries(forPayment(payment.id, 'payment.paid'));
      const eventId = delivery!.id;

      const b = client(a.h.baseUrl, (await newMerchant()).key);
      for (const res of [
        await b.del(`/webhook_endpoints/${a.endpoint.id}`),
        await b.post(`/webhook_endpoints/${a.endpoint.id}/rotate_secret`),
        await b.get(`/events/${eventId}`),
        await b.post(`/events/${eventId}/redeliver`),
      ]) {
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'not_found');
      }
      assert.deepEqual((await b.get<{ data: unknown[] }>('/webhook_endpoints')).body.data, []);
      assert.deepEqual((await b.get<{ data: unknown[] }>('/events')).body.data, []);
      assert.equal((await a.api.get(`/events/${eventId}`)).status, 200, 'the owner still sees it');
    });
  });

  describe('delivery', () => {
    it('delivers a signed payment.paid event whose body is the event the API shows', async () => {
      const { h, merchant, api, rcv } = await merchantWithReceiver();
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const [delivery] = await rcv.waitForDeliveries(forPayment(payment.id, 'payment.paid'));
      assert.deepEqual(delivery!.verifiedWith, rcv.secrets);
      assert.match(delivery!.id, /^evt_[0-9a-f]{32}$/);
      assert.equal(delivery!.event.id, delivery!.id);
      assert.equal(delivery!.event.data.payment?.status, 'paid');
      assert.deepEqual(delivery!.event.data.payment, payment);
      const shown = await api.get<{ event: Event; attempts: WebhookAttempt[] }>(`/events/${delivery!.id}`);
      assert.equal(JSON.stringify(shown.body.event), delivery!.body, 'byte for byte what was sent');
    });

    it('retries after errors with the same webhook-id, records every attempt, and a tampered or stale copy fails verification', async () => {
      const { h, merchant, api, rcv, secret } = await merchantWithReceiver(['payment.paid']);
      rcv.respond = ({ count }) => (count <= 2 ? 500 : 200);
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const deliveries = await rcv.waitForDeliveries(forPayment(payment.id), 3);
      assert.equal(new Set(deliveries.map((d) => d.id)).size, 1, 'the same webhook-id on every attempt');
      assert.deepEqual(deliveries.map((d) => d.answered), [500, 500, 200]);
      assert.ok(deliveries.every((d) => d.verifiedWith.length === 1));

      const attempts = await attemptsOf(api, deliveries[0]!.id, 3);
      assert.deepEqual(attempts.map((a) => [a.attempt, a.response_status, a.succeeded]), [
        [1, 500, false],
        [2, 500, false],
        [3, 200, true],
      ]);
      assert.deepEqual(attempts.map((a) => a.error), ['http_status', 'http_status', null]);
      assert.ok(attempts.every((a) => a.latency_ms >= 0 && a.delivery_id === attempts[0]!.delivery_id));
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(rcv.deliveries.filter(forPayment(payment.id)).length, 3, 'nothing after a success');

      const d = deliveries[2]!;
      const headers = { 'webhook-id': d.id, 'webhook-timestamp': d.timestamp, 'webhook-signature': d.signature };
      assert.doesNotThrow(() => new Webhook(secret).verify(d.body, headers));
      assert.throws(() => new Webhook(secret).verify(d.body.replace('"paid"', '"verified"'), headers));
      const stale = { ...headers, 'webhook-timestamp': String(Number(d.timestamp) - 600) };
      assert.throws(() => new Webhook(secret).verify(d.body, stale));
    });

    it('redelivers an event on request with the same webhook-id, as a new delivery', async () => {
      const { h, merchant, api, rcv, endpoint } = await merchantWithReceiver(['payment.paid']);
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const [first] = await rcv.waitForDeliveries(forPayment(payment.id));
      const res = await api.post<{ event_id: string; deliveries: { endpoint_id: string; delivery_id: string }[] }>(`/events/${first!.id}/redeliver`);
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.deliveries.length, 1);
      assert.equal(res.body.deliveries[0]!.endpoint_id, endpoint.id);
      const both = await rcv.waitForDeliveries(forPayment(payment.id), 2);
      assert.equal(both[1]!.id, first!.id);
      assert.equal(both[1]!.body, first!.body);
      assert.equal(both[1]!.verifiedWith.length, 1);
      const attempts = await attemptsOf(api, first!.id, 2);
      assert.equal(attempts[1]!.delivery_id, res.body.deliveries[0]!.delivery_id);
      assert.notEqual(attempts[0]!.delivery_id, attempts[1]!.delivery_id);

      const one = await api.post(`/events/${first!.id}/redeliver`, { endpoint_id: endpoint.id });
      assert.equal(one.status, 202);
      await rcv.waitForDeliveries(forPayment(payment.id), 3);
    });

    it('signs with both the old and the new secret during a rotation window', async () => {
      const { h, merchant, api, rcv, endpoint, secret: oldSecret } = await merchantWithReceiver(['payment.paid']);
      const rotated = await api.post<EndpointCreated>(`/webhook_endpoints/${endpoint.id}/rotate_secret`);
      assert.equal(rotated.status, 200, rotated.text);
      const newSecret = rotated.body.secret;
      assert.notEqual(newSecret, oldSecret);
      const expires = Date.parse(rotated.body.webhook_endpoint.previous_secret_expires_at ?? '');
      assert.ok(Math.abs(expires - (Date.now() + 86_400_000)) < 60_000, 'a 24 h window by default');
      rcv.secrets.push(newSecret);

      const payment = await paidPayment(h.baseUrl, merchant.key);
      const [d] = await rcv.waitForDeliveries(forPayment(payment.id));
      assert.equal(d!.signature.split(' ').length, 2, 'two space-separated signatures');
      assert.deepEqual(d!.verifiedWith.sort(), [oldSecret, newSecret].sort());

      // A rotation with no window: only the new secret signs from now on.
      const again = await api.post<EndpointCreated>(`/webhook_endpoints/${endpoint.id}/rotate_secret`, { previous_secret_expires_in: 0 });
      rcv.secrets.push(again.body.secret);
      const next = await paidPayment(h.baseUrl, merchant.key);
      const [d2] = await rcv.waitForDeliveries(forPayment(next.id));
      assert.deepEqual(d2!.verifiedWith, [again.body.secret]);
    });

    it('gets every event to a receiver that was down for a while, once it is back', async () => {
      const { h, merchant, api, rcv } = await merchantWithReceiver();
      await rcv.down();
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const verify = await api.post(`/payments/${payment.id}/verify`, { amount: payment.amount });
      assert.equal(verify.status, 200);
      const failed = await createdPayment(h.baseUrl, merchant.key);
      await chooseOutcome(h.baseUrl, failed.id, 'failure');
      await waitForStatus(h.baseUrl, merchant.key, failed.id, 'failed');

      // Refused connections are recorded as failed attempts while it is down.
      const events = await waitFor('five events', async () => {
        const res = await api.get<{ data: Event[] }>('/events');
        return res.body.data.length >= 5 ? res.body.data : undefined;
      });
      const attempts = await attemptsOf(api, events[0]!.id, 2);
      assert.ok(attempts.every((a) => !a.succeeded && a.response_status === null && a.error === 'connection_failed'));
      assert.equal(rcv.deliveries.length, 0);

      await rcv.up();
      const delivered = await rcv.waitForDeliveries((d) => d.answered === 200, 5, 45_000);
      assert.deepEqual(delivered.map((d) => d.id).sort(), events.map((e) => e.id).sort());
      assert.deepEqual(delivered.map((d) => d.event.type).sort(), ['payment.created', 'payment.created', 'payment.failed', 'payment.paid', 'payment.verified']);
    });

    it('disables an endpoint that answers 410 Gone and stops sending to it', async () => {
      const { h, merchant, api, rcv, endpoint } = await merchantWithReceiver();
      rcv.respond = () => 410;
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const [d] = await rcv.waitForDeliveries(forPayment(payment.id));
      const disabled = await waitFor('the endpoint to be disabled', async () => {
        const list = await api.get<{ data: WebhookEndpoint[] }>('/webhook_endpoints');
        const found = list.body.data.find((e) => e.id === endpoint.id);
        return found?.status === 'disabled' ? found : undefined;
      });
      assert.match(disabled.disabled_reason ?? '', /410/);
      const notices = await api.get<{ data: Event[] }>('/events?type=webhook_endpoint.disabled');
      assert.deepEqual(notices.body.data.map((e) => e.data.webhook_endpoint?.id), [endpoint.id], 'the merchant is told');
      await api.post(`/payments/${payment.id}/verify`, { amount: payment.amount });
      await waitFor('the verified event', async () => ((await api.get<{ data: Event[] }>('/events?type=payment.verified')).body.data.length === 1 ? true : undefined));
      await new Promise((r) => setTimeout(r, 2000));
      assert.deepEqual(rcv.deliveries.map((x) => x.id), [d!.id], 'one attempt, nothing after');
    });

    it('connects to the address it checked at delivery time, and refuses one that now resolves inside the network', async () => {
      const h = await getHarness();
      const { merchantId } = await newMerchant();
      const rcv = await receiver();
      const port = new URL(rcv.url).port;
      // Endpoints as if their names had resolved to 127.0.0.1 at creation; the system DNS knows neither name.
      const [pinned, rebound] = ['pinned.invalid', 'rebound.invalid'].map((host) => ({
        id: crypto.randomUUID(),
        merchant_id: merchantId,
        mode: 'test' as const,
        url: `http://${host}:${port}/webhooks`,
        events: null,
        secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64'),
        created_at: new Date(),
      }));
      rcv.secrets.push(pinned!.secret);
      await h.db.insertInto('webhook_endpoints').values([pinned!, rebound!]).execute();
      const event = await h.db.transaction().execute((trx) =>
        recordEvent(trx, { sourceKey: `test:${pinned!.id}`, owner: tenantOf(merchantId, 'test'), type: 'payment.paid', objectId: pinned!.id, data: {}, at: new Date() }),
      );
      const activities = createWebhookActivities({
        db: h.db,
        logger: h.logger,
        config: { WEBHOOK_ALLOW_LOOPBACK_IN_TEST: true, WEBHOOK_ALLOWED_PORTS: '' },
        resolve: async (host) => (host === 'pinned.invalid' ? ['127.0.0.1'] : ['10.20.30.40']),
      });
      const attempt = { event_id: event.id, delivery_id: 'test-delivery', attempt: 1, timeout_ms: 5000 };
      assert.equal(await activities.deliverWebhook({ ...attempt, endpoint_id: pinned!.id }), 'succeeded');
      assert.equal(rcv.deliveries.length, 1);
      assert.deepEqual(rcv.deliveries[0]!.verifiedWith, [pinned!.secret]);

      assert.equal(await activities.deliverWebhook({ ...attempt, endpoint_id: rebound!.id }), 'failed');
      assert.equal(rcv.deliveries.length, 1, 'nothing was sent to the refused address');
      const recorded = await h.db.selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', rebound!.id).executeTakeFirstOrThrow();
      assert.equal(recorded.error, 'address_refused', 'only the class is stored; the reason is in the worker log');

      // One event per source, however often it is recorded.
      const twice = await h.db.transaction().execute((trx) =>
        recordEvent(trx, { sourceKey: `test:${pinned!.id}`, owner: tenantOf(merchantId, 'test'), type: 'payment.paid', objectId: pinned!.id, data: {}, at: new Date() }),
      );
      assert.equal(twice.id, event.id);
      assert.equal(twice.body, event.body);
    });
  });

  describe('a test key is no port scanner of the gateway\'s own hosts', () => {
    it('refuses loopback webhook URLs unless the operator allowed them for local development', async () => {
      const h = await getHarness();
      const { key } = await newMerchant();
      // The default: WEBHOOK_ALLOW_LOOPBACK_IN_TEST is off (the test harness turns it on for its own receivers).
      const shared = client(await apiWith({ WEBHOOK_ALLOW_LOOPBACK_IN_TEST: '' }), key);
      for (const url of ['http://127.0.0.1:3306/', 'http://localhost:22/', 'https://127.0.0.1/hooks', 'http://[::1]:6379/']) {
        const res = await shared.post('/webhook_endpoints', { url });
        assert.equal(res.status, 422, `${url}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed');
      }
      assert.equal((await client(h.baseUrl, key).post('/webhook_endpoints', { url: 'http://127.0.0.1:3306/' })).status, 201, 'allowed where the operator turned it on');
    });

    it('allows only ports 443 and 80 (plus WEBHOOK_ALLOWED_PORTS) on other addresses', async () => {
      const { key } = await newMerchant();
      const api = client(await apiWith({ WEBHOOK_ALLOW_LOOPBACK_IN_TEST: '' }), key);
      for (const url of ['https://93.184.216.34:22/h', 'https://93.184.216.34:8443/h', 'https://93.184.216.34:3306/h', 'https://93.184.216.34:65535/h']) {
        const res = await api.post<{ details: { path: string; message: string }[] }>('/webhook_endpoints', { url });
        assert.equal(res.status, 422, `${url}: ${res.text}`);
        assert.deepEqual(res.body.details, [{ path: 'url', message: 'must use port 443 or 80' }]);
      }
      for (const url of ['https://93.184.216.34/h', 'https://93.184.216.34:443/h', 'https://93.184.216.34:80/h']) {
        assert.equal((await api.post('/webhook_endpoints', { url })).status, 201, url);
      }
      const wider = client(await apiWith({ WEBHOOK_ALLOW_LOOPBACK_IN_TEST: '', WEBHOOK_ALLOWED_PORTS: '8443' }), key);
      assert.equal((await wider.post('/webhook_endpoints', { url: 'https://93.184.216.34:8443/h' })).status, 201);
    });

    it('shows a failed attempt only as its class: no connection error, address or port', async () => {
      const { h, merchant, api, rcv } = await merchantWithReceiver(['payment.paid']);
      await rcv.down();
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const event = await waitFor('the paid event', async () => (await api.get<{ data: Event[] }>('/events')).body.data[0]);
      assert.equal(event.data.payment?.id, payment.id);
      const attempts = await attemptsOf(api, event.id, 1);
      assert.deepEqual(attempts.map((a) => [a.response_status, a.error, a.succeeded]), [[null, 'connection_failed', false]]);
      const shown = await api.get(`/events/${event.id}`);
      assert.doesNotMatch(shown.text, /ECONN|refused|127\.0\.0\.1|socket|hang up/i, 'nothing about what answers where');
      assert.ok(!shown.text.includes(`:${new URL(rcv.url).port}`), "not even the port");
    });
  });

  describe('deliveries apart from payments', () => {
    it('run on their own task queue, served by their own worker', async () => {
      const { h, merchant, api, rcv } = await merchantWithReceiver(['payment.paid']);
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const [delivery] = await rcv.waitForDeliveries(forPayment(payment.id));
      const [attempt] = await attemptsOf(api, delivery!.id, 1);
      const described = await h.temporal.client.workflow.getHandle(attempt!.delivery_id).describe();
      assert.equal(described.taskQueue, webhookTaskQueue(h.config.TEMPORAL_TASK_QUEUE));
      assert.notEqual(described.taskQueue, h.config.TEMPORAL_TASK_QUEUE);
      const payments = await h.temporal.client.workflow.getHandle(`payment-${payment.id}`).describe();
      assert.equal(payments.taskQueue, h.config.TEMPORAL_TASK_QUEUE);
    });

    it("hold at most WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_MERCHANT of a worker's slots per merchant: the next attempt asks to run later", async () => {
      const h = await getHarness();
      // A black hole: accepts the connection, never answers.
      let connected = 0;
      const hole = createNetServer((socket) => {
        connected += 1;
        socket.on('error', () => undefined);
      });
      await new Promise<void>((r) => hole.listen(0, '127.0.0.1', r));
      const port = (hole.address() as AddressInfo).port;
      const rcv = await receiver();
      try {
        const slow = await newMerchant();
        const other = await newMerchant();
        const endpointAt = async (merchantId: string, url: string) => {
          const row = { id: crypto.randomUUID(), merchant_id: merchantId, mode: 'test' as const, url, events: null, secret: `whsec_${Buffer.alloc(32, 3).toString('base64')}`, created_at: new Date() };
          await h.db.insertInto('webhook_endpoints').values(row).execute();
          const event = await h.db.transaction().execute((trx) =>
            recordEvent(trx, { sourceKey: `cap:${row.id}`, owner: tenantOf(merchantId, 'test'), type: 'payment.paid', objectId: row.id, data: {}, at: new Date() }),
          );
          return { endpoint: row, event };
        };
        const stuck = await endpointAt(slow.merchantId, `http://127.0.0.1:${port}/hooks`);
        const fine = await endpointAt(other.merchantId, rcv.url);
        rcv.secrets.push(fine.endpoint.secret);
        const activities = createWebhookActivities({
          db: h.db,
          logger: h.logger,
          config: { WEBHOOK_ALLOW_LOOPBACK_IN_TEST: true, WEBHOOK_ALLOWED_PORTS: '', WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_MERCHANT: 2 },
        });
        const attempt = (e: { endpoint: { id: string }; event: { id: string } }, n: number) =>
          activities.deliverWebhook({ event_id: e.event.id, endpoint_id: e.endpoint.id, delivery_id: `cap-${e.endpoint.id}`, attempt: n, timeout_ms: 3_000 });
        const hanging = Promise.all([attempt(stuck, 1), attempt(stuck, 2)]);
        await waitFor('both attempts to be connected to the black hole', async () => (connected >= 2 ? true : undefined));
        const third = await attempt(stuck, 3).then(
          () => assert.fail('a third attempt of the same merchant ran'),
          (error: unknown) => error,
        );
        assert.ok(third instanceof ApplicationFailure, String(third));
        assert.equal(third.type, MERCHANT_BUSY);
        assert.equal(third.nonRetryable, false, 'Temporal runs it again shortly');
        assert.ok(third.nextRetryDelay !== undefined);
        // Another merchant is not held up by the first one's share.
        assert.equal(await attempt(fine, 1), 'succeeded');
        assert.deepEqual(await hanging, ['failed', 'failed']);
        // Its slots are free again.
        assert.equal(await attempt(stuck, 4), 'failed');
        const recorded = await h.db.selectFrom('webhook_attempts').select(['attempt', 'error']).where('endpoint_id', '=', stuck.endpoint.id).orderBy('attempt').execute();
        assert.deepEqual(recorded, [{ attempt: 1, error: 'timeout' }, { attempt: 2, error: 'timeout' }, { attempt: 4, error: 'timeout' }], 'the refused attempt was not made');
      } finally {
        hole.close();
      }
    });

    it('answers a merchant 429 rate_limited past WEBHOOK_REDELIVERIES_PER_MINUTE', async () => {
      const { merchant, rcv } = await merchantWithReceiver(['payment.paid']);
      const h = await getHarness();
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const [first] = await rcv.waitForDeliveries(forPayment(payment.id));
      const api = client(await apiWith({ WEBHOOK_REDELIVERIES_PER_MINUTE: '3' }), merchant.key);
      // Seven requests fall into at most two windows of a minute: one of them sees a fourth request.
      const answers: TestResponse[] = [];
      for (let i = 0; i < 7; i++) answers.push(await api.post(`/events/${first!.id}/redeliver`));
      const limited = answers.filter((a) => a.status === 429);
      assert.ok(limited.length >= 1, answers.map((a) => a.status).join(','));
      assert.ok(answers.every((a) => a.status === 202 || a.status === 429));
      assert.equal(limited[0]!.body.code, 'rate_limited');
      assert.ok(Number(limited[0]!.headers.get('retry-after')) >= 1);
      assert.ok(answers.filter((a) => a.status === 202).length <= 6);
    });

    it('disable an endpoint whose delivery failed every attempt, tell the merchant with webhook_endpoint.disabled, and enable it again through the API', async () => {
      const h = await getHarness();
      const merchant = await newMerchant();
      const api = client(h.baseUrl, merchant.key);
      const failing = await receiver();
      failing.respond = () => 500;
      const watcher = await receiver();
      const a = await api.post<EndpointCreated>('/webhook_endpoints', { url: failing.url, events: ['payment.paid'] });
      const b = await api.post<EndpointCreated>('/webhook_endpoints', { url: watcher.url, events: ['webhook_endpoint.disabled'] });
      failing.secrets.push(a.body.secret);
      watcher.secrets.push(b.body.secret);
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const [first] = await failing.waitForDeliveries(forPayment(payment.id));
      // A redelivery on a schedule of three quick attempts, all answered 500.
      const quick = client(await apiWith({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1' }), merchant.key);
      assert.equal((await quick.post(`/events/${first!.id}/redeliver`, { endpoint_id: a.body.webhook_endpoint.id })).status, 202);

      const [notice] = await watcher.waitForDeliveries((d) => d.event.type === 'webhook_endpoint.disabled', 1, 30_000);
      assert.equal(notice!.event.data.webhook_endpoint?.id, a.body.webhook_endpoint.id);
      assert.equal(notice!.event.data.webhook_endpoint?.status, 'disabled');
      assert.match(notice!.event.data.webhook_endpoint?.disabled_reason ?? '', /every one of 3 attempts/);
      const listed = await api.get<{ data: WebhookEndpoint[] }>('/webhook_endpoints');
      const disabled = listed.body.data.find((e) => e.id === a.body.webhook_endpoint.id)!;
      assert.equal(disabled.status, 'disabled');
      assert.deepEqual((await api.get<{ data: Event[] }>('/events?type=webhook_endpoint.disabled')).body.data.map((e) => e.id), [notice!.id]);
      // Nothing more is sent to it, and a redelivery to it is refused.
      assert.equal((await api.post(`/events/${first!.id}/redeliver`, { endpoint_id: a.body.webhook_endpoint.id })).status, 422);

      // Enabled again by the merchant: deliveries reach it once more.
      const other = await newMerchant();
      assert.equal((await client(h.baseUrl, other.key).post(`/webhook_endpoints/${a.body.webhook_endpoint.id}/enable`)).status, 404, "not another merchant's to enable");
      const enabled = await api.post<{ webhook_endpoint: WebhookEndpoint }>(`/webhook_endpoints/${a.body.webhook_endpoint.id}/enable`);
      assert.equal(enabled.status, 200, enabled.text);
      assert.equal(enabled.body.webhook_endpoint.status, 'enabled');
      assert.equal(enabled.body.webhook_endpoint.disabled_reason, null);
      assert.equal((await api.post(`/webhook_endpoints/${a.body.webhook_endpoint.id}/enable`)).status, 200, 'enabling again changes nothing');
      failing.respond = () => 200;
      assert.equal((await api.post(`/events/${first!.id}/redeliver`, { endpoint_id: a.body.webhook_endpoint.id })).status, 202);
      await failing.waitForDeliveries((d) => d.id === first!.id && d.answered === 200);
    });

    it('leave an endpoint enabled when it answered another delivery while one event kept failing', async () => {
      const h = await getHarness();
      const merchant = await newMerchant();
      const api = client(h.baseUrl, merchant.key);
      const rcv = await receiver();
      const created = await api.post<EndpointCreated>('/webhook_endpoints', { url: rcv.url, events: ['payment.paid'] });
      rcv.secrets.push(created.body.secret);
      const poison = await paidPayment(h.baseUrl, merchant.key);
      const [bad] = await rcv.waitForDeliveries(forPayment(poison.id));
      const good = await paidPayment(h.baseUrl, merchant.key);
      const [ok] = await rcv.waitForDeliveries(forPayment(good.id));
      rcv.respond = ({ id }) => (id === bad!.id ? 400 : 200);
      const quick = client(await apiWith({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,2,2' }), merchant.key);
      const redelivered = await quick.post<{ deliveries: { delivery_id: string }[] }>(`/events/${bad!.id}/redeliver`);
      assert.equal((await quick.post(`/events/${ok!.id}/redeliver`)).status, 202);
      await rcv.waitForDeliveries((d) => d.id === ok!.id && d.answered === 200, 2);
      const result = await h.temporal.client.workflow.getHandle(redelivered.body.deliveries[0]!.delivery_id).result();
      assert.equal(result, 'exhausted');
      const endpoint = (await api.get<{ data: WebhookEndpoint[] }>('/webhook_endpoints')).body.data[0]!;
      assert.equal(endpoint.status, 'enabled', 'one event it refuses does not disable it');
    });
  });

  describe('events', () => {
    it('are emitted for every payment transition: created, pending, paid, verified, failed, canceled, expired, reversed', async () => {
      const { h, merchant, api, rcv } = await merchantWithReceiver();
      const key = merchant.key;
      const shortTtl = await apiWith({ PAYMENT_TTL_SECONDS: '2' });
      const shortVerify = await apiWith({ VERIFY_WINDOW_SECONDS: '2' });

      const delayed = await createdPayment(h.baseUrl, key);
      await chooseOutcome(h.baseUrl, delayed.id, 'delay');
      await waitForStatus(h.baseUrl, key, delayed.id, 'paid');
      await api.post(`/payments/${delayed.id}/verify`, { amount: delayed.amount });
      const failed = await createdPayment(h.baseUrl, key);
      await chooseOutcome(h.baseUrl, failed.id, 'failure');
      const canceled = await createdPayment(h.baseUrl, key);
      await chooseOutcome(h.baseUrl, canceled.id, 'cancel');
      const expired = await createdPayment(shortTtl, key);
      const reversed = await paidPayment(shortVerify, key);

      const expected: [Payment, string[]][] = [
        [delayed, ['payment.created', 'payment.pending', 'payment.paid', 'payment.verified']],
        [failed, ['payment.created', 'payment.failed']],
        [canceled, ['payment.created', 'payment.canceled']],
        [expired, ['payment.created', 'payment.expired']],
        [reversed, ['payment.created', 'payment.paid', 'payment.reversed']],
      ];
      for (const [payment, types] of expected) {
        const got = await rcv.waitForDeliveries(forPayment(payment.id), types.length, 45_000);
        assert.deepEqual(got.map((d) => d.event.type), types, payment.id);
        assert.deepEqual(got.map((d) => d.event.data.payment?.status), types.map((t) => t.replace('payment.', '')));
        assert.ok(got.every((d) => d.verifiedWith.length === 1));
      }
      const reversedEvent = rcv.deliveries.find(forPayment(reversed.id, 'payment.reversed'))!;
      assert.equal(reversedEvent.event.data.payment?.refunded_amount, reversed.amount);

      // Listed newest first, filtered by type, paginated by cursor.
      const all = await api.get<{ data: Event[]; has_more: boolean }>('/events?limit=100');
      assert.equal(all.body.data.length, 13, 'five payment.created and eight changes');
      const times = all.body.data.map((e) => Date.parse(e.created_at));
      assert.deepEqual(times, [...times].sort((a, b) => b - a));
      const paid = await api.get<{ data: Event[] }>('/events?type=payment.paid');
      assert.deepEqual(paid.body.data.map((e) => e.data.payment?.id).sort(), [delayed.id, reversed.id].sort());
      const pages: Event[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: Event[]; next_cursor: string | null } } = await api.get(`/events?limit=4${cursor === null ? '' : `&cursor=${cursor}`}`);
        pages.push(...page.body.data);
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(pages.map((e) => e.id), all.body.data.map((e) => e.id));
      assert.equal((await api.get('/events?type=payment.exploded')).status, 422);
    });

    it('reach only endpoints subscribed to their type', async () => {
      const { h, merchant, api, rcv } = await merchantWithReceiver(['payment.verified']);
      const payment = await paidPayment(h.baseUrl, merchant.key);
      await api.post(`/payments/${payment.id}/verify`, { amount: payment.amount });
      const [d] = await rcv.waitForDeliveries(forPayment(payment.id));
      assert.equal(d!.event.type, 'payment.verified');
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(rcv.deliveries.map((x) => x.event.type), ['payment.verified']);
    });
  });
});
