/** Webhook endpoints: managed through the API, kept to their merchant, and their URLs no way to scan the gateway's own hosts. */
import assert from 'node:assert/strict';
import type { Event, WebhookEndpoint } from '../../src/domain/webhook-schemas.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { paidPayment } from '../support/payments.ts';
import {
  attemptsOf,
  closeReceivers,
  forPayment,
  merchantWithReceiver,
  type EndpointCreated,
} from '../support/webhooks.ts';

describe('webhooks', () => {
  after(closeReceivers);

  describe('endpoint management', () => {
    it('creates an endpoint with a whsec_ secret shown once, lists it without the secret, and deletes it', async () => {
      const { api, endpoint, secret, rcv } = await merchantWithReceiver(['payment.paid', 'payment.verified']);
      assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
      assert.ok(Buffer.from(secret.slice(6), 'base64').length >= 24);
      assert.equal(endpoint.url, rcv.url);
      assert.deepEqual(endpoint.events, ['payment.paid', 'payment.verified']);
      assert.equal(endpoint.mode, 'test');
      assert.equal(endpoint.status, 'enabled');

      const list = await api.get<{ data: WebhookEndpoint[]; has_more: boolean; next_cursor: string | null }>(
        '/webhook_endpoints',
      );
      assert.equal(list.status, 200);
      assert.deepEqual(list.body, { data: [endpoint], has_more: false, next_cursor: null });
      assert.ok(!list.text.includes('whsec_'), 'the secret is never shown again');

      const second = await api.post<EndpointCreated>('/webhook_endpoints', { url: 'http://localhost:9/other' });
      assert.equal(second.body.webhook_endpoint.events, null, 'no events: every type');
      const page1 = await api.get<{ data: WebhookEndpoint[]; has_more: boolean; next_cursor: string }>(
        '/webhook_endpoints?limit=1',
      );
      assert.equal(page1.body.has_more, true);
      const page2 = await api.get<{ data: WebhookEndpoint[]; has_more: boolean }>(
        `/webhook_endpoints?limit=1&cursor=${page1.body.next_cursor}`,
      );
      assert.deepEqual(
        [...page1.body.data, ...page2.body.data].map((e) => e.id).sort(),
        [endpoint.id, second.body.webhook_endpoint.id].sort(),
      );

      const del = await api.del(`/webhook_endpoints/${endpoint.id}`);
      assert.deepEqual(del.body, { id: endpoint.id, deleted: true });
      assert.equal((await api.del(`/webhook_endpoints/${endpoint.id}`)).body.code, 'not_found');
      const after = await api.get<{ data: WebhookEndpoint[] }>('/webhook_endpoints');
      assert.deepEqual(
        after.body.data.map((e) => e.id),
        [second.body.webhook_endpoint.id],
      );
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

  describe("a test key is no port scanner of the gateway's own hosts", () => {
    it('refuses loopback webhook URLs unless the operator allowed them for local development', async () => {
      const h = await getHarness();
      const { key } = await newMerchant();
      // The default: WEBHOOK_ALLOW_LOOPBACK_IN_TEST is off (the test harness turns it on for its own receivers).
      const shared = client(await apiWith({ WEBHOOK_ALLOW_LOOPBACK_IN_TEST: '' }), key);
      for (const url of [
        'http://127.0.0.1:3306/',
        'http://localhost:22/',
        'https://127.0.0.1/hooks',
        'http://[::1]:6379/',
      ]) {
        const res = await shared.post('/webhook_endpoints', { url });
        assert.equal(res.status, 422, `${url}: ${res.text}`);
        assert.equal(res.body.code, 'validation_failed');
      }
      assert.equal(
        (await client(h.baseUrl, key).post('/webhook_endpoints', { url: 'http://127.0.0.1:3306/' })).status,
        201,
        'allowed where the operator turned it on',
      );
    });

    it('allows only ports 443 and 80 (plus WEBHOOK_ALLOWED_PORTS) on other addresses', async () => {
      const { key } = await newMerchant();
      const api = client(await apiWith({ WEBHOOK_ALLOW_LOOPBACK_IN_TEST: '' }), key);
      for (const url of [
        'https://93.184.216.34:22/h',
        'https://93.184.216.34:8443/h',
        'https://93.184.216.34:3306/h',
        'https://93.184.216.34:65535/h',
      ]) {
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
      const event = await waitFor(
        'the paid event',
        async () => (await api.get<{ data: Event[] }>('/events')).body.data[0],
      );
      assert.equal(event.data.payment?.id, payment.id);
      const attempts = await attemptsOf(api, event.id, 1);
      assert.deepEqual(
        attempts.map((a) => [a.response_status, a.error, a.succeeded]),
        [[null, 'connection_failed', false]],
      );
      const shown = await api.get(`/events/${event.id}`);
      assert.doesNotMatch(shown.text, /ECONN|refused|127\.0\.0\.1|socket|hang up/i, 'nothing about what answers where');
      assert.ok(!shown.text.includes(`:${new URL(rcv.url).port}`), 'not even the port');
    });
  });
});
