/**
 * Sepehr's mapping (src/psps/sepehr/mapping.ts) as tables: its codes and what each is to
 * Dargah, the return's fields as a BankCallback (paid, canceled, failed, another payment's,
 * malformed), the answers of Advice and Rollback, the order id; the profile's capabilities as
 * docs/psps/sepehr.md gives them; and the connector (index.ts) built from a terminal's settings.
 */
import assert from 'node:assert/strict';
import { SEPEHR_CONNECTOR } from '../../../../src/psps/sepehr/index.ts';
import {
  isSepehrReturn,
  readAdviceAnswer,
  readAnswer,
  SEPEHR_CODE,
  SEPEHR_RESULT_CODES,
  SEPEHR_RETURN_CODES,
  sepehrCallback,
  sepehrCodeMeaning,
  sepehrOrderId,
} from '../../../../src/psps/sepehr/mapping.ts';
import { SEPEHR_PROFILE } from '../../../../src/psps/sepehr/profile.ts';
import { SEPEHR_SIMULATOR } from '../../../../src/psps/sepehr/simulator.ts';

const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const ORDER = sepehrOrderId(PAYMENT);
const RECEIPT = '6A1F0C9E2B7D4E81A3C5';

describe("Sepehr's codes", () => {
  const rows: [number, string, RegExp][] = [
    [0, 'ok', /successful/],
    [-1, 'state', /not found/],
    [-2, 'merchant', /IP address/],
    [-3, 'bank', /general error/],
    [-4, 'state', /cannot be done/],
    [-5, 'merchant', /invalid IP/],
    [-6, 'merchant', /rollback service is not enabled/],
  ];
  for (const [code, kind, meaning] of rows) {
    it(`${code}: ${kind}`, () => {
      assert.equal(SEPEHR_RESULT_CODES[code]?.kind, kind);
      assert.match(sepehrCodeMeaning(code), meaning);
    });
  }
  it("an unknown code says so; the return's own codes; Dargah's own code is none of Sepehr's", () => {
    assert.equal(sepehrCodeMeaning(4242), 'unknown result code 4242');
    assert.deepEqual(
      Object.keys(SEPEHR_RETURN_CODES)
        .map(Number)
        .sort((a, b) => a - b),
      [-2, -1, 0],
    );
    assert.equal(SEPEHR_RESULT_CODES[SEPEHR_CODE.UNREADABLE], undefined);
  });
});

describe("Sepehr's return as a BankCallback", () => {
  const paid = { respcode: '0', invoiceid: ORDER, digitalreceipt: RECEIPT, rrn: '123456789012', cardnumber: 'x' };
  const rows: [string, Record<string, string>, ReturnType<typeof sepehrCallback>][] = [
    ['paid', paid, { state: 'OK', ref_num: RECEIPT, res_num: PAYMENT, token: '' }],
    [
      'paid, the names in another case',
      { RespCode: '0', InvoiceId: ORDER, DigitalReceipt: RECEIPT },
      { state: 'OK', ref_num: RECEIPT, res_num: PAYMENT, token: '' },
    ],
    [
      'canceled',
      { respcode: '-1', invoiceid: ORDER, digitalreceipt: '' },
      { state: 'CanceledByUser', ref_num: '', res_num: PAYMENT, token: '' },
    ],
    [
      'canceled, no invoiceid (the signed return address names the payment)',
      { respcode: '-1' },
      { state: 'CanceledByUser', ref_num: '', res_num: PAYMENT, token: '' },
    ],
    ['timed out', { respcode: '-2', invoiceid: ORDER }, { state: 'Failed', ref_num: '', res_num: PAYMENT, token: '' }],
    [
      'another code',
      { respcode: '-9', invoiceid: ORDER },
      { state: 'Failed', ref_num: '', res_num: PAYMENT, token: '' },
    ],
    ["another payment's", { ...paid, invoiceid: sepehrOrderId('another') }, undefined],
    ["another payment's cancel", { respcode: '-1', invoiceid: sepehrOrderId('another') }, undefined],
    ['paid without a receipt', { ...paid, digitalreceipt: '' }, undefined],
    ['paid with a receipt of no reference shape', { ...paid, digitalreceipt: 'a receipt' }, undefined],
    ['paid without an invoiceid', { respcode: '0', digitalreceipt: RECEIPT }, undefined],
    ['no respcode', { invoiceid: ORDER, digitalreceipt: RECEIPT }, undefined],
    ['a respcode that is no number', { ...paid, respcode: 'OK' }, undefined],
    ['an invoiceid that is no number', { ...paid, invoiceid: 'order-1' }, undefined],
  ];
  for (const [label, fields, expected] of rows) {
    it(label, () => assert.deepEqual(sepehrCallback(fields, PAYMENT), expected));
  }
  it('without a payment id: the invoiceid names it; a failure without one names nothing', () => {
    assert.deepEqual(sepehrCallback(paid), { state: 'OK', ref_num: RECEIPT, res_num: ORDER, token: '' });
    assert.equal(sepehrCallback({ respcode: '-1' }), undefined);
  });
  it("is recognised by respcode and invoiceid, in any case, and not another PSP's fields", () => {
    assert.ok(isSepehrReturn(paid));
    assert.ok(isSepehrReturn({ RespCode: '-1', InvoiceID: ORDER }));
    assert.ok(!isSepehrReturn({ ResCode: '0', SaleOrderId: '1', RefId: 'x' }), "Mellat's");
    assert.ok(!isSepehrReturn({ OrderId: '1', token: 'x', ResCode: '0' }), "Sadad's");
    assert.ok(!isSepehrReturn({ State: 'OK', ResNum: PAYMENT, RefNum: 'x' }), "SEP's");
  });
});

describe("Advice's and Rollback's answers", () => {
  it('Status in any case, ReturnId a number or digits; anything else is not an answer of Sepehr', () => {
    assert.deepEqual(readAnswer({ Status: 'Ok', ReturnId: '1000', Message: 'm' }), {
      status: 'ok',
      returnId: 1000,
      message: 'm',
    });
    assert.deepEqual(readAnswer({ status: 'OK', returnId: 1000 }), { status: 'ok', returnId: 1000, message: '' });
    assert.deepEqual(readAnswer({ Status: 'Duplicate', ReturnId: 1000 }), {
      status: 'duplicate',
      returnId: 1000,
      message: '',
    });
    assert.deepEqual(readAnswer({ Status: 'NOK', ReturnId: '-6' }), { status: 'nok', code: -6, message: '' });
    assert.deepEqual(readAnswer({ Status: 'NOK' }), { status: 'nok', code: SEPEHR_CODE.UNREADABLE, message: '' });
    assert.deepEqual(readAnswer({ Status: 0 }), { status: 'unknown' });
    assert.deepEqual(readAnswer({}), { status: 'unknown' });
  });
  it("an Advice's Ok is a result_code confirmation of the receipt asked, for ReturnId's amount; NOK a refusal; no amount is -1", () => {
    assert.deepEqual(readAdviceAnswer({ Status: 'Ok', ReturnId: '1000' }, PAYMENT, RECEIPT, '79492072'), {
      result: 'confirmed',
      basis: 'result_code',
      ref_num: RECEIPT,
      res_num: PAYMENT,
      amount: 1000,
      terminal: '79492072',
      rrn: null,
      card_pan: null,
    });
    const noAmount = readAdviceAnswer({ Status: 'Duplicate' }, PAYMENT, RECEIPT, '79492072');
    assert.equal(noAmount?.result === 'confirmed' && noAmount.amount, -1);
    assert.deepEqual(readAdviceAnswer({ Status: 'NOK', ReturnId: -1 }, PAYMENT, RECEIPT, '79492072'), {
      result: 'refused',
      code: -1,
      description: sepehrCodeMeaning(-1),
    });
    assert.equal(readAdviceAnswer({ Status: 'pending' }, PAYMENT, RECEIPT, '79492072'), undefined);
  });
});

describe("Sepehr's order id, profile and connector", () => {
  it('the order id is fifteen digits at most, the same for the same payment, another for another', () => {
    assert.match(ORDER, /^[0-9]{1,15}$/);
    assert.equal(sepehrOrderId(PAYMENT), ORDER);
    assert.notEqual(sepehrOrderId('another'), ORDER);
    assert.equal(SEPEHR_CONNECTOR.orderId(PAYMENT), ORDER);
  });
  it('capabilities as docs/psps/sepehr.md gives them: captured at its verify, Rollback for 50 minutes (assumed), given back after 30, no refund, inquiry or report, no card at verify', () => {
    assert.deepEqual(SEPEHR_PROFILE.capabilities, {
      capture: 'verify',
      reversalWindowMs: 50 * 60_000,
      unverifiedReversalMs: 30 * 60_000,
      refund: 'none',
      inquiry: false,
      dailyReport: false,
    });
    assert.equal(SEPEHR_PROFILE.namesCardAtVerify, false);
    assert.deepEqual(SEPEHR_PROFILE.settings, []);
    assert.equal(SEPEHR_PROFILE.simulator.port, 3107);
    assert.equal(SEPEHR_PROFILE.simulator.autoReverseSeconds * 1000, SEPEHR_PROFILE.capabilities.unverifiedReversalMs);
    assert.deepEqual(
      { ...SEPEHR_SIMULATOR.defaults, settings: undefined },
      { ...SEPEHR_PROFILE.simulator, settings: undefined },
    );
  });
  it("the client of a terminal's settings: its address, its page's (Sepehr's port 8080) and terminal; the page's origin", () => {
    const settings = {
      URL: 'https://sepehr.shaparak.ir:8081/',
      PAGE_URL: 'https://sepehr.shaparak.ir:8080',
      TERMINAL_ID: '79492072',
    };
    const client = SEPEHR_CONNECTOR.client(settings, 5_000);
    assert.equal(client.name, 'sepehr');
    assert.equal(client.terminalId, '79492072');
    assert.deepEqual(client.endpoint, {
      baseUrl: 'https://sepehr.shaparak.ir:8081',
      pageBaseUrl: 'https://sepehr.shaparak.ir:8080',
      terminalId: '79492072',
      timeoutMs: 5_000,
    });
    assert.deepEqual(SEPEHR_CONNECTOR.pageOrigins(settings), ['https://sepehr.shaparak.ir:8080']);
  });
});
