/**
 * The return route's reading of a PSP's return (src/psps/callbacks.ts, docs/psps/): each PSP's
 * fields read by its own mapping, and a return read with another PSP's refused. Mellat's result
 * codes are tested with its folder (test/psps/mellat/unit/mapping.test.ts).
 */
import assert from 'node:assert/strict';
import { parseBankCallback } from '../../../src/psps/callbacks.ts';
import { mellatCallback, mellatOrderId } from '../../../src/psps/mellat/mapping.ts';
import { sepCallback } from '../../../src/psps/sep/mapping.ts';

const PAYMENT = '0f6e3c1a-8b2d-4e5f-9a7b-1c2d3e4f5a6b';

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
