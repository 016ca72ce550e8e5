/**
 * The PSPs' message mappings (src/psps/*\/mapping.ts, docs/psps/): every Mellat result
 * code's callback state and inquiry standing, the answers' values, the numeric order id, and the
 * return route's reading of either PSP's callback fields.
 */
import assert from 'node:assert/strict';
import { parseBankCallback } from '../../../src/psps/callbacks.ts';
import {
  answerValues,
  callbackState,
  inquiryStanding,
  MELLAT_RESULT_CODES,
  mellatCallback,
  mellatCodeMeaning,
  mellatOrderId,
} from '../../../src/psps/mellat/mapping.ts';
import { sepCallback } from '../../../src/psps/sep/mapping.ts';

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

describe('the callback of each PSP', () => {
  const mellat = {
    RefId: 'AF82041A2C',
    ResCode: '0',
    SaleOrderId: mellatOrderId(PAYMENT),
    SaleReferenceId: '154511111111',
    CardHolderPan: '610433******1234',
    FinalAmount: '1000',
  };
  const sep = { State: 'OK', RefNum: '12345678901234', ResNum: PAYMENT, Token: 'abcdef0123456789', TraceNo: '1' };

  it("normalizes Mellat's fields: the payment's id for its order id, RefId as the token, SaleReferenceId as the reference", () => {
    assert.deepEqual(mellatCallback(mellat, PAYMENT), {
      state: 'OK',
      ref_num: '154511111111',
      res_num: PAYMENT,
      token: 'AF82041A2C',
    });
    assert.deepEqual(mellatCallback({ ...mellat, ResCode: '17', SaleReferenceId: '' }, PAYMENT), {
      state: 'CanceledByUser',
      ref_num: '',
      res_num: PAYMENT,
      token: 'AF82041A2C',
    });
  });

  it('refuses Mellat fields of another order, a paid callback with no reference, or malformed fields', () => {
    assert.equal(mellatCallback({ ...mellat, SaleOrderId: '42' }, PAYMENT), undefined);
    assert.equal(mellatCallback({ ...mellat, SaleReferenceId: '' }, PAYMENT), undefined);
    assert.equal(mellatCallback({ ...mellat, RefId: '<script>' }, PAYMENT), undefined);
    assert.equal(mellatCallback({ ...mellat, ResCode: 'OK' }, PAYMENT), undefined);
  });

  it("normalizes SEP's fields and refuses another payment's", () => {
    assert.deepEqual(sepCallback(sep, PAYMENT), {
      state: 'OK',
      ref_num: '12345678901234',
      res_num: PAYMENT,
      token: 'abcdef0123456789',
    });
    assert.equal(sepCallback({ ...sep, ResNum: 'another' }, PAYMENT), undefined);
  });

  it("reads a post by the payment's PSP, or, with none recorded, by the fields' own names", () => {
    assert.equal(parseBankCallback(mellat, PAYMENT)?.token, 'AF82041A2C');
    assert.equal(parseBankCallback(sep, PAYMENT)?.token, 'abcdef0123456789');
    assert.equal(
      parseBankCallback(mellat, PAYMENT, 'sep'),
      undefined,
      "a SEP payment's return takes SEP's fields only",
    );
    assert.equal(parseBankCallback(sep, PAYMENT, 'mellat'), undefined);
  });
});
