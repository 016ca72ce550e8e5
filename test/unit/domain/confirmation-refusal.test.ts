/** Why a PSP's `confirmed` answer is refused for a payment (src/domain/confirmation-refusal.ts). */
import assert from 'node:assert/strict';
import { isGenuineConfirmation, type ConfirmedAtBank } from '../../../src/domain/bank-confirmation.ts';
import { confirmationRefusalReason } from '../../../src/domain/confirmation-refusal.ts';

const PAYMENT = { id: '3f0c6b1e-8a57-4f0e-9d4c-1b2a3c4d5e6f', amount: 1_250_000 };
const REF = '4711000001';
const GENUINE: ConfirmedAtBank = {
  result: 'confirmed',
  ref_num: REF,
  res_num: PAYMENT.id,
  amount: PAYMENT.amount,
  rrn: '600000000001',
  card_pan: '603799******1234',
  terminal_matches: true,
};

describe('confirmationRefusalReason', () => {
  it('the genuine answer is accepted (the reason is asked only of refused ones)', () => {
    assert.equal(isGenuineConfirmation(GENUINE, PAYMENT, REF), true);
  });

  for (const [reason, changed] of [
    ['other_payment', { res_num: 'another-payment-id' }],
    ['terminal', { terminal_matches: false }],
    ['amount', { amount: PAYMENT.amount + 10 }],
    ['reference', { ref_num: '4711000002' }],
    ['malformed', { rrn: '6000' }],
    ['malformed', { card_pan: '6037991234561234' }],
  ] as const) {
    it(`${JSON.stringify(changed)}: refused, reason ${reason}`, () => {
      const answer = { ...GENUINE, ...changed };
      // Whether a ResNum of another payment is refused is the rule's (bank-confirmation.ts); the others surely are.
      if (reason !== 'other_payment') assert.equal(isGenuineConfirmation(answer, PAYMENT, REF), false);
      assert.equal(confirmationRefusalReason(answer, PAYMENT, REF), reason);
    });
  }

  it("another payment outranks the rest: its money is never reversed on this payment's word", () => {
    assert.equal(
      confirmationRefusalReason({ ...GENUINE, res_num: 'x', amount: 1, terminal_matches: false }, PAYMENT, REF),
      'other_payment',
    );
  });

  it("an answer without a ResNum (SEP's verify detail has none) is judged on the rest", () => {
    assert.equal(confirmationRefusalReason({ ...GENUINE, res_num: '', amount: 1 }, PAYMENT, REF), 'amount');
  });
});
