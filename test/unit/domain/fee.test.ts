import assert from 'node:assert/strict';
import { computeFee, type FeePlan } from '../../../src/domain/payment.ts';

/** The default plan (FEE_BPS 100, FEE_MIN 1000, FEE_MAX 400000): 1 %, at least 1 000 and at most 400 000 rials. */
const DEFAULT: FeePlan = { bps: 100, min: 1_000, max: 400_000 };
/** 1 % without bounds, to see the rounding alone. */
const UNBOUNDED: FeePlan = { bps: 100, min: 0, max: 1_000_000_000 };

describe('fees', () => {
  it('is the plan’s basis points of the amount', () => {
    assert.equal(computeFee(2_000_000, DEFAULT), 20_000);
    assert.equal(computeFee(1_000_000, { bps: 250, min: 2_000, max: 50_000 }), 25_000);
    assert.equal(computeFee(1_234_567, { bps: 150, min: 0, max: 1_000_000 }), 18_519);
  });

  it('rounds half a rial up and less than half down', () => {
    assert.equal(computeFee(12_250, UNBOUNDED), 123); // 122.5: half up, not to even
    assert.equal(computeFee(12_350, UNBOUNDED), 124); // 123.5
    assert.equal(computeFee(12_349, UNBOUNDED), 123); // 123.49
    assert.equal(computeFee(12_351, UNBOUNDED), 124); // 123.51
    assert.equal(computeFee(49, UNBOUNDED), 0); // 0.49
    assert.equal(computeFee(50, UNBOUNDED), 1); // 0.5
  });

  it('raises a fee below the minimum to the minimum', () => {
    assert.equal(computeFee(50_000, DEFAULT), 1_000); // 500
    assert.equal(computeFee(99_949, DEFAULT), 1_000); // 999.49
    assert.equal(computeFee(99_950, DEFAULT), 1_000); // 999.5 rounds to the minimum itself
    assert.equal(computeFee(100_050, DEFAULT), 1_001); // 1 000.5
  });

  it('lowers a fee above the maximum to the maximum', () => {
    assert.equal(computeFee(40_000_000, DEFAULT), 400_000); // exactly the maximum
    assert.equal(computeFee(40_000_100, DEFAULT), 400_000); // 400 001
    assert.equal(computeFee(50_000_000, DEFAULT), 400_000); // 500 000
  });

  it('never takes more than the amount, even when the minimum is larger', () => {
    assert.equal(computeFee(500, DEFAULT), 500);
    assert.equal(computeFee(1, DEFAULT), 1);
    assert.equal(computeFee(777, { bps: 10_000, min: 0, max: 1_000_000 }), 777); // 100 %
  });

  it('is the minimum for a plan of 0 basis points, and flat when minimum and maximum are equal', () => {
    assert.equal(computeFee(10_000_000, { bps: 0, min: 2_500, max: 400_000 }), 2_500);
    assert.equal(computeFee(10_000_000, { bps: 0, min: 0, max: 400_000 }), 0);
    assert.equal(computeFee(123_456_789, { bps: 300, min: 5_000, max: 5_000 }), 5_000);
    assert.equal(computeFee(10_000, { bps: 300, min: 5_000, max: 5_000 }), 5_000);
  });
});
