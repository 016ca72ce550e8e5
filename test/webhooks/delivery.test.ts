/** Webhook deliveries: signed, retried, redelivered, through a secret rotation, a receiver down or gone, and to the address checked at delivery time; the events every payment transition emits. */
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Event, WebhookAttempt, WebhookEndpoint } from '../../src/domain/webhook-schemas.ts';
import { createWebhookActivities } from '../../activities/webhooks.ts';
import { recordEvent } from '../../src/db/events.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { chooseOutcome, createdPayment, paidPayment, waitForStatus } from '../support/payments.ts';
import {
  attemptsOf,
  closeReceivers,
  forPayment,
  merchantWithReceiver,
  receiver,
  type EndpointCreated,
} from '../support/webhooks.ts';

describe('webhooks', () => {
  after(closeReceivers);

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
      assert.deepEqual(
        deliveries.map((d) => d.answered),
        [500, 500, 200],
      );
      assert.ok(deliveries.every((d) => d.verifiedWith.length === 1));

      const attempts = await attemptsOf(api, deliveries[0]!.id, 3);
      assert.deepEqual(
        attempts.map((a) => [a.attempt, a.response_status, a.succeeded]),
        [
          [1, 500, false],
          [2, 500, false],
          [3, 200, true],
        ],
      );
      assert.deepEqual(
        attempts.map((a) => a.error),
        ['http_status', 'http_status', null],
      );
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
      const res = await api.post<{ event_id: string; deliveries: { endpoint_id: string; delivery_id: string }[] }>(
        `/events/${first!.id}/redeliver`,
      );
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
      const again = await api.post<EndpointCreated>(`/webhook_endpoints/${endpoint.id}/rotate_secret`, {
        previous_secret_expires_in: 0,
      });
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
      assert.deepEqual(delivered.map((d) => d.event.type).sort(), [
        'payment.created',
        'payment.created',
        'payment.failed',
        'payment.paid',
        'payment.verified',
      ]);
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
      assert.deepEqual(
        notices.body.data.map((e) => e.data.webhook_endpoint?.id),
        [endpoint.id],
        'the merchant is told',
      );
      await api.post(`/payments/${payment.id}/verify`, { amount: payment.amount });
      await waitFor('the verified event', async () =>
        (await api.get<{ data: Event[] }>('/events?type=payment.verified')).body.data.length === 1 ? true : undefined,
      );
      await new Promise((r) => setTimeout(r, 2000));
      assert.deepEqual(
        rcv.deliveries.map((x) => x.id),
        [d!.id],
        'one attempt, nothing after',
      );
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
        recordEvent(trx, {
          sourceKey: `test:${pinned!.id}`,
          owner: tenantOf(merchantId, 'test'),
          type: 'payment.paid',
          objectId: pinned!.id,
          data: {},
          at: new Date(),
        }),
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
      const recorded = await h.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('endpoint_id', '=', rebound!.id)
        .executeTakeFirstOrThrow();
      assert.equal(recorded.error, 'address_refused', 'only the class is stored; the reason is in the worker log');

      // One event per source, however often it is recorded.
      const twice = await h.db.transaction().execute((trx) =>
        recordEvent(trx, {
          sourceKey: `test:${pinned!.id}`,
          owner: tenantOf(merchantId, 'test'),
          type: 'payment.paid',
          objectId: pinned!.id,
          data: {},
          at: new Date(),
        }),
      );
      assert.equal(twice.id, event.id);
      assert.equal(twice.body, event.body);
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
        assert.deepEqual(
          got.map((d) => d.event.type),
          types,
          payment.id,
        );
        assert.deepEqual(
          got.map((d) => d.event.data.payment?.status),
          types.map((t) => t.replace('payment.', '')),
        );
        assert.ok(got.every((d) => d.verifiedWith.length === 1));
      }
      const reversedEvent = rcv.deliveries.find(forPayment(reversed.id, 'payment.reversed'))!;
      assert.equal(reversedEvent.event.data.payment?.refunded_amount, reversed.amount);

      // Listed newest first, filtered by type, paginated by cursor.
      const all = await api.get<{ data: Event[]; has_more: boolean }>('/events?limit=100');
      assert.equal(all.body.data.length, 13, 'five payment.created and eight changes');
      const times = all.body.data.map((e) => Date.parse(e.created_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
      );
      const paid = await api.get<{ data: Event[] }>('/events?type=payment.paid');
      assert.deepEqual(paid.body.data.map((e) => e.data.payment?.id).sort(), [delayed.id, reversed.id].sort());
      const pages: Event[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: Event[]; next_cursor: string | null } } = await api.get(
          `/events?limit=4${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        pages.push(...page.body.data);
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(
        pages.map((e) => e.id),
        all.body.data.map((e) => e.id),
      );
      assert.equal((await api.get('/events?type=payment.exploded')).status, 422);
    });

    it('reach only endpoints subscribed to their type', async () => {
      const { h, merchant, api, rcv } = await merchantWithReceiver(['payment.verified']);
      const payment = await paidPayment(h.baseUrl, merchant.key);
      await api.post(`/payments/${payment.id}/verify`, { amount: payment.amount });
      const [d] = await rcv.waitForDeliveries(forPayment(payment.id));
      assert.equal(d!.event.type, 'payment.verified');
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(
        rcv.deliveries.map((x) => x.event.type),
        ['payment.verified'],
      );
    });
  });
});
