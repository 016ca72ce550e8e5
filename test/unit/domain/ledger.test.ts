import assert from 'node:assert/strict';
import {
  endsWithoutMoney,
  expectedPaymentBalances,
  LEDGER_ACCOUNTS,
  MOVEMENTS,
  movementLines,
} from '../../../src/domain/ledger.ts';
import { PAYMENT_STATUSES } from '../../../src/domain/payment.ts';

describe('ledger movements', () => {
  it('every movement balances, for any amount and fee', () => {
    for (const movement of MOVEMENTS) {
      for (const [amount, fee] of [
        [1, 0],
        [10_000, 100],
        [987_654_321, 5_000_000],
        [5_000, 5_000],
      ] as const) {
        const lines = movementLines(movement, amount, fee);
        assert.equal(
          lines.reduce((s, l) => s + l.amount, 0),
          0,
          movement,
        );
        assert.ok(
          lines.every((l) => l.amount !== 0 && LEDGER_ACCOUNTS.includes(l.account)),
          movement,
        );
      }
    }
  });

  it('verify puts the amount less the fee on the balance and the fee on fees; a fee of the whole amount leaves no balance line', () => {
    assert.deepEqual(movementLines('verify', 1_000_000, 10_000), [
      { account: 'held', amount: -1_000_000 },
      { account: 'balance', amount: 990_000 },
      { account: 'fees', amount: 10_000 },
    ]);
    assert.deepEqual(movementLines('verify', 5_000, 5_000), [
      { account: 'held', amount: -5_000 },
      { account: 'fees', amount: 5_000 },
    ]);
  });

  it('refuses an amount that is not a whole number of rials', () => {
    assert.throws(() => movementLines('capture', 10.5), /whole number/);
  });

  it("a payment's expected balances sum to zero in every status", () => {
    for (const status of PAYMENT_STATUSES) {
      const b = expectedPaymentBalances({
        status,
        amount: 1_000_000,
        fee: 10_000,
        refunded_amount: 300_000,
        pending_refunds: 100_000,
        succeeded_refunds: 200_000,
      });
      assert.equal(
        Object.values(b).reduce((s, v) => s + v, 0),
        0,
        status,
      );
    }
  });

  it('failed, canceled, expired and reversed payments end without money', () => {
    assert.deepEqual(PAYMENT_STATUSES.filter(endsWithoutMoney), ['failed', 'canceled', 'expired', 'reversed']);
  });
});
