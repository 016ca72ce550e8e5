/**
 * PEP's mapping (src/psps/pasargad/mapping.ts) as tables: its result codes and what each is to
 * Dargah, the return's query as a BankCallback (paid, failed, expired, unknown, canceled, another
 * payment's, malformed), the inquiry's answer as a Confirmation (paid, awaiting confirmation, confirmed,
 * not decided, given back, refused), confirm-transactions' answer, the invoice number and the invoice
 * date; and the connector (index.ts) built from a terminal's settings.
 */
import assert from 'node:assert/strict';
import { PASARGAD_CONNECTOR } from '../../../../src/psps/pasargad/index.ts';
import {
  inquiryConfirmation,
  PASARGAD_CODE,
  PASARGAD_RESULT_CODES,
  pasargadCodeMeaning,
  pasargadInvoiceDate,
  pasargadOrderId,
  pasargadReturn,
  readConfirmAnswer,
  readInquiry,
  recognisesPasargadReturn,
} from '../../../../src/psps/pasargad/mapping.ts';
import { PASARGAD_PROFILE } from '../../../../src/psps/pasargad/profile.ts';
import type { PspClient } from '../../../../src/psps/psp-client.ts';

const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const INVOICE = pasargadOrderId(PAYMENT);
const REFERENCE = '418302957164';

describe("PEP's result codes", () => {
  const rows: [number, string, RegExp][] = [
    [0, 'ok', /successful/],
    [2, 'state', /unknown/],
    [401, 'merchant', /not authorized/],
    [13003, 'merchant', /invoice is not unique/],
    [13016, 'state', /not found/],
    [13029, 'state', /confirmed/],
    [13031, 'state', /awaiting confirmation/],
    [13033, 'state', /reversed/],
    [13076, 'state', /time to reverse/],
    [13402, 'merchant', /Referer/],
    [13428, 'state', /sent before/],
    [13430, 'bank', /try again/],
  ];
  for (const [code, kind, meaning] of rows) {
    it(`${code}: ${kind}`, () => {
      assert.equal(PASARGAD_RESULT_CODES[code]?.kind, kind);
      assert.match(pasargadCodeMeaning(code), meaning);
    });
  }
  it("an unknown code says so; the named codes are in the table (but Dargah's own)", () => {
    assert.equal(pasargadCodeMeaning(4242), 'unknown result code 4242');
    for (const [name, code] of Object.entries(PASARGAD_CODE))
      if (name !== 'NOT_THIS_PAYMENT') assert.ok(PASARGAD_RESULT_CODES[code] !== undefined, name);
    assert.equal(PASARGAD_RESULT_CODES[PASARGAD_CODE.NOT_THIS_PAYMENT], undefined, 'not a code of PEP');
  });
});

describe("PEP's return as a BankCallback", () => {
  const paid = { invoiceId: INVOICE, status: 'success', referenceNumber: REFERENCE, trackId: '4821' };
  const rows: [string, Record<string, string>, ReturnType<typeof pasargadReturn>][] = [
    ['paid', paid, { state: 'OK', ref_num: REFERENCE, res_num: PAYMENT, token: '' }],
    [
      'paid, names in another case',
      { InvoiceId: INVOICE, Status: 'Success', ReferenceNumber: REFERENCE },
      { state: 'OK', ref_num: REFERENCE, res_num: PAYMENT, token: '' },
    ],
    ['failed', { invoiceId: INVOICE, status: 'failed' }, { state: 'Failed', ref_num: '', res_num: PAYMENT, token: '' }],
    [
      'expired',
      { invoiceId: INVOICE, status: 'expire' },
      { state: 'Failed', ref_num: '', res_num: PAYMENT, token: '' },
    ],
    [
      'unknown',
      { invoiceId: INVOICE, status: 'unknown' },
      { state: 'Failed', ref_num: '', res_num: PAYMENT, token: '' },
    ],
    [
      'canceled',
      { invoiceId: INVOICE, status: 'cancel' },
      { state: 'CanceledByUser', ref_num: '', res_num: PAYMENT, token: '' },
    ],
    ['another payment', { ...paid, invoiceId: '42' }, undefined],
    ['a paid one without its reference', { invoiceId: INVOICE, status: 'success' }, undefined],
    ['a status PEP has not', { invoiceId: INVOICE, status: 'ok' }, undefined],
    ['an invoice of letters', { ...paid, invoiceId: 'abc' }, undefined],
    ['a reference of letters', { ...paid, referenceNumber: 'x1' }, undefined],
  ];
  for (const [what, fields, expected] of rows) {
    it(what, () => assert.deepEqual(pasargadReturn(fields, PAYMENT), expected));
  }
  it('without a payment to hold it to, the invoice is its id; recognised by invoiceId and status', () => {
    assert.equal(pasargadReturn(paid)?.res_num, INVOICE);
    assert.ok(recognisesPasargadReturn(paid));
    assert.ok(!recognisesPasargadReturn({ OrderId: '1', ResCode: '0', token: 'x' }), "Sadad's return is not PEP's");
  });
});

describe("PEP's inquiry as a Confirmation", () => {
  const answer = (status: number | string, extra: object = {}) => ({
    resultMsg: 'Successful',
    resultCode: 0,
    data: {
      status,
      amount: 10_001,
      cardNumber: '502229******1234',
      invoice: INVOICE,
      url: 'abc123',
      referenceNumber: REFERENCE,
      ...extra,
    },
  });
  const confirmed = {
    result: 'confirmed',
    ref_num: REFERENCE,
    res_num: PAYMENT,
    amount: 10_001,
    terminal: '95908673',
    rrn: REFERENCE,
    card_pan: '502229******1234',
  };
  const rows: [string, Record<string, unknown>, unknown][] = [
    ['status 0: paid', answer(0), confirmed],
    ['status 13031: awaiting confirmation, paid', answer(13031), confirmed],
    ['status 13029: confirmed', answer('13029'), confirmed],
    ['status 2: not decided yet', answer(2), { result: 'in_progress' }],
    [
      'status 13033: given back',
      answer(13033),
      { result: 'refused', code: 13033, description: 'reversed: the money was given back' },
    ],
    [
      'status 13045: canceled',
      answer(13045),
      { result: 'refused', code: 13045, description: 'the card holder canceled the transaction' },
    ],
    ['another invoice', answer(0, { invoice: '77' }), { ...confirmed, res_num: 'order:77' }],
    [
      'a refused inquiry',
      { resultMsg: 'Transaction not found', resultCode: 13016 },
      { result: 'refused', code: 13016, description: 'Transaction not found' },
    ],
    ['no resultCode', { resultMsg: '' }, { result: 'refused', code: 1, description: 'failed' }],
  ];
  for (const [what, json, expected] of rows) {
    it(what, () => assert.deepEqual(inquiryConfirmation(readInquiry(json), PAYMENT, '95908673'), expected));
  }
  it('reads the urlId from data.url', () => {
    const reading = readInquiry(answer(0));
    assert.ok(reading.standing === 'paid' && reading.urlId === 'abc123');
  });
});

describe("PEP's confirm-transactions answer", () => {
  it('0 with its detail; 13428 or 13029 confirmed before; anything else refused', () => {
    assert.deepEqual(
      readConfirmAnswer({ resultCode: 0, data: { invoice: INVOICE, amount: '10001', referenceNumber: REFERENCE } }),
      { result: 'confirmed', invoice: INVOICE, amount: 10_001, referenceNumber: REFERENCE },
    );
    assert.deepEqual(readConfirmAnswer({ resultCode: 13428 }), { result: 'confirmed_before', code: 13428 });
    assert.deepEqual(readConfirmAnswer({ resultCode: '13029' }), { result: 'confirmed_before', code: 13029 });
    assert.deepEqual(readConfirmAnswer({ resultCode: 13016, resultMsg: '' }), {
      result: 'refused',
      code: 13016,
      description: 'transaction not found',
    });
  });
});

describe("PEP's invoice and invoice date", () => {
  it('the invoice: fifteen digits at most, the same for the same payment', () => {
    assert.match(INVOICE, /^[0-9]{1,15}$/);
    assert.equal(pasargadOrderId(PAYMENT), INVOICE);
    assert.notEqual(pasargadOrderId('0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d6'), INVOICE);
  });
  it("the invoice date: Tehran's wall time, YYYY/MM/DD HH:mm:ss", () => {
    // 2026-12-02T06:50:30Z is 10:20:30 in Tehran (+03:30).
    assert.equal(pasargadInvoiceDate(new Date('2026-12-02T06:50:30Z')), '2026/12/02 10:20:30');
    assert.equal(pasargadInvoiceDate(new Date('2026-12-01T20:30:00Z')), '2026/12/02 00:00:00');
  });
});

describe('the Pasargad connector from its settings', () => {
  it('a client of the terminal, user name and password; the page origin of URL, or PAGE_URL', () => {
    const settings = {
      URL: 'https://pep.shaparak.ir/dorsa1',
      PAGE_URL: '',
      TERMINAL_ID: '95908673',
      USERNAME: 'u',
      PASSWORD: 'p',
    };
    const client: PspClient = PASARGAD_CONNECTOR.client(settings, 1_000);
    assert.equal(client.terminalId, '95908673');
    assert.equal(client.name, 'pasargad');
    assert.deepEqual(client.capabilities, PASARGAD_PROFILE.capabilities);
    assert.equal(client.settle !== undefined && client.inquire === undefined && client.refund === undefined, true);
    assert.deepEqual(PASARGAD_CONNECTOR.pageOrigins(settings), ['https://pep.shaparak.ir']);
    assert.equal(PASARGAD_CONNECTOR.orderId(PAYMENT), INVOICE);
  });
});
