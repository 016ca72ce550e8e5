import assert from 'node:assert/strict';
import { isGenuineConfirmation, type ConfirmedAtBank } from '../../../src/domain/bank-confirmation.ts';

const payment = { id: 'a5d0c6a4-5a0e-4b5e-9a47-0c6f3b1f2e10', amount: 125_000 };
const refNum = '418273645512';

/** SEP's answer: the bank's own detail of what it verified. */
const detailed: ConfirmedAtBank = {
  result: 'confirmed',
  ref_num: refNum,
  res_num: payment.id,
  amount: 125_000,
  rrn: '403912775810',
  card_pan: '603799******1234',
  terminal_matches: true,
};
/** Mellat's answer: the code alone, for the transaction the verify named. */
const byCode: ConfirmedAtBank = {
  result: 'confirmed',
  basis: 'result_code',
  ref_num: refNum,
  res_num: payment.id,
  amount: 125_000,
  rrn: null,
  card_pan: null,
  terminal_matches: true,
};

describe("the bank's confirmation: what pays a payment", () => {
  it("a bank's detail of this payment (terminal, amount, id, reference, RRN, masked card) pays", () => {
    assert.equal(isGenuineConfirmation(detailed, payment, refNum), true);
  });

  it('a detailed answer without an RRN or card, or with malformed ones, pays nothing (SEP stays as strict as before)', () => {
    for (const wrong of [
      { rrn: null },
      { rrn: '' },
      { rrn: '40391277581' },
      { card_pan: null },
      { card_pan: '' },
      { card_pan: '6037991234561234' },
    ]) {
      assert.equal(isGenuineConfirmation({ ...detailed, ...wrong }, payment, refNum), false, JSON.stringify(wrong));
    }
  });

  it("a result code's confirmation of this payment's sale pays without an RRN or card, on the protocol's terms", () => {
    assert.equal(isGenuineConfirmation(byCode, payment, refNum), true);
  });

  it("a result code's confirmation that carries an RRN or card is not what that protocol answers: it pays nothing", () => {
    assert.equal(isGenuineConfirmation({ ...byCode, rrn: '403912775810' }, payment, refNum), false);
    assert.equal(isGenuineConfirmation({ ...byCode, card_pan: '603799******1234' }, payment, refNum), false);
  });

  it('either kind of answer for another terminal, amount, payment or reference pays nothing', () => {
    for (const answer of [detailed, byCode]) {
      const wrongs: Partial<ConfirmedAtBank>[] = [
        { terminal_matches: false },
        { terminal_matches: undefined },
        { amount: 124_999 },
        { res_num: 'another-payment' },
        { ref_num: '418273645513' },
      ];
      for (const wrong of wrongs)
        assert.equal(
          isGenuineConfirmation({ ...answer, ...wrong }, payment, refNum),
          false,
          `${answer.basis ?? 'detail'} ${JSON.stringify(wrong)}`,
        );
      assert.equal(
        isGenuineConfirmation({ ...answer, ref_num: 'A<B>C' }, payment, 'A<B>C'),
        false,
        "a reference outside the banks' alphabet (digits, or SEP's Base64-like RefNum)",
      );
    }
  });
});
