import assert from 'node:assert/strict';
import type { PaymentStatus } from '../../../src/domain/payment.ts';
import { refundableAmount, refundRefusal, statusAfterRefunds } from '../../../src/domain/refund.ts';

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

const payment = (status: PaymentStatus, refunded_amount = 0) => ({ status, amount: 1_000_000, refunded_amount });

describe('refund arithmetic', () => {
  describe('the refundable amount', () => {
    it('is the amount less what has been refunded, pending refunds included', () => {
      assert.equal(refundableAmount({ amount: 1_000_000, refunded_amount: 0 }), 1_000_000);
      assert.equal(refundableAmount({ amount: 1_000_000, refunded_amount: 300_000 }), 700_000);
      assert.equal(refundableAmount({ amount: 1_000_000, refunded_amount: 1_000_000 }), 0);
    });
  });

  describe('refund refusals', () => {
    it('a verified payment may be refunded in part, in full, or for everything left (no amount)', () => {
      assert.equal(refundRefusal(payment('verified'), 1, true), undefined);
      assert.equal(refundRefusal(payment('verified'), 1_000_000, true), undefined);
      assert.equal(refundRefusal(payment('verified'), null, true), undefined);
    });

    it('a partially refunded payment may be refunded up to what is left', () => {
      assert.equal(refundRefusal(payment('partially_refunded', 300_000), 700_000, true), undefined);
      assert.equal(refundRefusal(payment('partially_refunded', 300_000), null, true), undefined);
    });

    it('a refund of more than is left is refused with refund_exceeds_amount, naming what is left', () => {
      const over = refundRefusal(payment('partially_refunded', 300_000), 700_001, true);
      assert.deepEqual(over, { code: 'refund_exceeds_amount', message: 'The refund amount is more than the 700000 rials left to refund on this payment.' });
      assert.equal(refundRefusal(payment('verified'), 1_000_001, true)?.code, 'refund_exceeds_amount');
    });

    it('a fully refunded payment is refused with payment_not_refundable: nothing is left', () => {
      assert.deepEqual(refundRefusal(payment('refunded', 1_000_000), 1, true), {
        code: 'payment_not_refundable',
        message: 'The payment has been refunded in full; nothing is left to refund.',
      });
      assert.equal(refundRefusal(payment('refunded', 1_000_000), null, true)?.code, 'payment_not_refundable');
    });

    for (const status of ['created', 'pending', 'paid', 'failed', 'canceled', 'expired', 'reversed'] as const) {
      it(`${article(status)} ${status} payment is refused with payment_not_refundable: only a verified payment can be refunded`, () => {
        assert.deepEqual(refundRefusal(payment(status), 1, true), {
          code: 'payment_not_refundable',
          message: `The payment is ${status}; only a verified payment can be refunded.`,
        });
      });
    }

    it('once the refund window has closed every refund is refused with payment_not_refundable, before the amount is looked at', () => {
      const closed = { code: 'payment_not_refundable', message: "The payment's refund window has closed." };
      assert.deepEqual(refundRefusal(payment('verified'), 1, false), closed);
      assert.deepEqual(refundRefusal(payment('partially_refunded', 300_000), null, false), closed);
      assert.deepEqual(refundRefusal(payment('verified'), 2_000_000, false), closed);
    });
  });

  describe('the status after refunds', () => {
    it('is verified while nothing is refunded', () => {
      assert.equal(statusAfterRefunds({ amount: 1_000_000 }, 0), 'verified');
    });

    it('is partially_refunded from one rial up to one rial short of the amount', () => {
      assert.equal(statusAfterRefunds({ amount: 1_000_000 }, 1), 'partially_refunded');
      assert.equal(statusAfterRefunds({ amount: 1_000_000 }, 999_999), 'partially_refunded');
    });

    it('is refunded once the whole amount is refunded', () => {
      assert.equal(statusAfterRefunds({ amount: 1_000_000 }, 1_000_000), 'refunded');
    });
  });
});
