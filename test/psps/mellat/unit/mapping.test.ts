/**
 * Behpardakht Mellat's mapping (src/psps/mellat/mapping.ts) as a table: every result code's callback
 * state, inquiry standing and meaning, the answers' values, and the numeric order id.
 */
import assert from 'node:assert/strict';
import {
  answerValues,
  callbackState,
  inquiryStanding,
  MELLAT_RESULT_CODES,
  mellatCodeMeaning,
  mellatOrderId,
} from '../../../../src/psps/mellat/mapping.ts';

const PAYMENT = '0f6e3c1a-8b2d-4e5f-9a7b-1c2d3e4f5a6b';

describe('Mellat result codes', () => {
  for (const [code, { meaning, kind }] of Object.entries(MELLAT_RESULT_CODES).map(
    ([c, v]) => [Number(c), v] as const,
  )) {
    it(`${code} (${meaning}): callback ${callbackState(code)}, inquiry ${inquiryStanding(code)}`, () => {
      assert.equal(callbackState(code), code === 0 ? 'OK' : code === 17 ? 'CanceledByUser' : 'Failed');
      const standing = inquiryStanding(code);
      if (code === 0 || code === 43 || code === 45) assert.equal(standing, 'succeeded');
      else if (code === 17) assert.equal(standing, 'canceled');
      else
        assert.equal(
          standing,
          kind === 'customer' ? 'failed' : 'open',
          "only the customer's codes fail a payment; the others decide nothing",
        );
      assert.equal(mellatCodeMeaning(code), meaning);
    });
  }

  it('an unknown code fails a callback, decides no inquiry, and says it is unknown', () => {
    assert.equal(callbackState(999), 'Failed');
    assert.equal(inquiryStanding(999), 'open');
    assert.equal(mellatCodeMeaning(999), 'unknown result code 999');
  });

  it("reads an answer's values, its first the code", () => {
    assert.deepEqual(answerValues('0,AF82041A2C'), { code: 0, values: ['AF82041A2C'] });
    assert.deepEqual(answerValues('43'), { code: 43, values: [] });
    assert.deepEqual(answerValues(undefined), { code: -1, values: [] });
    assert.deepEqual(answerValues('error'), { code: -1, values: [] });
  });
});

describe('the numeric order id of a payment', () => {
  it('is the same every time, digits only, a safe integer, and differs between payments', () => {
    assert.equal(mellatOrderId(PAYMENT), mellatOrderId(PAYMENT));
    assert.match(mellatOrderId(PAYMENT), /^[0-9]{1,16}$/);
    assert.ok(Number.isSafeInteger(Number(mellatOrderId(PAYMENT))));
    assert.notEqual(mellatOrderId(PAYMENT), mellatOrderId('1f6e3c1a-8b2d-4e5f-9a7b-1c2d3e4f5a6b'));
  });
});
