import assert from 'node:assert/strict';
import { isCarried, settlementDraft } from '../../../src/domain/settlement-totals.ts';

describe("a settlement's lines and totals (pure)", () => {
  const payments = [
    { id: 'p1', charged: 1_010_000, fee: 10_000 },
    { id: 'p2', charged: 500_000, fee: 5_000 },
  ];

  it('sums the covered payments, deducts refunds of covered or settled payments, gives back refused refunds once, and pays each beneficiary once', () => {
    const draft = settlementDraft(
      payments,
      [
        { id: 'r1', payment_id: 'p1', amount: 100_000, status: 'succeeded', payment_settled: false },
        { id: 'r2', payment_id: 'old', amount: 40_000, status: 'pending', payment_settled: true },
        { id: 'r3', payment_id: 'held', amount: 70_000, status: 'succeeded', payment_settled: false },
        { id: 'r4', payment_id: 'old', amount: 30_000, status: 'failed', payment_settled: true },
      ],
      [
        { id: 's1', payment_id: 'p1', beneficiary_id: 'b1', iban: 'IR1', owed: 200_000 },
        { id: 's2', payment_id: 'p2', beneficiary_id: 'b1', iban: 'IR1', owed: 50_000 },
        { id: 's3', payment_id: 'p2', beneficiary_id: 'b2', iban: 'IR2', owed: 0 },
      ],
    );
    assert.deepEqual(
      [draft.gross, draft.fees, draft.refunds, draft.splits],
      [1_510_000, 15_000, 100_000 + 40_000 - 30_000, 250_000],
    );
    assert.equal(draft.net, 1_510_000 - 15_000 - 250_000 - 110_000);
    assert.deepEqual(
      [draft.payment_count, draft.refund_count],
      [2, 3],
      'the refund of a payment still held waits for it',
    );
    assert.deepEqual(
      draft.lines.map((l) => [l.kind, l.object_id, l.amount, l.fee]),
      [
        ['payment', 'p1', 1_010_000, 10_000],
        ['payment', 'p2', 500_000, 5_000],
        ['refund', 'r1', -100_000, 0],
        ['refund', 'r2', -40_000, 0],
        ['refund_return', 'r4', 30_000, 0],
        ['split', 's1', -200_000, 0],
        ['split', 's2', -50_000, 0],
      ],
    );
    assert.deepEqual([...draft.beneficiaries], [['b1', { iban: 'IR1', amount: 250_000 }]]);
  });

  it('is carried when its net is negative, or zero without beneficiaries to pay; made otherwise', () => {
    assert.equal(isCarried({ net: -1, splits: 10 }), true);
    assert.equal(isCarried({ net: 0, splits: 0 }), true);
    assert.equal(isCarried({ net: 0, splits: 1 }), false);
    assert.equal(isCarried({ net: 1, splits: 0 }), false);
    assert.equal(isCarried(settlementDraft([], [], [])), true);
  });
});
