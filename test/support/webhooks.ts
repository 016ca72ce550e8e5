/**
 * What the webhook tests share (test/webhooks/*.test.ts): receivers closed
 * once a file is done, a merchant with an endpoint at a receiver that knows
 * its secret, and an event's attempts as the API shows them.
 */
import assert from 'node:assert/strict';
import type { Event, WebhookAttempt, WebhookEndpoint } from '../../src/domain/webhook-schemas.ts';
import { getHarness, newMerchant } from './harness.ts';
import { client, waitFor } from './http.ts';
import { startReceiver, type ReceivedDelivery, type Receiver } from './receiver.ts';

export type Api = ReturnType<typeof client>;
export interface EndpointCreated {
  webhook_endpoint: WebhookEndpoint;
  secret: string;
}

const receivers: Receiver[] = [];

/** A receiver closed with the others by closeReceivers. */
export async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** A merchant with an endpoint at a fresh receiver that knows its secret. */
export async function merchantWithReceiver(events?: string[]) {
  const h = await getHarness();
  const merchant = await newMerchant();
  const api = client(h.baseUrl, merchant.key);
  const rcv = await receiver();
  const res = await api.post<EndpointCreated>('/webhook_endpoints', {
    url: rcv.url,
    ...(events === undefined ? {} : { events }),
  });
  assert.equal(res.status, 201, res.text);
  rcv.secrets.push(res.body.secret);
  return { h, merchant, api, rcv, endpoint: res.body.webhook_endpoint, secret: res.body.secret };
}

export const forPayment = (paymentId: string, type?: string) => (d: ReceivedDelivery) =>
  d.event.data.payment?.id === paymentId && (type === undefined || d.event.type === type);

export async function attemptsOf(api: Api, eventId: string, count: number): Promise<WebhookAttempt[]> {
  return waitFor(`${count} attempts of ${eventId}`, async () => {
    const res = await api.get<{ event: Event; attempts: WebhookAttempt[] }>(`/events/${eventId}`);
    return res.body.attempts.length >= count ? res.body.attempts : undefined;
  });
}

export async function closeReceivers(): Promise<void> {
  for (const r of receivers.splice(0)) await r.close();
}
