/**
 * A split payment's shares where the merchant's code reads payments, against the real stack: its entry
 * in GET /api/v1/payments and every `payment.*` event a real receiver on loopback gets carry its
 * `splits`, the same as GET /payments/{id}; a payment without splits has none in either
 * (docs/PAYMENTS.md#split-settlement, docs/WEBHOOKS.md#event-types-and-body).
 */
import assert from 'node:assert/strict';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { paidPayment } from '../support/payments.ts';
import { approvedBeneficiary } from '../support/settlement.ts';
import { closeReceivers, forPayment, merchantWithReceiver } from '../support/webhooks.ts';

interface Page {
  data: Payment[];
  has_more: boolean;
  next_cursor: string | null;
}

describe('splits on the payments list and in payment events', function () {
  this.timeout(180_000);
  after(closeReceivers);

  it("a split payment's list entry and its payment.created, payment.verified and payment.partially_refunded events carry its splits; a plain one's carry none", async () => {
    const { h, merchant, api, rcv } = await merchantWithReceiver();
    const first = await approvedBeneficiary(h.db, merchant.merchantId, 'Agency one');
    const second = await approvedBeneficiary(h.db, merchant.merchantId, 'Agency two');

    // 1,000,000, the merchant pays the default plan's 10,000 fee: 300,000 and 200,000 to the beneficiaries, 490,000 stays the merchant's.
    const split = await paidPayment(h.baseUrl, merchant.key, {
      amount: 1_000_000,
      splits: [
        { iban: first.iban, amount: 300_000, description: 'commission' },
        { iban: second.iban, amount: 200_000 },
      ],
    });
    const plain = await paidPayment(h.baseUrl, merchant.key, { amount: 150_000 });
    for (const p of [split, plain]) {
      const verified = await api.post<{ payment: Payment }>(`/payments/${p.id}/verify`, { amount: p.amount });
      assert.equal(verified.status, 200, verified.text);
    }

    const expected = [
      {
        beneficiary_id: first.id,
        iban: first.iban,
        amount: 300_000,
        description: 'commission',
        refunded: 0,
        settled: false,
      },
      { beneficiary_id: second.id, iban: second.iban, amount: 200_000, description: '', refunded: 0, settled: false },
    ];
    const single = await api.get<{ payment: Payment }>(`/payments/${split.id}`);
    assert.deepEqual(single.body.payment.splits, expected);

    // The list: the split payment's entry as GET /payments/{id} shows it; the plain one has no `splits`, on a page and across pages.
    const list = await api.get<Page>('/payments?limit=10');
    assert.equal(list.status, 200, list.text);
    const splitEntry = list.body.data.find((p) => p.id === split.id);
    const plainEntry = list.body.data.find((p) => p.id === plain.id);
    assert.deepEqual(splitEntry, single.body.payment);
    assert.ok(plainEntry !== undefined);
    assert.equal('splits' in plainEntry, false, 'a payment without splits has no splits');
    // Paged one by one (the plain payment is the newer): the split one's page still carries its shares.
    const firstPage = await api.get<Page>('/payments?limit=1');
    assert.equal(firstPage.body.data[0]?.id, plain.id);
    const secondPage = await api.get<Page>(`/payments?limit=1&cursor=${firstPage.body.next_cursor}`);
    assert.deepEqual(secondPage.body.data[0]?.splits, expected);
    // A filter keeps them too.
    const filtered = await api.get<Page>(
      `/payments?status=verified&merchant_reference=${encodeURIComponent(split.merchant_reference)}`,
    );
    assert.deepEqual(
      filtered.body.data.map((p) => p.splits),
      [expected],
    );

    // Every payment.* event the receiver got for the split payment carries its shares; the plain one's none.
    const [created] = await rcv.waitForDeliveries(forPayment(split.id, 'payment.created'));
    const [verified] = await rcv.waitForDeliveries(forPayment(split.id, 'payment.verified'));
    assert.deepEqual(created!.event.data.payment?.splits, expected);
    assert.deepEqual(verified!.event.data.payment?.splits, expected);
    assert.equal(verified!.event.data.payment?.status, 'verified');
    assert.ok(verified!.verifiedWith.length > 0, 'a signed delivery');
    const plainVerified = await rcv.waitForDeliveries(forPayment(plain.id, 'payment.verified'));
    assert.equal('splits' in (plainVerified[0]!.event.data.payment ?? {}), false);
    for (const d of rcv.deliveries.filter(forPayment(split.id)))
      assert.ok(d.event.data.payment?.splits !== undefined, `${d.event.type} carries the splits`);

    // A refund of 600,000 takes the merchant's 490,000 first, then 110,000 from the shares pro rata (66,000 and 44,000):
    // its payment.partially_refunded carries the shares as they stand after it. The refund goes to the card that paid:
    // its amount leaves the balance and the shares when it is taken, waiting for its payer (docs/PAYMENTS.md#refund-states).
    // (A refund to a typed IBAN is held for the operator, and takes nothing from the shares until approved.)
    const refund = await api.post<{ refund: Refund }>(`/payments/${split.id}/refunds`, { amount: 600_000 });
    assert.equal(refund.status, 201, refund.text);
    assert.equal(refund.body.refund.status, 'awaiting_payer');
    const [partial] = await rcv.waitForDeliveries(forPayment(split.id, 'payment.partially_refunded'));
    const shares = partial!.event.data.payment?.splits ?? [];
    assert.deepEqual(
      shares.map((s) => s.refunded),
      (await api.get<{ payment: Payment }>(`/payments/${split.id}`)).body.payment.splits?.map((s) => s.refunded),
    );
    assert.equal(
      shares.reduce((sum, s) => sum + s.refunded, 0),
      110_000,
    );
  });
});
