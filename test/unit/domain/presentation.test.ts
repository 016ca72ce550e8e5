import assert from 'node:assert/strict';
import {
  maskCardPan,
  returnStatus,
  returnUrl,
  rialsToToman,
  type PaymentStatus,
  type ReturnStatus,
} from '../../../src/domain/payment.ts';

describe('return parameters', () => {
  describe('the advisory status on the return address', () => {
    const expected: Record<PaymentStatus, ReturnStatus> = {
      created: 'failed',
      pending: 'pending',
      paid: 'success',
      verified: 'success',
      partially_refunded: 'success',
      refunded: 'success',
      failed: 'failed',
      canceled: 'failed',
      expired: 'failed',
      reversed: 'failed',
    };
    for (const [status, answer] of Object.entries(expected) as [PaymentStatus, ReturnStatus][]) {
      it(`is ${answer} for a ${status} payment`, () => {
        assert.equal(returnStatus(status), answer);
      });
    }
  });

  describe('the return address', () => {
    const payment = {
      id: '5f0c6a0e-8a4b-4c1e-9d7e-2b1f3a4c5d6e',
      status: 'paid' as const,
      merchant_reference: 'order-1042',
      tracking_code: '123456789012',
    };

    it('adds payment_id, status, merchant_reference and tracking_code to the callback URL', () => {
      assert.equal(
        returnUrl('https://shop.example/return', payment),
        'https://shop.example/return?payment_id=5f0c6a0e-8a4b-4c1e-9d7e-2b1f3a4c5d6e&status=success&merchant_reference=order-1042&tracking_code=123456789012',
      );
    });

    it("keeps the merchant's own query parameters, in their order, before ours, and the fragment", () => {
      assert.equal(
        returnUrl('https://shop.example/return?order=42&lang=fa#top', { ...payment, status: 'failed' }),
        'https://shop.example/return?order=42&lang=fa&payment_id=5f0c6a0e-8a4b-4c1e-9d7e-2b1f3a4c5d6e&status=failed&merchant_reference=order-1042&tracking_code=123456789012#top',
      );
    });

    it("keeps the merchant's parameter values even when they needed encoding", () => {
      const url = new URL(returnUrl('https://shop.example/r?next=/orders/1&q=a%20b&q=c', payment));
      assert.deepEqual(url.searchParams.getAll('q'), ['a b', 'c']);
      assert.equal(url.searchParams.get('next'), '/orders/1');
    });

    it('encodes our values, so a merchant reference cannot add or change parameters', () => {
      const url = returnUrl('https://shop.example/r', {
        ...payment,
        merchant_reference: 'order #1&status=success',
        status: 'expired',
      });
      assert.match(url, /merchant_reference=order\+%231%26status%3Dsuccess&/);
      const params = new URL(url).searchParams;
      assert.deepEqual(params.getAll('status'), ['failed']);
      assert.equal(params.get('merchant_reference'), 'order #1&status=success');
    });

    it('encodes a Persian merchant reference as UTF-8', () => {
      const url = returnUrl('https://shop.example/r', { ...payment, merchant_reference: 'سفارش-۱' });
      assert.match(url, /merchant_reference=%D8%B3%D9%81%D8%A7%D8%B1%D8%B4-%DB%B1&/);
    });

    it("replaces a merchant's parameter of the same name with ours instead of repeating it", () => {
      const params = new URL(
        returnUrl('https://shop.example/r?status=mine&payment_id=theirs', { ...payment, status: 'pending' }),
      ).searchParams;
      assert.deepEqual(params.getAll('status'), ['pending']);
      assert.deepEqual(params.getAll('payment_id'), [payment.id]);
    });
  });
});

describe('card numbers', () => {
  it('shows the first six and the last four digits of a card number and masks the rest', () => {
    assert.equal(maskCardPan('6037991234567890'), '603799******7890');
  });

  it('ignores spaces and dashes in the card number', () => {
    assert.equal(maskCardPan('6037 9912 3456 7890'), '603799******7890');
    assert.equal(maskCardPan('6037-9912-3456-7890'), '603799******7890');
  });

  it('masks as many digits as the number has between the first six and the last four', () => {
    assert.equal(maskCardPan('6037991234567890123'), '603799*********0123');
    assert.equal(maskCardPan('603799123456'), '603799**3456');
  });

  it('refuses a number too short to mask without showing most of it', () => {
    assert.throws(() => maskCardPan('60379912345'), /too short/);
  });
});

describe('toman', () => {
  it('is a tenth of the rial amount, keeping a tenth when the amount is not divisible by 10', () => {
    assert.equal(rialsToToman(1_500_000), 150_000);
    assert.equal(rialsToToman(0), 0);
    assert.equal(rialsToToman(15), 1.5);
  });
});
