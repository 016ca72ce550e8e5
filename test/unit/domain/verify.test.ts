import assert from 'node:assert/strict';
import { verifyRefusal, type PaymentStatus, type VerifyRefusalCode } from '../../../src/domain/payment.ts';

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

const AMOUNT = 1_500_000;
const DEADLINE = '2025-03-01T10:30:00.000Z';
const DEADLINE_MS = Date.parse(DEADLINE);
const BEFORE_DEADLINE = DEADLINE_MS - 60_000;

const payment = (status: PaymentStatus, verify_deadline_at: string | null = DEADLINE) => ({
  status,
  amount: AMOUNT,
  verify_deadline_at,
});
const code = (status: PaymentStatus, amount: number, nowMs = BEFORE_DEADLINE): VerifyRefusalCode | undefined =>
  verifyRefusal(payment(status), amount, nowMs)?.code;

describe('verify refusals', () => {
  describe('with the right amount, before the deadline', () => {
    const expected: Record<PaymentStatus, VerifyRefusalCode | undefined> = {
      created: 'payment_not_paid',
      pending: 'payment_pending',
      paid: undefined,
      verified: undefined,
      partially_refunded: undefined,
      refunded: undefined,
      failed: 'payment_not_paid',
      canceled: 'payment_not_paid',
      expired: 'payment_not_paid',
      reversed: 'verify_deadline_passed',
    };
    for (const [status, refusal] of Object.entries(expected) as [PaymentStatus, VerifyRefusalCode | undefined][]) {
      it(`${article(status)} ${status} payment ${refusal === undefined ? 'may be verified' : `is refused with ${refusal}`}`, () => {
        assert.equal(code(status, AMOUNT), refusal);
      });
    }
  });

  describe('with a wrong amount', () => {
    it('a paid payment is refused with amount_mismatch, one rial more or less', () => {
      assert.equal(code('paid', AMOUNT + 1), 'amount_mismatch');
      assert.equal(code('paid', AMOUNT - 1), 'amount_mismatch');
    });

    it('a verified payment, refunded or not, is refused with amount_mismatch instead of answering again', () => {
      for (const status of ['verified', 'partially_refunded', 'refunded'] as const)
        assert.equal(code(status, AMOUNT - 1), 'amount_mismatch', status);
    });

    it('a payment that cannot be verified is refused for its status first', () => {
      assert.equal(code('created', AMOUNT + 1), 'payment_not_paid');
      assert.equal(code('pending', AMOUNT + 1), 'payment_pending');
      assert.equal(code('failed', AMOUNT + 1), 'payment_not_paid');
      assert.equal(code('reversed', AMOUNT + 1), 'verify_deadline_passed');
    });
  });

  describe('the verify deadline', () => {
    it('a verify 1 ms before the deadline is allowed', () => {
      assert.equal(code('paid', AMOUNT, DEADLINE_MS - 1), undefined);
    });

    it('a verify exactly at the deadline is refused with verify_deadline_passed', () => {
      assert.equal(code('paid', AMOUNT, DEADLINE_MS), 'verify_deadline_passed');
    });

    it('a verify after the deadline is refused with verify_deadline_passed, even with a wrong amount', () => {
      assert.equal(code('paid', AMOUNT, DEADLINE_MS + 1), 'verify_deadline_passed');
      assert.equal(code('paid', AMOUNT + 1, DEADLINE_MS), 'verify_deadline_passed');
    });

    it('does not matter once the payment is verified: the same verify is answered again', () => {
      assert.equal(code('verified', AMOUNT, DEADLINE_MS + 86_400_000), undefined);
    });

    it('a paid payment without a deadline never passes it', () => {
      assert.equal(verifyRefusal(payment('paid', null), AMOUNT, Number.MAX_SAFE_INTEGER), undefined);
    });
  });

  it('explains each refusal in words', () => {
    assert.equal(
      verifyRefusal(payment('expired'), AMOUNT, BEFORE_DEADLINE)?.message,
      'The payment is expired; only a paid payment can be verified.',
    );
    assert.equal(
      verifyRefusal(payment('paid'), AMOUNT + 1, BEFORE_DEADLINE)?.message,
      'The amount does not match the payment amount.',
    );
  });
});
