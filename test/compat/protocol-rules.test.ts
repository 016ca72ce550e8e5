import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  inProtocolUnit,
  paymentIdOfAuthority,
  returnAddress,
  zarinpalAuthority,
  zarinpalInquiryStatus,
  zibalStatus,
  type PaymentOrigin,
} from '../../src/domain/compat-protocols.ts';
import { PAYMENT_STATUSES } from '../../src/domain/payment.ts';

describe("the compatible protocols' rules", () => {
  it("an authority is 36 characters ZarinPal's clients accept, S in test mode, A live, and names its payment again", () => {
    for (const mode of ['test', 'live'] as const) {
      const id = randomUUID();
      const authority = zarinpalAuthority({ id, mode });
      assert.match(authority, /^[AS][0-9a-zA-Z]{35}$/);
      assert.equal(authority[0], mode === 'test' ? 'S' : 'A');
      assert.equal(paymentIdOfAuthority(authority), id);
    }
    for (const junk of [
      '',
      `A${'0'.repeat(34)}`,
      `A001${'a'.repeat(32)}`,
      `X000${'a'.repeat(32)}`,
      `A000${'A'.repeat(32)}`,
      `S000${'a'.repeat(33)}`,
    ])
      assert.equal(paymentIdOfAuthority(junk), undefined, junk);
  });

  it('every payment status has a ZarinPal inquiry status and a Zibal status', () => {
    for (const status of PAYMENT_STATUSES) {
      assert.ok(['VERIFIED', 'PAID', 'IN_BANK', 'FAILED', 'REVERSED'].includes(zarinpalInquiryStatus(status)), status);
      assert.equal(typeof zibalStatus(status), 'number');
    }
    assert.deepEqual(
      [zibalStatus('verified'), zibalStatus('paid'), zibalStatus('canceled'), zibalStatus('created')],
      [1, 2, 3, -1],
    );
  });

  it('toman are ten rials; a fee not a whole number of toman is shown rounded up', () => {
    assert.equal(inProtocolUnit(150_000, 'IRT'), 15_000);
    assert.equal(inProtocolUnit(1_505, 'IRT'), 151);
    assert.equal(inProtocolUnit(1_505, 'IRR'), 1_505);
  });

  it("the return address carries the creating protocol's parameters, the merchant's own query kept", () => {
    const payment = {
      id: randomUUID(),
      mode: 'test' as const,
      status: 'paid' as const,
      merchant_reference: 'order-1',
      tracking_code: '123456789012',
      callback_url: 'https://shop.example/back?cart=7',
    };
    const params = (via: PaymentOrigin, status: 'paid' | 'failed' = 'paid') =>
      Object.fromEntries(new URL(returnAddress({ ...payment, status, created_via: via })).searchParams);
    assert.deepEqual(params('zarinpal'), { cart: '7', Authority: zarinpalAuthority(payment), Status: 'OK' });
    assert.equal(params('zarinpal', 'failed').Status, 'NOK');
    assert.deepEqual(params('zibal'), {
      cart: '7',
      success: '1',
      trackId: '123456789012',
      orderId: 'order-1',
      status: '2',
    });
    assert.deepEqual(params('zibal', 'failed').success, '0');
    assert.deepEqual(Object.keys(params('api')).sort(), [
      'cart',
      'merchant_reference',
      'payment_id',
      'status',
      'tracking_code',
    ]);
  });
});
