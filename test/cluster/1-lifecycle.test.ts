/**
 * A payment's whole life through the production topology: every request
 * through HAProxy to either API replica, every workflow on the Temporal
 * cluster (PostgreSQL, 4 history shards), run by either of two workers.
 * Create → the bank simulator → verify, a refund, an expiry, a reversal, and
 * the webhooks of it all delivered, signed, to a real receiver.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { client, waitFor } from '../support/http.ts';
import { chooseOutcome, createPayment } from '../support/payments.ts';
import { startReceiver } from '../support/receiver.ts';
import { approveTypedIban, REFUND_IBAN, waitForRefund } from '../support/refunds.ts';
import {
  codeOf,
  moneyCheck,
  recordsDifferingFromWorkflows,
  untilAnswered,
  verifyThroughFaults,
} from '../support/faults/checks.ts';
import { clusterMerchant, getClusterStack } from '../support/cluster/cluster-stack.ts';
import { recordClusterFigures } from '../support/cluster/figures.ts';

describe('cluster: a payment lifecycle through the load balancer', () => {
  it('create → bank → verify, a refund, an expiry, a reversal and their webhooks, on replicas over a Temporal cluster', async () => {
    const s = await getClusterStack();
    const merchant = await clusterMerchant(s);
    const receiver = await startReceiver();
    try {
      const endpoint = await client(s.api, merchant.key).post<{ secret: string }>('/webhook_endpoints', {
        url: receiver.url,
      });
      assert.equal(endpoint.status, 201, endpoint.text);
      receiver.secrets.push(endpoint.body.secret);

      const create = async (reference: string) => {
        const { res } = await untilAnswered(
          () => createPayment(s.api, merchant.key, { merchant_reference: reference }, reference),
          (r) => codeOf(r) === 'idempotency_key_in_use',
        );
        assert.equal(res.status, 201, res.text);
        return res.body.payment;
      };
      const pay = async (payment: Payment) => {
        const { res } = await untilAnswered(
          () => chooseOutcome(s.api, payment.id, 'success'),
          (r) => r.status >= 500,
        );
        assert.equal(res.status, 303, res.text);
      };
      // The timers first: they run while the rest of the slice goes on.
      const expiring = await create('lifecycle-expire');
      const reversing = await create('lifecycle-reverse');
      await pay(reversing);

      const verified = await create('lifecycle-verify');
      await pay(verified);
      const verify = await verifyThroughFaults(s.api, merchant.key, verified);
      assert.equal(verify.res.status, 200, verify.res.text);
      assert.equal(verify.res.body.payment.status, 'verified');

      const refund = await untilAnswered(
        () =>
          client(s.api, merchant.key).post<{ refund: Refund }>(
            `/payments/${verified.id}/refunds`,
            { destination_iban: REFUND_IBAN, amount: 50_000 },
            { idempotencyKey: `refund-${verified.id}` },
          ),
        (r) => codeOf(r) === 'idempotency_key_in_use',
      );
      assert.equal(refund.res.status, 201, refund.res.text);
      // A typed IBAN is held until the operator approves it (docs/PAYMENTS.md#refund-states).
      await approveTypedIban(refund.res.body.refund, s);
      await waitForRefund(s.api, merchant.key, refund.res.body.refund.id, 'succeeded');

      const ids = [expiring.id, reversing.id, verified.id];
      const expected: Record<string, Payment['status']> = {
        [expiring.id]: 'expired',
        [reversing.id]: 'reversed',
        [verified.id]: 'partially_refunded',
      };
      const startedAt = Date.now();
      await waitFor(
        'the expiry and the reversal (90 s windows)',
        async () => {
          const rows = await s.db.selectFrom('payments').select(['id', 'status']).where('id', 'in', ids).execute();
          return rows.every((r) => r.status === expected[r.id]) && rows.length === 3 ? true : undefined;
        },
        240_000,
        1_000,
      );

      // Every event of the three payments and the refund, delivered and signed.
      const events = await s.db
        .selectFrom('events')
        .select(['id', 'type'])
        .where('merchant_id', '=', merchant.merchantId)
        .execute();
      const types = new Set(events.map((e) => e.type));
      for (const type of [
        'payment.created',
        'payment.paid',
        'payment.verified',
        'payment.expired',
        'payment.reversed',
        'refund.created',
        'refund.succeeded',
        'payment.partially_refunded',
      ]) {
        assert.ok(types.has(type), `event ${type} recorded (got ${[...types].join(', ')})`);
      }
      await receiver.waitForDeliveries((d) => d.answered === 200 && d.verifiedWith.length > 0, events.length, 120_000);
      const delivered = new Set(
        receiver.deliveries.filter((d) => d.answered === 200 && d.verifiedWith.length > 0).map((d) => d.id),
      );
      assert.deepEqual(
        events.map((e) => e.id).filter((id) => !delivered.has(id)),
        [],
        'every event delivered',
      );

      assert.deepEqual(await recordsDifferingFromWorkflows(s, ids), []);
      const money = await moneyCheck(s, ids);
      assert.equal(money.paid_back_twice, 0);
      assert.equal(money.reversal_operations, 1);
      assert.equal(money.refund_operations, 1);
      assert.equal(money.ledger_mismatches, 0);

      // Both API replicas answered part of the slice: the balancer spreads the requests.
      for (const name of ['api-a', 'api-b'] as const) {
        const answered = readFileSync(s.gateway.get(name)!.logFile, 'utf8')
          .split('\n')
          .filter((line) => line.includes('"msg":"request"') && line.includes('/api/v1/payments'));
        assert.ok(answered.length > 0, `${name} answered API requests`);
      }
      recordClusterFigures('lifecycle', {
        payments: 3,
        events: events.length,
        timers_after_slice_ms: Date.now() - startedAt,
        bring_up: s.bringUp,
      });
    } finally {
      await receiver.close();
    }
  });
});
