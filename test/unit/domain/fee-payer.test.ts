import assert from 'node:assert/strict';
import { expectedPaymentBalances, movementLines } from '../../../src/domain/ledger.ts';
import {
  chargedAmount,
  chargedAtCreate,
  customerFee,
  feeAtVerify,
  feeQuote,
  recordedChargedAmount,
  type FeePlan,
} from '../../../src/domain/payment.ts';
import { refundableAmount, refundRefusal, statusAfterRefunds } from '../../../src/domain/refund.ts';

/** 1 %, at least 1 000 and at most 400 000 rials (the default plan). */
const PLAN: FeePlan = { bps: 100, min: 1_000, max: 400_000 };
/** A customer-pays payment of 1 500 000 rials: the fee 15 000 is added to what the bank charges. */
const A = 1_500_000;
const F = 15_000;
const C = A + F;

describe('who pays the fee', () => {
  describe('the charged amount', () => {
    it('adds the plan’s fee to the amount only when the customer pays it', () => {
      assert.equal(customerFee(A, PLAN, 'customer'), F);
      assert.equal(customerFee(A, PLAN, 'merchant'), 0);
      // The minimum and the maximum hold as for a merchant's fee.
      assert.equal(customerFee(50_000, PLAN, 'customer'), 1_000);
      assert.equal(customerFee(100_000_000, PLAN, 'customer'), 400_000);
    });

    it('is the recorded charged amount, or the amount for a payment recorded before fee payers', () => {
      assert.equal(chargedAmount({ amount: A, charged_amount: C }), C);
      assert.equal(chargedAmount({ amount: A }), A);
    });

    it('fixes the fee at create: verify records what the customer paid above the amount, whatever the plan says now', () => {
      const payment = { amount: A, charged_amount: C, fee_payer: 'customer' as const };
      assert.equal(feeAtVerify(payment, { bps: 500, min: 0, max: 10_000_000 }), F);
      assert.equal(feeAtVerify({ amount: A, charged_amount: A, fee_payer: 'merchant' as const }, PLAN), F);
      // A payment recorded before fee payers: the merchant's plan at verify, as always.
      assert.equal(feeAtVerify({ amount: A }, PLAN), F);
    });
  });

  describe('the fee preview', () => {
    it('merchant pays: the customer is charged the amount, the merchant receives it less the fee', () => {
      assert.deepEqual(feeQuote(A, PLAN, 'merchant'), {
        amount: A,
        fee_payer: 'merchant',
        fee: F,
        charged_amount: A,
        merchant_receives: A - F,
      });
    });

    it('customer pays: the customer is charged amount + fee, the merchant receives the amount', () => {
      assert.deepEqual(feeQuote(A, PLAN, 'customer'), {
        amount: A,
        fee_payer: 'customer',
        fee: F,
        charged_amount: C,
        merchant_receives: A,
      });
    });

    it('a fee the size of the amount (the minimum above a small amount) doubles what the customer pays', () => {
      assert.deepEqual(feeQuote(500, PLAN, 'customer'), {
        amount: 500,
        fee_payer: 'customer',
        fee: 500,
        charged_amount: 1_000,
        merchant_receives: 500,
      });
      assert.deepEqual(feeQuote(500, PLAN, 'merchant'), {
        amount: 500,
        fee_payer: 'merchant',
        fee: 500,
        charged_amount: 500,
        merchant_receives: 0,
      });
    });
  });

  describe('the ledger of a customer-pays payment', () => {
    it('captures and reverses the charged amount; verify gives the merchant the amount and the gateway the fee', () => {
      assert.deepEqual(movementLines('capture', C), [
        { account: 'clearing', amount: -C },
        { account: 'held', amount: C },
      ]);
      assert.deepEqual(movementLines('verify', C, F), [
        { account: 'held', amount: -C },
        { account: 'balance', amount: A },
        { account: 'fees', amount: F },
      ]);
      assert.deepEqual(movementLines('reversal', C), [
        { account: 'held', amount: -C },
        { account: 'clearing', amount: C },
      ]);
    });

    it('expects the charged amount held while paid, and the amount on the balance once verified', () => {
      const payment = {
        amount: A,
        charged_amount: C,
        fee: 0,
        refunded_amount: 0,
        pending_refunds: 0,
        succeeded_refunds: 0,
      };
      assert.deepEqual(expectedPaymentBalances({ ...payment, status: 'paid' }), {
        clearing: -C,
        held: C,
        balance: 0,
        fees: 0,
        refunds: 0,
        payouts: 0,
        beneficiaries: 0,
      });
      assert.deepEqual(expectedPaymentBalances({ ...payment, status: 'verified', fee: F }), {
        clearing: -C,
        held: 0,
        balance: A,
        fees: F,
        refunds: 0,
        payouts: 0,
        beneficiaries: 0,
      });
      assert.deepEqual(expectedPaymentBalances({ ...payment, status: 'reversed', refunded_amount: C }), {
        clearing: 0,
        held: 0,
        balance: 0,
        fees: 0,
        refunds: 0,
        payouts: 0,
        beneficiaries: 0,
      });
    });

    it('a full refund returns the charged amount from the balance and keeps the fee: the merchant ends at −fee', () => {
      const b = expectedPaymentBalances({
        status: 'refunded',
        amount: A,
        charged_amount: C,
        fee: F,
        refunded_amount: C,
        pending_refunds: 0,
        succeeded_refunds: C,
      });
      assert.deepEqual(b, { clearing: 0, held: 0, balance: -F, fees: F, refunds: 0, payouts: 0, beneficiaries: 0 });
      // Exactly as a merchant-pays payment refunded in full.
      const merchantPays = expectedPaymentBalances({
        status: 'refunded',
        amount: A,
        fee: F,
        refunded_amount: A,
        pending_refunds: 0,
        succeeded_refunds: A,
      });
      assert.equal(merchantPays.balance, -F);
    });
  });

  describe('refunds of a customer-pays payment', () => {
    const verified = { status: 'verified' as const, amount: A, charged_amount: C, refunded_amount: 0 };

    it('may return up to what the customer paid, the fee included', () => {
      assert.equal(refundableAmount(verified), C);
      assert.equal(refundRefusal(verified, C, true), undefined);
      assert.equal(refundRefusal(verified, C + 1, true)?.code, 'refund_exceeds_amount');
      assert.equal(refundableAmount({ ...verified, refunded_amount: A }), F);
    });

    it('is partially refunded until the charged amount is, then refunded', () => {
      assert.equal(statusAfterRefunds(verified, A), 'partially_refunded');
      assert.equal(statusAfterRefunds(verified, C), 'refunded');
      assert.equal(
        refundRefusal({ ...verified, status: 'partially_refunded', refunded_amount: A }, F + 1, true)?.code,
        'refund_exceeds_amount',
      );
    });
  });
});

describe("a recorded payment's charged amount", () => {
  it('is its charged_amount column, as a number or the string or bigint the driver answers', () => {
    assert.equal(recordedChargedAmount({ amount: A, customer_fee: F, charged_amount: C }), C);
    assert.equal(recordedChargedAmount({ amount: String(A), customer_fee: '0', charged_amount: String(A) }), A);
    assert.equal(recordedChargedAmount({ amount: BigInt(A), customer_fee: String(F), charged_amount: BigInt(C) }), C);
    // The column is what is read: the CHECK payments_charged_is_amount_and_fee keeps such a row out of the
    // database, but were the columns to differ, the stored sum is the one the customer was charged.
    assert.equal(recordedChargedAmount({ amount: A, customer_fee: 0, charged_amount: C }), C);
  });

  it('is amount + customer_fee on a row without it (inserted by a replica of the previous release)', () => {
    assert.equal(recordedChargedAmount({ amount: A, customer_fee: F, charged_amount: null }), C);
    assert.equal(recordedChargedAmount({ amount: String(A), customer_fee: '0', charged_amount: null }), A);
    assert.equal(recordedChargedAmount({ amount: BigInt(A), customer_fee: String(F), charged_amount: null }), C);
  });

  it("works out a new payment's charged sum once, with the fee in it, and records it back the same", () => {
    assert.deepEqual(chargedAtCreate(A, PLAN, 'customer'), { charged: C, customer_fee: F });
    assert.deepEqual(chargedAtCreate(A, PLAN, 'merchant'), { charged: A, customer_fee: 0 });
    // No plan: a merchant-pays payment (a payment link's), charged its amount.
    assert.deepEqual(chargedAtCreate(A, undefined, 'merchant'), { charged: A, customer_fee: 0 });
    assert.throws(() => chargedAtCreate(A, undefined, 'customer'), /needs the fee plan/);
    // What the record keeps (the sum, and amount and customer_fee beside it) gives the same charged sum
    // back, read by this release or, without the column, as the previous release read it.
    const { charged, customer_fee } = chargedAtCreate(A, PLAN, 'customer');
    assert.equal(recordedChargedAmount({ amount: A, customer_fee, charged_amount: charged }), charged);
    assert.equal(recordedChargedAmount({ amount: A, customer_fee, charged_amount: null }), charged);
  });
});
