import assert from 'node:assert/strict';
import {
  isLuhnValid,
  isNationalCodeValid,
  maskNationalCode,
  MASKED_NATIONAL_CODE_PATTERN,
  pspCanEnforceCards,
  restrictionProblems,
} from '../../../src/domain/card-restriction.ts';
import { maskCardPan } from '../../../src/domain/payment.ts';

describe('who may pay: cards and national code', () => {
  describe('the Luhn check of a card number', () => {
    for (const card of ['6037991234567893', '6104331234567890', '5022291234567897', '4111111111111111']) {
      it(`passes ${card}`, () => assert.equal(isLuhnValid(card), true));
    }
    it('refuses every other last digit of a valid number', () => {
      for (let d = 0; d <= 9; d++) {
        const card = `603799123456789${d}`;
        assert.equal(isLuhnValid(card), d === 3, card);
      }
    });
    it('refuses two swapped neighbours, letters and numbers too short or too long', () => {
      assert.equal(isLuhnValid('6037991234567839'), false);
      assert.equal(isLuhnValid('60379912345678a3'), false);
      assert.equal(isLuhnValid('42'), false);
      assert.equal(isLuhnValid('60379912345678930000'), false);
    });
  });

  describe("the national code's check digit", () => {
    // 0499370899: sum of 0·10+4·9+9·8+9·7+3·6+7·5+0·4+8·3+9·2 = 266, 266 mod 11 = 2, check 11-2 = 9.
    for (const code of ['0499370899', '0084575948', '1000000001']) {
      it(`passes ${code}`, () => assert.equal(isNationalCodeValid(code), true));
    }
    it('refuses every other check digit', () => {
      for (let d = 0; d <= 9; d++) assert.equal(isNationalCodeValid(`049937089${d}`), d === 9, String(d));
    });
    it('takes the remainder itself as the check digit when it is below 2, else 11 minus it', () => {
      // 3·3+1·2 = 11: remainder 0, check 0; 4·3 = 12: remainder 1, check 1.
      assert.equal(isNationalCodeValid('0000000310'), true);
      assert.equal(isNationalCodeValid('0000000401'), true);
      assert.equal(isNationalCodeValid('0000000400'), false);
      // 1·10 = 10: remainder 10, check 11-10 = 1, not 10's last digit 0.
      assert.equal(isNationalCodeValid('1000000000'), false);
    });
    it('refuses ten equal digits, other lengths and non-digits', () => {
      for (const code of ['0000000000', '1111111111', '049937089', '04993708999', '04993708a9'])
        assert.equal(isNationalCodeValid(code), false, code);
    });
  });

  describe('masks', () => {
    it('shows a card by its first six and last four digits', () =>
      assert.equal(maskCardPan('6037991234567893'), '603799******7893'));
    it('shows a national code by its first three and last two digits', () => {
      assert.equal(maskNationalCode('0499370899'), '049*****99');
      assert.match(maskNationalCode('0499370899'), new RegExp(MASKED_NATIONAL_CODE_PATTERN));
    });
  });

  describe("a create request's problems", () => {
    it('names each bad card by its place, and the national code, never their values', () => {
      const problems = restrictionProblems({
        allowed_cards: ['6037991234567893', '6037991234567894'],
        national_code: '0499370898',
      });
      assert.deepEqual(
        problems.map((p) => p.path),
        ['allowed_cards.1', 'national_code'],
      );
      for (const p of problems) assert.doesNotMatch(p.message, /[0-9]{10}/);
    });
    it('finds none in a good restriction, or in none', () => {
      assert.deepEqual(restrictionProblems({ allowed_cards: ['6037991234567893'], national_code: '0499370899' }), []);
      assert.deepEqual(restrictionProblems({}), []);
    });
  });

  it('sends a payment restricted to cards only to a PSP whose confirmation names the card: SEP, not Mellat', () => {
    assert.equal(pspCanEnforceCards('sep'), true);
    assert.equal(pspCanEnforceCards('mellat'), false);
  });
});
