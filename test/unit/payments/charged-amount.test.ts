/** The charged sum's bound at create (docs/PAYMENTS.md#who-pays-the-fee): one rule, in newPayment, for every way of creating a payment. */
import assert from 'node:assert/strict';
import { rowFromNewPayment } from '../../../src/db/payments.ts';
import type { FeePlan } from '../../../src/domain/payment.ts';
import { beneficiaryPayoutKey } from '../../../src/domain/settlement.ts';
import { DomainError } from '../../../src/errors.ts';
import { chargedAmountFor, newPayment } from '../../../src/payments/create.ts';

const PLAN: FeePlan = { bps: 100, min: 1_000, max: 400_000 };
const MAX = 500_000_000;
const order = (amount: number, fee_payer?: 'merchant' | 'customer') => ({
  amount,
  callback_url: 'https://shop.example/r',
  merchant_reference: 'o-1',
  ...(fee_payer ? { fee_payer } : {}),
});
const refused = (error: unknown) =>
  error instanceof DomainError && error.code === 'charged_amount_exceeds_max' && error.status === 422;

describe('the charged amount at create', () => {
  it('is the amount, plus the fee when the customer pays it, up to AMOUNT_MAX', () => {
    assert.equal(chargedAmountFor(order(1_500_000, 'customer'), PLAN, { AMOUNT_MAX: MAX }), 1_515_000);
    assert.equal(chargedAmountFor(order(MAX, 'merchant'), PLAN, { AMOUNT_MAX: MAX }), MAX);
    // The largest amount that fits: the fee there is the plan's maximum.
    assert.equal(chargedAmountFor(order(MAX - 400_000, 'customer'), PLAN, { AMOUNT_MAX: MAX }), MAX);
  });

  it('refuses a customer-pays amount whose charge passes AMOUNT_MAX, naming the largest that fits', () => {
    assert.throws(
      () => chargedAmountFor(order(MAX - 399_999, 'customer'), PLAN, { AMOUNT_MAX: MAX }),
      (e: unknown) => refused(e) && /at most 499600000 rials/.test((e as Error).message),
    );
    // Where the fee is proportional the largest amount is found exactly: 1 % of 990,099 is 9,901, and 990,099 + 9,901 = 1,000,000.
    assert.throws(
      () => chargedAmountFor(order(990_100, 'customer'), PLAN, { AMOUNT_MAX: 1_000_000 }),
      (e: unknown) => refused(e) && /at most 990099 rials/.test((e as Error).message),
    );
    assert.equal(chargedAmountFor(order(990_099, 'customer'), PLAN, { AMOUNT_MAX: 1_000_000 }), 1_000_000);
  });

  it('is applied by newPayment, which every way of creating a payment goes through', () => {
    const config = { PAYMENT_TTL_SECONDS: 900, AMOUNT_MAX: MAX };
    assert.throws(() => newPayment('p', 'test', order(MAX, 'customer'), config, Date.now(), 'api', PLAN), refused);
    // A payment link's and the compatible protocols' payments: the merchant pays, the charge is the amount.
    assert.equal(newPayment('p', 'test', order(MAX), config, Date.now(), 'zarinpal', PLAN).charged_amount, MAX);
    assert.equal(newPayment('p', 'test', order(MAX), config, Date.now(), 'api', undefined, 'link').charged_amount, MAX);
  });
});

describe('the charged amount on the record', () => {
  it('is written by every insert as create worked it out, with its fee beside it for the previous release', () => {
    const config = { PAYMENT_TTL_SECONDS: 900, AMOUNT_MAX: MAX };
    const customerPays = newPayment('p', 'test', order(1_500_000, 'customer'), config, Date.now(), 'api', PLAN);
    const row = rowFromNewPayment(customerPays, 'm', null);
    assert.deepEqual([row.amount, row.customer_fee, row.charged_amount], [1_500_000, 15_000, 1_515_000]);
    // The sum the payment carries is the one written, not worked out again from the plan.
    const written = rowFromNewPayment({ ...customerPays, charged_amount: 1_520_000 }, 'm', null);
    assert.deepEqual([written.customer_fee, written.charged_amount], [20_000, 1_520_000]);
    const merchantPays = rowFromNewPayment(
      newPayment('p', 'test', order(MAX), config, Date.now(), 'api', PLAN),
      'm',
      null,
    );
    assert.deepEqual([merchantPays.customer_fee, merchantPays.charged_amount], [0, MAX]);
  });
});

describe('a beneficiary transfer’s key at the bank', () => {
  it('keeps the first attempt’s key as it was, and gives each retry its own', () => {
    assert.equal(beneficiaryPayoutKey('s', 'b'), 'payout:s:beneficiary:b');
    assert.equal(beneficiaryPayoutKey('s', 'b', 1), 'payout:s:beneficiary:b');
    assert.equal(beneficiaryPayoutKey('s', 'b', 2), 'payout:s:beneficiary:b:2');
  });
});
