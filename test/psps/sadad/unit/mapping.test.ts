/**
 * Sadad's mapping (src/psps/sadad/mapping.ts) as tables: its result codes and what each is to
 * Dargah, the return's fields as a BankCallback (paid, canceled, failed, another payment's,
 * malformed), the verify's answer as a Confirmation, the order id, the signature's key and
 * LocalDateTime; and the connector (index.ts) built from a terminal's settings.
 */
import assert from 'node:assert/strict';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { SADAD_CONNECTOR } from '../../../../src/psps/sadad/index.ts';
import {
  isSadadReturn,
  readVerifyAnswer,
  SADAD_CODE,
  SADAD_RESULT_CODES,
  sadadCallback,
  sadadCodeMeaning,
  sadadKey,
  sadadLocalDateTime,
  sadadOrderId,
} from '../../../../src/psps/sadad/mapping.ts';
import { SADAD_PROFILE } from '../../../../src/psps/sadad/profile.ts';

const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const ORDER = sadadOrderId(PAYMENT);
const TOKEN = 'kjslflnvda13464sdv13a';
const KEY = 'REFSR0FILVRFU1QtS0VZLU5PVC1SRUFM';

describe("Sadad's result codes", () => {
  const rows: [number, string, RegExp][] = [
    [0, 'ok', /successful/],
    [-1, 'state', /no such transaction/],
    [100, 'state', /verified successfully before/],
    [101, 'state', /time to verify/],
    [61, 'merchant', /above the limit/],
    [1011, 'merchant', /order id was used before/],
    [1025, 'merchant', /signature/],
    [1056, 'bank', /down/],
    [1105, 'state', /returned/],
  ];
  for (const [code, kind, meaning] of rows) {
    it(`${code}: ${kind}`, () => {
      assert.equal(SADAD_RESULT_CODES[code]?.kind, kind);
      assert.match(sadadCodeMeaning(code), meaning);
    });
  }
  it("an unknown code says so; the named codes are in the table (but Dargah's own)", () => {
    assert.equal(sadadCodeMeaning(4242), 'unknown result code 4242');
    const ours = new Set(['NO_SUCH_OPERATION', 'NOT_THIS_PAYMENT']);
    for (const [name, code] of Object.entries(SADAD_CODE))
      if (!ours.has(name)) assert.ok(SADAD_RESULT_CODES[code] !== undefined, name);
    assert.equal(SADAD_RESULT_CODES[SADAD_CODE.NO_SUCH_OPERATION], undefined, 'not a code of Sadad');
    assert.equal(SADAD_RESULT_CODES[SADAD_CODE.NOT_THIS_PAYMENT], undefined, 'not a code of Sadad');
  });
});

describe("Sadad's return as a BankCallback", () => {
  const paid = { OrderId: ORDER, token: TOKEN, ResCode: '0', HashedCardNo: 'x', PrimaryAccNo: '603799******1234' };
  const rows: [string, Record<string, string>, ReturnType<typeof sadadCallback>][] = [
    ['paid', paid, { state: 'OK', ref_num: TOKEN, res_num: PAYMENT, token: TOKEN }],
    [
      'paid, Token spelled as iran-payment-laravel does',
      { OrderId: ORDER, Token: TOKEN, ResCode: '0' },
      { state: 'OK', ref_num: TOKEN, res_num: PAYMENT, token: TOKEN },
    ],
    [
      'paid, the names in other cases',
      { orderid: ORDER, TOKEN: TOKEN, rescode: '0' },
      { state: 'OK', ref_num: TOKEN, res_num: PAYMENT, token: TOKEN },
    ],
    [
      'canceled (-1: Sadad does not tell a cancel from a failure)',
      { OrderId: ORDER, token: TOKEN, ResCode: '-1' },
      { state: 'Failed', ref_num: TOKEN, res_num: PAYMENT, token: TOKEN },
    ],
    [
      'failed without a token',
      { OrderId: ORDER, ResCode: '-1' },
      { state: 'Failed', ref_num: '', res_num: PAYMENT, token: '' },
    ],
    ["another payment's", { ...paid, OrderId: sadadOrderId('another-payment') }, undefined],
    ['malformed: no OrderId', { token: TOKEN, ResCode: '0' }, undefined],
    ['malformed: OrderId not a number', { ...paid, OrderId: '12a' }, undefined],
    ['malformed: ResCode not a number', { ...paid, ResCode: 'OK' }, undefined],
    ['malformed: paid without a token', { OrderId: ORDER, ResCode: '0' }, undefined],
    ['malformed: a token with a space', { ...paid, token: 'a b' }, undefined],
  ];
  for (const [name, fields, expected] of rows) {
    it(name, () => assert.deepEqual(sadadCallback(fields, PAYMENT), expected));
  }
  it('without the payment, the callback names the order id it carries', () => {
    assert.deepEqual(sadadCallback(paid), { state: 'OK', ref_num: TOKEN, res_num: ORDER, token: TOKEN });
  });
  it("is recognised by its own fields, not by Mellat's or SEP's", () => {
    assert.equal(isSadadReturn(paid), true);
    assert.equal(isSadadReturn({ orderid: ORDER, Token: TOKEN, rescode: '-1' }), true);
    assert.equal(
      isSadadReturn({ RefId: 'AF82041a2Bf6989c7fF9', ResCode: '0', SaleOrderId: '1', SaleReferenceId: '2' }),
      false,
    );
    assert.equal(isSadadReturn({ State: 'OK', RefNum: 'abc', ResNum: PAYMENT, MID: '1' }), false);
  });
});

describe("Sadad's verify answer as a Confirmation", () => {
  const ok = {
    ResCode: 0,
    Amount: 1000,
    Description: '',
    RetrivalRefNo: '142514251425',
    SystemTraceNo: '4567',
    OrderId: Number(ORDER),
  };
  const confirmed = {
    result: 'confirmed',
    basis: 'result_code',
    ref_num: TOKEN,
    res_num: PAYMENT,
    amount: 1000,
    terminal: '24000615',
    rrn: null,
    card_pan: null,
  };
  const rows: [string, unknown, unknown][] = [
    ['0: confirmed', ok, confirmed],
    ['100: verified before, confirmed', { ...ok, ResCode: 100 }, confirmed],
    ['numbers as strings', { ...ok, ResCode: '0', Amount: '1000', OrderId: ORDER }, confirmed],
    ['-1: refused', { ResCode: -1, Description: 'no' }, { result: 'refused', code: -1, description: 'no' }],
    [
      "101: refused, with the table's meaning",
      { ResCode: 101 },
      { result: 'refused', code: 101, description: sadadCodeMeaning(101) },
    ],
    [
      '1: refused (one source\'s "verified before", not followed)',
      { ResCode: 1 },
      { result: 'refused', code: 1, description: sadadCodeMeaning(1) },
    ],
    ['no ResCode: refused', {}, { result: 'refused', code: -1, description: 'an answer without a ResCode' }],
    ['another order id: named as such', { ...ok, OrderId: 5 }, { ...confirmed, res_num: 'order:5' }],
  ];
  for (const [name, answer, expected] of rows) {
    it(name, () => assert.deepEqual(readVerifyAnswer(answer, PAYMENT, TOKEN, '24000615'), expected));
  }
  it("the workflow's judgment takes the payment's own and refuses another amount or order", () => {
    const judge = (answer: object) => {
      const c = readVerifyAnswer(answer, PAYMENT, TOKEN, '24000615');
      return (
        c.result === 'confirmed' &&
        isGenuineConfirmation({ ...c, terminal_matches: true }, { id: PAYMENT, amount: 1000 }, TOKEN)
      );
    };
    assert.equal(judge(ok), true);
    assert.equal(judge({ ...ok, Amount: 2000 }), false);
    assert.equal(judge({ ...ok, OrderId: 5 }), false);
  });
});

describe("Sadad's order id, key and LocalDateTime", () => {
  it('the order id is a safe integer derived from the payment id, the same every time, another for another payment', () => {
    assert.match(ORDER, /^[1-9][0-9]{0,15}$/);
    assert.ok(Number.isSafeInteger(Number(ORDER)));
    assert.equal(sadadOrderId(PAYMENT), ORDER);
    assert.notEqual(sadadOrderId('another-payment'), ORDER);
  });
  it('the key is base64 of 24 bytes; anything else is refused without the key in the message', () => {
    assert.equal(sadadKey(KEY).length, 24);
    for (const bad of ['', 'not base64!', Buffer.alloc(16).toString('base64')]) {
      assert.throws(
        () => sadadKey(bad),
        (e: unknown) => e instanceof Error && !e.message.includes(bad === '' ? '\u0000' : bad),
      );
    }
  });
  it("LocalDateTime is Tehran's wall time as Sadad's PHP sample writes it", () => {
    assert.equal(sadadLocalDateTime(new Date('2026-11-27T14:42:00Z')), '11/27/2026 6:12:00 pm');
    assert.equal(sadadLocalDateTime(new Date('2026-01-05T20:31:09Z')), '01/06/2026 12:01:09 am');
  });
});

describe('the Sadad connector', () => {
  const settings = {
    URL: 'https://sadad.shaparak.ir/VPG/',
    PAGE_URL: '',
    TERMINAL_ID: '24000615',
    MERCHANT_ID: '000000140000001',
    KEY,
  };
  it("makes its client from the settings by suffix, its profile the client's capabilities", () => {
    const client = SADAD_CONNECTOR.client(settings, 5_000);
    assert.equal(client.name, 'sadad');
    assert.equal(client.terminalId, '24000615');
    assert.deepEqual(client.capabilities, SADAD_PROFILE.capabilities);
    assert.throws(() => SADAD_CONNECTOR.client({ ...settings, KEY: 'short' }, 5_000), /base64 of 24 bytes/);
  });
  it("the page is on the URL's origin, or PAGE_URL's when given", () => {
    assert.deepEqual(SADAD_CONNECTOR.pageOrigins(settings), ['https://sadad.shaparak.ir']);
    assert.deepEqual(SADAD_CONNECTOR.pageOrigins({ ...settings, PAGE_URL: 'https://page.example/VPG' }), [
      'https://page.example',
    ]);
  });
  it('reads and recognises returns, and derives the order id', () => {
    assert.equal(SADAD_CONNECTOR.orderId(PAYMENT), ORDER);
    assert.equal(SADAD_CONNECTOR.parseReturn({ OrderId: ORDER, token: TOKEN, ResCode: '0' }, PAYMENT)?.state, 'OK');
    assert.equal(SADAD_CONNECTOR.recognisesReturn({ OrderId: ORDER, token: TOKEN, ResCode: '0' }), true);
  });
  it("declares what its references show: the verify final and asked at the merchant's verify (no reversal), no refund or inquiry, 15 minutes before Sadad gives an unverified payment back", () => {
    assert.deepEqual(SADAD_PROFILE.capabilities, {
      capture: 'merchant_verify',
      reversalWindowMs: 0,
      unverifiedReversalMs: 900_000,
      refund: 'none',
      inquiry: false,
      dailyReport: false,
    });
    assert.equal(SADAD_PROFILE.simulator.autoReverseSeconds * 1000, SADAD_PROFILE.capabilities.unverifiedReversalMs);
    assert.deepEqual(
      SADAD_PROFILE.settings.map((s) => [s.suffix, s.secret]),
      [
        ['MERCHANT_ID', false],
        ['KEY', true],
      ],
    );
  });
});
