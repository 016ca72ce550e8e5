import assert from 'node:assert/strict';
import { isValidSheba } from '../../../src/domain/business-documents.ts';
import { expectedPaymentBalances, movementLines } from '../../../src/domain/ledger.ts';
import {
  allocateSplitRefund,
  MAX_SPLITS,
  merchantShare,
  merchantShareLeft,
  shareOwed,
  splitProblems,
  splittableAmount,
  splitTotal,
} from '../../../src/domain/splits.ts';
import { shebaFor } from '../../support/sheba.ts';

const plan = { bps: 100, min: 1_000, max: 1_000_000 };

describe('split settlement: the rules of splits', () => {
  it('the test IBANs are valid Sheba numbers', () => {
    for (const n of [1, 42, 1234567890]) assert.ok(isValidSheba(shebaFor(n)), shebaFor(n));
  });

  it('finds malformed IBANs, repeated IBANs, non-positive amounts and more than 10 splits', () => {
    assert.deepEqual(
      splitProblems([
        { iban: shebaFor(1), amount: 10 },
        { iban: ` ${shebaFor(2).toLowerCase()}`.trim(), amount: 20 },
      ]),
      [],
    );
    const bad = shebaFor(3).slice(0, -1) + (shebaFor(3).endsWith('0') ? '1' : '0');
    assert.deepEqual(
      splitProblems([{ iban: bad, amount: 10 }]).map((p) => p.path),
      ['splits/0/iban'],
    );
    assert.deepEqual(
      splitProblems([
        { iban: shebaFor(1), amount: 10 },
        { iban: shebaFor(1), amount: 10 },
      ]).map((p) => p.path),
      ['splits/1/iban'],
    );
    assert.deepEqual(
      splitProblems([
        { iban: shebaFor(1), amount: 0 },
        { iban: shebaFor(2), amount: -5 },
        { iban: shebaFor(4), amount: 1.5 },
      ]).map((p) => p.path),
      ['splits/0/amount', 'splits/1/amount', 'splits/2/amount'],
    );
    const eleven = Array.from({ length: MAX_SPLITS + 1 }, (_, i) => ({ iban: shebaFor(i + 1), amount: 1 }));
    assert.deepEqual(
      splitProblems(eleven).map((p) => p.path),
      ['splits'],
    );
  });

  it('what may be split: the amount less the fee the merchant pays, the whole amount when the customer pays it', () => {
    assert.equal(splittableAmount(1_000_000, plan, 'merchant'), 990_000);
    assert.equal(splittableAmount(1_000_000, plan, 'customer'), 1_000_000);
    assert.equal(splittableAmount(50_000, plan, 'merchant'), 49_000); // the minimum fee
    assert.equal(splitTotal([{ amount: 3 }, { amount: 4 }]), 7);
  });
});

describe('split settlement: a refund of a split payment', () => {
  const shares = [
    { id: 'a', amount: 300_000, refunded: 0, settled: false },
    { id: 'b', amount: 200_000, refunded: 0, settled: false },
  ];

  it("takes the merchant's share first", () => {
    assert.deepEqual(allocateSplitRefund(100_000, 490_000, shares), { merchant: 100_000, shares: {} });
    assert.deepEqual(allocateSplitRefund(490_000, 490_000, shares), { merchant: 490_000, shares: {} });
  });

  it('then the unsettled shares pro rata to what is left of each', () => {
    assert.deepEqual(allocateSplitRefund(590_000, 490_000, shares), {
      merchant: 490_000,
      shares: { a: 60_000, b: 40_000 },
    });
    // Half already taken from b: the rest is in proportion to 300,000 and 100,000.
    assert.deepEqual(allocateSplitRefund(40_000, 0, [shares[0]!, { ...shares[1]!, refunded: 100_000 }]), {
      merchant: 0,
      shares: { a: 30_000, b: 10_000 },
    });
  });

  it('rounds by the largest remainder in whole rials, deterministically, and sums exactly', () => {
    const three = [
      { id: 'x', amount: 1, refunded: 0, settled: false },
      { id: 'y', amount: 1, refunded: 0, settled: false },
      { id: 'z', amount: 1, refunded: 0, settled: false },
    ];
    // 2 rials over three equal shares: the remainders tie, the earlier shares get the rials.
    assert.deepEqual(allocateSplitRefund(2, 0, three), { merchant: 0, shares: { x: 1, y: 1 } });
    const uneven = [
      { id: 'p', amount: 7, refunded: 0, settled: false },
      { id: 'q', amount: 5, refunded: 0, settled: false },
      { id: 'r', amount: 1, refunded: 0, settled: false },
    ];
    // 10 of 13: exact shares 5.38, 3.85, 0.77: floors 5, 3, 0 and the 2 rials left go to q (.85) and r (.77).
    assert.deepEqual(allocateSplitRefund(10, 0, uneven), { merchant: 0, shares: { p: 5, q: 4, r: 1 } });
    for (let refund = 1; refund <= 13; refund += 1) {
      const a = allocateSplitRefund(refund, 0, uneven);
      assert.equal(a.merchant + Object.values(a.shares).reduce((s, v) => s + v, 0), refund);
      assert.deepEqual(allocateSplitRefund(refund, 0, uneven), a);
    }
  });

  it('does not claw back a share already paid out: its part comes from the merchant', () => {
    const settled = [shares[0]!, { ...shares[1]!, settled: true }];
    assert.deepEqual(allocateSplitRefund(590_000, 490_000, settled), { merchant: 490_000 + 0, shares: { a: 100_000 } });
    // Everything paid out: the whole refund is the merchant's, beyond its share (its balance goes below 0).
    assert.deepEqual(
      allocateSplitRefund(
        1_000_000,
        490_000,
        shares.map((s) => ({ ...s, settled: true })),
      ),
      { merchant: 1_000_000, shares: {} },
    );
    // More than every share holds (the fee stays ours): the rest is the merchant's.
    assert.deepEqual(allocateSplitRefund(1_000_000, 490_000, shares), {
      merchant: 500_000,
      shares: { a: 300_000, b: 200_000 },
    });
  });

  it('refuses a refund that is not a positive whole number of rials', () => {
    assert.throws(() => allocateSplitRefund(0, 10, shares), /positive whole/);
    assert.throws(() => allocateSplitRefund(1.5, 10, shares), /positive whole/);
  });
});

describe('split settlement: ledger lines', () => {
  it('verify of a split payment: held −C, balance +(C−F−S), fees +F, beneficiaries +S', () => {
    assert.deepEqual(movementLines('verify', 1_000_000, 10_000, 500_000), [
      { account: 'held', amount: -1_000_000 },
      { account: 'balance', amount: 490_000 },
      { account: 'fees', amount: 10_000 },
      { account: 'beneficiaries', amount: 500_000 },
    ]);
    // The shares took everything the merchant receives: no balance line.
    assert.deepEqual(
      movementLines('verify', 1_000_000, 10_000, 990_000).map((l) => l.account),
      ['held', 'fees', 'beneficiaries'],
    );
  });

  it("a refund takes its shares' part from beneficiaries; a refused one gives it back; a beneficiary's payout reserves its shares", () => {
    assert.deepEqual(movementLines('refund', 590_000, 0, 100_000), [
      { account: 'balance', amount: -490_000 },
      { account: 'beneficiaries', amount: -100_000 },
      { account: 'refunds', amount: 590_000 },
    ]);
    assert.deepEqual(movementLines('refund_failed', 590_000, 0, 100_000), [
      { account: 'refunds', amount: -590_000 },
      { account: 'balance', amount: 490_000 },
      { account: 'beneficiaries', amount: 100_000 },
    ]);
    assert.deepEqual(movementLines('beneficiary_payout', 200_000), [
      { account: 'beneficiaries', amount: -200_000 },
      { account: 'payouts', amount: 200_000 },
    ]);
  });

  it("a split payment's expected balances: the shares on beneficiaries, less what refunds took from them", () => {
    const payment = {
      status: 'partially_refunded' as const,
      amount: 1_000_000,
      fee: 10_000,
      pending_refunds: 0,
      succeeded_refunds: 590_000,
      refunded_amount: 590_000,
    };
    assert.deepEqual(expectedPaymentBalances({ ...payment, split_amount: 500_000, split_refunded: 100_000 }), {
      clearing: -410_000,
      held: 0,
      balance: 0,
      fees: 10_000,
      refunds: 0,
      payouts: 0,
      beneficiaries: 400_000,
    });
  });

  it('what is owed of a share: its amount less what refunds took back from it', () => {
    assert.equal(shareOwed({ amount: 300_000, refunded: 0 }), 300_000);
    assert.equal(shareOwed({ amount: 300_000, refunded: 120_000 }), 180_000);
    assert.equal(shareOwed({ amount: 300_000, refunded: 300_000 }), 0);
    // Of a sum of shares, the same: the ledger check asks it of sums.
    assert.equal(shareOwed({ amount: 500_000, refunded: 100_000 }), 400_000);
  });

  it("the merchant's own share: charged less the fee and the shares, and what refunds left of it", () => {
    // Merchant pays a 10,000 fee on 1,000,000 with 500,000 to beneficiaries.
    assert.equal(merchantShare({ charged: 1_000_000, fee: 10_000 }, 500_000), 490_000);
    // Customer pays: charged 1,010,000, the same fee, the merchant keeps the whole amount less the shares.
    assert.equal(merchantShare({ charged: 1_010_000, fee: 10_000 }, 500_000), 500_000);
    assert.equal(merchantShare({ charged: 1_000_000, fee: 10_000 }, 0), 990_000);
    const payment = { charged: 1_000_000, fee: 10_000 };
    assert.equal(merchantShareLeft(payment, { total: 500_000, refunded: 0 }, 0), 490_000);
    // 590,000 refunded, 100,000 of it from the shares: the merchant's 490,000 is gone.
    assert.equal(merchantShareLeft(payment, { total: 500_000, refunded: 100_000 }, 590_000), 0);
    assert.equal(merchantShareLeft(payment, { total: 500_000, refunded: 0 }, 200_000), 290_000);
    // Below zero when refunds took more than the merchant's share and nothing from the shares yet.
    assert.equal(merchantShareLeft(payment, { total: 500_000, refunded: 0 }, 600_000), -110_000);
  });
});
