/** How a debit's payment is refunded (docs/SUBSCRIPTIONS.md#refunds-of-a-debit): only to an IBAN given with it. */
import assert from 'node:assert/strict';
import { directDebitRefundMethod, initialRefundStatus } from '../../../src/domain/refund.ts';

describe("a direct debit's refund method", () => {
  it('with an IBAN: a transfer there, held for the operator as every typed IBAN', () => {
    const way = directDebitRefundMethod('IR820540102680020817909002');
    assert.deepEqual(way, { method: 'iban_payout' });
    assert.deepEqual(initialRefundStatus('iban_payout'), { status: 'awaiting_approval', held_for: 'typed_iban' });
  });

  it('without one: refund_needs_iban, never a claim by a card that never paid', () => {
    const way = directDebitRefundMethod(null);
    assert.ok('code' in way);
    assert.equal(way.code, 'refund_needs_iban');
    assert.match(way.message, /destination_iban/);
  });
});
