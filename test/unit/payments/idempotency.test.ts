import assert from 'node:assert/strict';
import { requestHash } from '../../../src/payments/idempotency.ts';

describe('the request hash of an Idempotency-Key', () => {
  it('is the SHA-256 of the canonical JSON, in hex', () => {
    // sha256('{}') and sha256('{"a":1,"b":2}')
    assert.equal(requestHash({}), '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    assert.equal(requestHash({ b: 2, a: 1 }), '43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777');
  });

  it('does not depend on the order of keys, at any depth', () => {
    const a = {
      amount: 1_500_000,
      callback_url: 'https://shop.example/r',
      metadata: { x: '1', y: '2' },
      items: [{ sku: 'a', qty: 1 }],
    };
    const b = {
      items: [{ qty: 1, sku: 'a' }],
      metadata: { y: '2', x: '1' },
      callback_url: 'https://shop.example/r',
      amount: 1_500_000,
    };
    assert.equal(requestHash(a), requestHash(b));
  });

  it('changes with any value, and with the order of array items', () => {
    const base = requestHash({ amount: 1_500_000, merchant_reference: 'order-1' });
    assert.notEqual(requestHash({ amount: 1_500_001, merchant_reference: 'order-1' }), base);
    assert.notEqual(requestHash({ amount: 1_500_000, merchant_reference: 'order-2' }), base);
    assert.notEqual(requestHash({ amount: '1500000', merchant_reference: 'order-1' }), base);
    assert.notEqual(requestHash({ amount: 1_500_000 }), base);
    assert.notEqual(requestHash([1, 2]), requestHash([2, 1]));
  });

  it('treats a missing body as null', () => {
    assert.equal(requestHash(undefined), requestHash(null));
    assert.notEqual(requestHash(null), requestHash({}));
  });
});
