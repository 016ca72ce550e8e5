/** Webhook deliveries apart from payments: their own task queue and worker, a per-merchant share of its slots, a redelivery limit, and endpoints disabled after failing every attempt. */
import assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import type { Event, WebhookEndpoint } from '../../src/domain/webhook-schemas.ts';
import { createWebhookActivities } from '../../activities/webhooks.ts';
import { recordEvent } from '../../src/db/events.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import { MERCHANT_BUSY, webhookTaskQueue } from '../../src/domain/webhook-delivery.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client, waitFor, type TestResponse } from '../support/http.ts';
import { paidPayment } from '../support/payments.ts';
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
          const row = {
            id: crypto.randomUUID(),
            merchant_id: merchantId,
            mode: 'test' as const,
            url,
            events: null,
            secret: `whsec_${Buffer.alloc(32, 3).toString('base64')}`,
            created_at: new Date(),
          };
          await h.db.insertInto('webhook_endpoints').values(row).execute();
          const event = await h.db.transaction().execute((trx) =>
            recordEvent(trx, {
              sourceKey: `cap:${row.id}`,
              owner: tenantOf(merchantId, 'test'),
              type: 'payment.paid',
              objectId: row.id,
              data: {},
              at: new Date(),
            }),
          );
          return { endpoint: row, event };
        };
        const stuck = await endpointAt(slow.merchantId, `http://127.0.0.1:${port}/hooks`);
        const fine = await endpointAt(other.merchantId, rcv.url);
        rcv.secrets.push(fine.endpoint.secret);
        const activities = createWebhookActivities({
          db: h.db,
          logger: h.logger,
          config: {
            WEBHOOK_ALLOW_LOOPBACK_IN_TEST: true,
            WEBHOOK_ALLOWED_PORTS: '',
            WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_MERCHANT: 2,
          },
        });
        const attempt = (e: { endpoint: { id: string }; event: { id: string } }, n: number) =>
          activities.deliverWebhook({
            event_id: e.event.id,
            endpoint_id: e.endpoint.id,
            delivery_id: `cap-${e.endpoint.id}`,
            attempt: n,
            timeout_ms: 3_000,
          });
        const hanging = Promise.all([attempt(stuck, 1), attempt(stuck, 2)]);
        await waitFor('both attempts to be connected to the black hole', async () =>
          connected >= 2 ? true : undefined,
        );
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
        const recorded = await h.db
          .selectFrom('webhook_attempts')
          .select(['attempt', 'error'])
          .where('endpoint_id', '=', stuck.endpoint.id)
          .orderBy('attempt')
          .execute();
        assert.deepEqual(
          recorded,
          [
            { attempt: 1, error: 'timeout' },
            { attempt: 2, error: 'timeout' },
            { attempt: 4, error: 'timeout' },
          ],
          'the refused attempt was not made',
        );
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
      const b = await api.post<EndpointCreated>('/webhook_endpoints', {
        url: watcher.url,
        events: ['webhook_endpoint.disabled'],
      });
      failing.secrets.push(a.body.secret);
      watcher.secrets.push(b.body.secret);
      const payment = await paidPayment(h.baseUrl, merchant.key);
      const [first] = await failing.waitForDeliveries(forPayment(payment.id));
      // A redelivery on a schedule of three quick attempts, all answered 500.
      const quick = client(await apiWith({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1' }), merchant.key);
      assert.equal(
        (await quick.post(`/events/${first!.id}/redeliver`, { endpoint_id: a.body.webhook_endpoint.id })).status,
        202,
      );

      const [notice] = await watcher.waitForDeliveries((d) => d.event.type === 'webhook_endpoint.disabled', 1, 30_000);
      assert.equal(notice!.event.data.webhook_endpoint?.id, a.body.webhook_endpoint.id);
      assert.equal(notice!.event.data.webhook_endpoint?.status, 'disabled');
      assert.match(notice!.event.data.webhook_endpoint?.disabled_reason ?? '', /every one of 3 attempts/);
      const listed = await api.get<{ data: WebhookEndpoint[] }>('/webhook_endpoints');
      const disabled = listed.body.data.find((e) => e.id === a.body.webhook_endpoint.id)!;
      assert.equal(disabled.status, 'disabled');
      assert.deepEqual(
        (await api.get<{ data: Event[] }>('/events?type=webhook_endpoint.disabled')).body.data.map((e) => e.id),
        [notice!.id],
      );
      // Nothing more is sent to it, and a redelivery to it is refused.
      assert.equal(
        (await api.post(`/events/${first!.id}/redeliver`, { endpoint_id: a.body.webhook_endpoint.id })).status,
        422,
      );

      // Enabled again by the merchant: deliveries reach it once more.
      const other = await newMerchant();
      assert.equal(
        (await client(h.baseUrl, other.key).post(`/webhook_endpoints/${a.body.webhook_endpoint.id}/enable`)).status,
        404,
        "not another merchant's to enable",
      );
      const enabled = await api.post<{ webhook_endpoint: WebhookEndpoint }>(
        `/webhook_endpoints/${a.body.webhook_endpoint.id}/enable`,
      );
      assert.equal(enabled.status, 200, enabled.text);
      assert.equal(enabled.body.webhook_endpoint.status, 'enabled');
      assert.equal(enabled.body.webhook_endpoint.disabled_reason, null);
      assert.equal(
        (await api.post(`/webhook_endpoints/${a.body.webhook_endpoint.id}/enable`)).status,
        200,
        'enabling again changes nothing',
      );
      failing.respond = () => 200;
      assert.equal(
        (await api.post(`/events/${first!.id}/redeliver`, { endpoint_id: a.body.webhook_endpoint.id })).status,
        202,
      );
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
});
