/** The merchant's webhook receiver is down for a while: every event is delivered after it recovers. */
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { client, waitFor } from '../support/http.ts';
import { chooseOutcome, createdPayment } from '../support/payments.ts';
import { startReceiver } from '../support/receiver.ts';
import {
  faultApi,
  faultMerchant,
  getFaultStack,
  inParallel,
  issuedSecrets,
  recordFigures,
} from '../support/faults/fault-stack.ts';

const PAYMENTS = 40;
const DOWN_MS = 25_000;

describe('fault: the webhook receiver is down', () => {
  it('every event is delivered, signed, once the receiver is back', async () => {
    const s = await getFaultStack();
    const merchant = await faultMerchant();
    const api = await faultApi();
    const receiver = await startReceiver();
    try {
      const endpoint = await client(api, merchant.key).post<{ secret: string }>('/webhook_endpoints', {
        url: receiver.url,
      });
      assert.equal(endpoint.status, 201, endpoint.text);
      receiver.secrets.push(endpoint.body.secret);
      issuedSecrets.push(endpoint.body.secret);

      await receiver.down();
      const downAt = Date.now();
      // Each payment: payment.created, then the bank outcome's event (paid, failed or canceled).
      const EVENTS = 2 * PAYMENTS;
      const outcomes = ['success', 'failure', 'cancel'] as const;
      await inParallel(
        Array.from({ length: PAYMENTS }, (_, i) => i),
        8,
        async (i) => {
          const payment = await createdPayment(api, merchant.key);
          assert.equal((await chooseOutcome(api, payment.id, outcomes[i % 3]!)).status, 303);
        },
      );
      await sleep(Math.max(0, DOWN_MS - (Date.now() - downAt)));
      const failedWhileDown = await s.db
        .selectFrom('webhook_attempts')
        .select('id')
        .where('succeeded', '=', 0)
        .execute();
      await receiver.up();
      const upAt = Date.now();

      const events = await waitFor(
        'every event to be recorded',
        async () => {
          const rows = await s.db
            .selectFrom('events')
            .select(['id'])
            .where('merchant_id', '=', merchant.merchantId)
            .execute();
          return rows.length >= EVENTS ? rows : undefined;
        },
        120_000,
        500,
      );
      const eventIds = events.map((e) => e.id);
      await receiver.waitForDeliveries((d) => d.answered === 200, eventIds.length, 240_000).catch(() => undefined);
      const ok = receiver.deliveries.filter((d) => d.answered === 200 && d.verifiedWith.length > 0);
      const deliveredIds = new Set(ok.map((d) => d.id));
      const firstOk = new Map<string, number>();
      for (const d of ok) if (!firstOk.has(d.id)) firstOk.set(d.id, d.at);
      const figures = {
        events: eventIds.length,
        receiver_down_ms: upAt - downAt,
        failed_attempts_while_down: failedWhileDown.length,
        delivered: eventIds.filter((id) => deliveredIds.has(id)).length,
        undelivered: eventIds.filter((id) => !deliveredIds.has(id)).length,
        redundant_successful_deliveries: ok.length - deliveredIds.size,
        last_delivery_after_recovery_ms: Math.max(...[...firstOk.values()].map((at) => at - upAt)),
      };
      recordFigures('webhook_receiver_down', figures);
      assert.ok(figures.failed_attempts_while_down > 0, 'deliveries were attempted while the receiver was down');
      assert.equal(figures.undelivered, 0);
      assert.equal(figures.delivered, EVENTS);
    } finally {
      await receiver.close();
    }
  });
});
