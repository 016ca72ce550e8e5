import assert from 'node:assert/strict';
import type { PaymentStatus } from '../../../src/domain/payment.ts';
import { EVENT_TYPES, isSubscribed, paymentEventType, type EventType } from '../../../src/domain/events.ts';

describe('webhook event types', () => {
  it('are one event per payment status, a payment paid with a card not allowed, one per refund status, a settlement paid or failed, a beneficiary transfer paid or failed, the disabling of an endpoint, a mandate signed, declined, canceled or expired, and a subscription created, charged, past due or canceled', () => {
    assert.deepEqual([...EVENT_TYPES].sort(), [
      'beneficiary_payout.failed',
      'beneficiary_payout.paid',
      'mandate.active',
      'mandate.canceled',
      'mandate.declined',
      'mandate.expired',
      'payment.canceled',
      'payment.card_not_allowed',
      'payment.created',
      'payment.expired',
      'payment.failed',
      'payment.paid',
      'payment.partially_refunded',
      'payment.pending',
      'payment.refunded',
      'payment.reversed',
      'payment.verified',
      'refund.created',
      'refund.failed',
      'refund.succeeded',
      'settlement.failed',
      'settlement.paid',
      'subscription.canceled',
      'subscription.charged',
      'subscription.created',
      'subscription.past_due',
      'webhook_endpoint.disabled',
    ]);
  });

  describe('the event a payment emits on entering a status', () => {
    const expected: Record<PaymentStatus, EventType | undefined> = {
      created: 'payment.created',
      pending: 'payment.pending',
      paid: 'payment.paid',
      verified: 'payment.verified',
      failed: 'payment.failed',
      canceled: 'payment.canceled',
      expired: 'payment.expired',
      reversed: 'payment.reversed',
      partially_refunded: 'payment.partially_refunded',
      refunded: 'payment.refunded',
    };
    for (const [status, type] of Object.entries(expected) as [PaymentStatus, EventType | undefined][]) {
      it(type === undefined ? `none for ${status}` : `${type} for ${status}`, () => {
        assert.equal(paymentEventType(status), type);
      });
    }
  });

  it('payment.card_not_allowed, not payment.failed, for a payment failed because another card paid it', () => {
    assert.equal(paymentEventType('failed', 'card_not_allowed'), 'payment.card_not_allowed');
    assert.equal(paymentEventType('failed', 'card_declined'), 'payment.failed');
    assert.equal(paymentEventType('canceled', 'card_not_allowed'), 'payment.canceled');
  });

  describe('subscriptions', () => {
    it('an endpoint without a list of events receives every type', () => {
      for (const type of EVENT_TYPES) assert.equal(isSubscribed(null, type), true, type);
    });

    it('an endpoint with a list receives exactly the types on it', () => {
      const events = ['payment.verified', 'refund.failed'];
      assert.equal(isSubscribed(events, 'payment.verified'), true);
      assert.equal(isSubscribed(events, 'refund.failed'), true);
      assert.equal(isSubscribed(events, 'payment.paid'), false);
      assert.equal(isSubscribed(events, 'refund.succeeded'), false);
    });

    it('an endpoint with an empty list receives nothing', () => {
      for (const type of EVENT_TYPES) assert.equal(isSubscribed([], type), false, type);
    });
  });
});
