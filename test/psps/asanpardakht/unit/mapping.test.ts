/**
 * Asan Pardakht's mapping (src/psps/asanpardakht/mapping.ts) as a table: each call's statuses
 * and what they are to Dargah, the corpus's answers among them, and the return's reading (the three
 * returns of the corpus, another payment's, malformed).
 */
import assert from 'node:assert/strict';
import { ASANPARDAKHT_CONNECTOR } from '../../../../src/psps/asanpardakht/index.ts';
import {
  asanpardakhtCallback,
  asanpardakhtOrderId,
  asanStatus,
  callbackUrlOf,
  isAsanpardakhtReturn,
  readTranResult,
  type AsanCall,
  type AsanOutcome,
} from '../../../../src/psps/asanpardakht/mapping.ts';
import { asanpardakhtCorpusMessage, isJsonAnswer, loadAsanpardakhtCorpus } from '../corpus.ts';

const PAYMENT = 'pay_01HZXASANPARDAKHT0000001';
const OTHER = 'pay_01HZXASANPARDAKHT0000002';

describe('Asan Pardakht mapping', () => {
  const table: [AsanCall, number, AsanOutcome][] = [
    ['token', 200, 'done'],
    ['token', 489, 'refused'],
    ['token', 473, 'refused'],
    ['token', 484, 'unavailable'],
    ['token', 503, 'unavailable'],
    ['tranResult', 200, 'done'],
    ['tranResult', 472, 'refused'],
    ['tranResult', 571, 'in_progress'],
    ['verify', 200, 'done'],
    ['verify', 472, 'done_before'],
    ['verify', 473, 'done_before'],
    ['verify', 475, 'done_before'],
    ['verify', 471, 'refused'],
    ['verify', 474, 'refused'],
    ['verify', 478, 'refused'],
    ['verify', 571, 'in_progress'],
    ['verify', 573, 'unavailable'],
    ['verify', 401, 'refused'],
    ['settlement', 474, 'done_before'],
    ['settlement', 476, 'done_before'],
    ['settlement', 472, 'refused'],
    ['settlement', 571, 'unavailable'],
    ['reverse', 200, 'done'],
    ['reverse', 472, 'use_cancel'],
    ['reverse', 473, 'done_before'],
    ['reverse', 474, 'refused'],
    ['cancel', 813, 'done_before'],
    ['cancel', 806, 'done_before'],
    ['cancel', 805, 'refused'],
    ['cancel', 814, 'refused'],
    ['cancel', 801, 'unavailable'],
    ['cancel', 599, 'unavailable'],
    ['cancel', 418, 'refused'],
  ];
  for (const [call, status, outcome] of table) {
    it(`${call} ${status} is ${outcome}`, () => assert.equal(asanStatus(call, status).outcome, outcome));
  }

  it("reads every corpus answer's status to the corpus's outcome", () => {
    const callOf: Record<string, AsanCall> = {
      token: 'token',
      lookup: 'tranResult',
      confirm: 'verify',
      settle: 'settlement',
      any: 'verify',
    };
    const expected: Record<string, AsanOutcome[]> = {
      token: ['done'],
      found: ['done'],
      confirmed: ['done', 'done_before'],
      done: ['done', 'done_before'],
      refused: ['refused'],
      in_progress: ['in_progress'],
      use_cancel: ['use_cancel'],
      unavailable: ['unavailable'],
    };
    const answers = loadAsanpardakhtCorpus().filter(isJsonAnswer);
    assert.ok(answers.length >= 15);
    for (const m of answers) {
      const call =
        m.operation === 'reverse' ? (m.http.path === '/v1/Cancel' ? 'cancel' : 'reverse') : callOf[m.operation]!;
      assert.ok(
        expected[m.outcome]!.includes(asanStatus(call, m.status).outcome),
        `${m.name}: ${call} ${m.status} is ${asanStatus(call, m.status).outcome}, the corpus says ${m.outcome}`,
      );
    }
  });

  it('derives a numeric invoice id of at most 15 digits (never card-like) from the payment id, the same every time, another for another payment', () => {
    const id = asanpardakhtOrderId(PAYMENT);
    assert.match(id, /^[1-9][0-9]{0,14}$/);
    assert.ok(Number(id) < 1e15);
    // Over many payments: never 16 digits, which a log scanner takes for a card number.
    for (let i = 0; i < 2_000; i++) assert.ok(asanpardakhtOrderId(`${PAYMENT}-${i}`).length <= 15);
    assert.equal(asanpardakhtOrderId(PAYMENT), id);
    assert.notEqual(asanpardakhtOrderId(OTHER), id);
    assert.equal(ASANPARDAKHT_CONNECTOR.orderId(PAYMENT), id);
  });

  it("puts the invoice id in the callback URL's query, keeping the return route's own", () => {
    const url = new URL(callbackUrlOf('https://gw.test/pay/x/return?lang=en', PAYMENT));
    assert.equal(url.pathname, '/pay/x/return');
    assert.equal(url.searchParams.get('lang'), 'en');
    assert.equal(url.searchParams.get('localInvoiceId'), asanpardakhtOrderId(PAYMENT));
  });

  it("reads the corpus's returns (paid, canceled, failed alike) as OK to be asked of the PSP, the invoice id its reference", () => {
    for (const name of ['return-paid', 'return-canceled', 'return-failed']) {
      const fields = { ...(asanpardakhtCorpusMessage(name).message as Record<string, string>) };
      const invoice = fields.localInvoiceId!;
      assert.deepEqual(
        asanpardakhtCallback(fields),
        { state: 'OK', ref_num: invoice, res_num: invoice, token: '' },
        name,
      );
      assert.equal(ASANPARDAKHT_CONNECTOR.recognisesReturn(fields), true, name);
    }
  });

  it("reads a return of this payment's invoice id, posted fields or not; refuses another payment's and malformed ones", () => {
    const invoice = asanpardakhtOrderId(PAYMENT);
    assert.deepEqual(asanpardakhtCallback({ localInvoiceId: invoice }, PAYMENT), {
      state: 'OK',
      ref_num: invoice,
      res_num: PAYMENT,
      token: '',
    });
    assert.deepEqual(
      asanpardakhtCallback({ localInvoiceId: invoice, ReturningParams: 'xyz' }, PAYMENT)?.ref_num,
      invoice,
    );
    assert.equal(asanpardakhtCallback({ localInvoiceId: asanpardakhtOrderId(OTHER) }, PAYMENT), undefined);
    for (const bad of [
      {},
      { localInvoiceId: '' },
      { localInvoiceId: '0123' },
      { localInvoiceId: '12a' },
      { localInvoiceId: '1'.repeat(20) },
      { invoice: invoice },
    ]) {
      assert.equal(asanpardakhtCallback(bad as Record<string, string>, PAYMENT), undefined, JSON.stringify(bad));
    }
  });

  it("recognises its return by localInvoiceId, never SEP's or Mellat's", () => {
    assert.equal(isAsanpardakhtReturn({ localInvoiceId: '123' }), true);
    assert.equal(isAsanpardakhtReturn({ RefId: 'A', ResCode: '0', SaleOrderId: '1', SaleReferenceId: '2' }), false);
    assert.equal(isAsanpardakhtReturn({ State: 'OK', RefNum: 'x', ResNum: 'y' }), false);
    assert.equal(isAsanpardakhtReturn({ localInvoiceId: '123', ResCode: '0' }), false);
  });

  it("reads TranResult's detail (the corpus's paid answer; amount and id as strings or numbers); refuses one that names no transaction", () => {
    const body = (asanpardakhtCorpusMessage('tranresult-answer-paid').message as { body: Record<string, unknown> })
      .body;
    assert.deepEqual(readTranResult(body), {
      payGateTranId: '987654321',
      amount: 1000,
      rrn: '227926981246',
      cardNumber: '603799******1234',
      salesOrderId: '123456789012345',
    });
    assert.equal(readTranResult({ ...body, payGateTranID: '987654321', amount: 1000 })?.payGateTranId, '987654321');
    assert.equal(readTranResult({ ...body, payGateTranID: undefined }), undefined);
    assert.equal(readTranResult({ ...body, amount: '10.5' }), undefined);
    assert.equal(readTranResult('text'), undefined);
  });

  it("names the page's origin of PAGE_URL, or URL when there is none", () => {
    assert.deepEqual(
      ASANPARDAKHT_CONNECTOR.pageOrigins({
        URL: 'https://ipgrest.asanpardakht.ir',
        PAGE_URL: 'https://asan.shaparak.ir',
        TERMINAL_ID: '1',
      }),
      ['https://asan.shaparak.ir'],
    );
    assert.deepEqual(
      ASANPARDAKHT_CONNECTOR.pageOrigins({ URL: 'http://127.0.0.1:3102', PAGE_URL: '', TERMINAL_ID: '1' }),
      ['http://127.0.0.1:3102'],
    );
    assert.deepEqual(ASANPARDAKHT_CONNECTOR.pageOrigins({ URL: '', PAGE_URL: '', TERMINAL_ID: '1' }), []);
  });
});
