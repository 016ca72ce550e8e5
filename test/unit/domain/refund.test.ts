import assert from 'node:assert/strict';
import type { PaymentStatus } from '../../../src/domain/payment.ts';
import {
  refundableAmount,
  refundMethod,
  refundPayoutKey,
  refundRefusal,
  REVERSAL_MARGIN_MS,
  statusAfterRefunds,
} from '../../../src/domain/refund.ts';
import { PSP_PROFILES } from '../../../src/psps/profiles.ts';

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
      assert.deepEqual(over, {
        code: 'refund_exceeds_amount',
        message: 'The refund amount is more than the 700000 rials left to refund on this payment.',
      });
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

describe("a refund's method, by what the payment's PSP offers", () => {
  const PAID_AT = '2026-11-27T10:00:00.000Z';
  const at = (minutes: number) => Date.parse(PAID_AT) + minutes * 60_000;
  const paid = (refunded_amount = 0) => ({
    amount: 1_000_000,
    charged_amount: 1_010_000,
    refunded_amount,
    paid_at: PAID_AT,
  });
  const SEP = { psp: 'sep', capture: 'verify' as const, refund: 'none' as const, reversalWindowMs: 50 * 60_000 };
  const MELLAT = {
    psp: 'mellat',
    capture: 'settle' as const,
    refund: 'partial' as const,
    reversalWindowMs: 180 * 60_000,
  };
  /** Captured at a settle, with no refund operation: its reversal undoes only a verify not yet settled. */
  const ASAN_PARDAKHT = {
    psp: 'asanpardakht',
    capture: 'settle' as const,
    refund: 'none' as const,
    reversalWindowMs: 50 * 60_000,
  };
  const IBAN = 'IR820540102680020817909002';

  it('a PSP with a refund operation refunds any amount itself, whenever, with or without an IBAN', () => {
    assert.deepEqual(refundMethod(paid(), 1, MELLAT, null, at(1)), { method: 'psp_refund' });
    assert.deepEqual(refundMethod(paid(), 1_010_000, MELLAT, IBAN, at(10_000)), { method: 'psp_refund' });
  });

  it('without one, the whole charged amount, nothing refunded before, inside the reversal window less its margin, is a reversal', () => {
    assert.deepEqual(refundMethod(paid(), 1_010_000, SEP, null, at(0)), { method: 'reversal' });
    assert.deepEqual(refundMethod(paid(), 1_010_000, SEP, IBAN, at(50) - REVERSAL_MARGIN_MS - 1), {
      method: 'reversal',
    });
  });

  it("a PSP with no reversal at all (Sadad: capture at the merchant's verify, reversal window 0) never refunds by reversal: the IBAN is needed from the first minute", () => {
    const sadad = { psp: 'sadad', ...PSP_PROFILES.sadad.capabilities };
    assert.deepEqual(refundMethod(paid(), 1_010_000, sadad, IBAN, at(0)), { method: 'iban_payout' });
    assert.equal((refundMethod(paid(), 1_010_000, sadad, null, at(0)) as { code: string }).code, 'refund_needs_iban');
  });

  it('otherwise (a part, the rest after a refund, or the window closing) it is a transfer to the IBAN given', () => {
    assert.deepEqual(refundMethod(paid(), 1_000_000, SEP, IBAN, at(1)), { method: 'iban_payout' });
    assert.deepEqual(refundMethod(paid(10_000), 1_000_000, SEP, IBAN, at(1)), { method: 'iban_payout' });
    assert.deepEqual(refundMethod(paid(), 1_010_000, SEP, IBAN, at(50) - REVERSAL_MARGIN_MS), {
      method: 'iban_payout',
    });
    assert.deepEqual(refundMethod({ ...paid(), paid_at: null }, 1_010_000, SEP, IBAN, at(1)), {
      method: 'iban_payout',
    });
  });

  it('and without an IBAN it is refused with refund_needs_iban, saying what is needed and why', () => {
    const part = refundMethod(paid(), 500_000, SEP, null, at(1));
    assert.deepEqual(part, {
      code: 'refund_needs_iban',
      message:
        "PSP sep has no refund operation and a reversal returns the whole payment only, within 50 minutes of it: give destination_iban, the customer's Sheba IBAN (IR and 24 digits), and the refund is paid there by bank transfer.",
    });
    const late = refundMethod(paid(), 1_010_000, SEP, null, at(60));
    assert.ok(
      'code' in late &&
        late.code === 'refund_needs_iban' &&
        late.message.includes('its reversal window (50 minutes after the payment) has closed'),
      JSON.stringify(late),
    );
  });

  it('where a settle captured and no refund operation exists, a verified payment is never reversed: the IBAN, or refund_needs_iban saying so', () => {
    assert.deepEqual(refundMethod(paid(), 1_010_000, ASAN_PARDAKHT, IBAN, at(0)), { method: 'iban_payout' });
    const refused = refundMethod(paid(), 1_010_000, ASAN_PARDAKHT, null, at(0));
    assert.deepEqual(refused, {
      code: 'refund_needs_iban',
      message:
        "PSP asanpardakht has no refund operation and a payment it has settled cannot be reversed: give destination_iban, the customer's Sheba IBAN (IR and 24 digits), and the refund is paid there by bank transfer.",
    });
  });

  it('keys the transfer by the refund: one transfer per refund at the bank', () => {
    assert.equal(refundPayoutKey('r-1'), 'refund-payout:r-1');
  });
});
