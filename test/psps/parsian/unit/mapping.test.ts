/**
 * Parsian's mapping (src/psps/parsian/mapping.ts), a table test: PEC's Status codes and what
 * each is to Dargah, the return's fields as a normalized callback (paid, canceled, failed, another
 * payment's, malformed), the order id, and the readings of ConfirmPayment's RRN and masked card.
 */
import assert from 'node:assert/strict';
import {
  confirmedMaskedCard,
  confirmedRrn,
  isParsianReturn,
  PARSIAN_STATUS,
  PARSIAN_STATUS_CODES,
  parsianOrderId,
  parsianReturn,
  parsianStatusMeaning,
  returnState,
  reversalDone,
} from '../../../../src/psps/parsian/mapping.ts';
import { loadMellatCorpus } from '../../mellat/corpus.ts';
import { parsianCorpusMessage } from '../corpus.ts';

const PAYMENT = 'a7d1c6e2-3b4f-4a5d-9e8f-102030405060';
const ORDER = parsianOrderId(PAYMENT);
const paid: Record<string, string> = {
  ...(parsianCorpusMessage('return-paid').message as Record<string, string>),
  OrderId: ORDER,
};

describe("Parsian's mapping", () => {
  it('the order id: the same digits for the same payment, a safe integer below 2^52, another for another payment', () => {
    assert.equal(parsianOrderId(PAYMENT), ORDER);
    assert.match(ORDER, /^[1-9][0-9]{0,15}$/);
    assert.ok(Number(ORDER) < 2 ** 52 && Number.isSafeInteger(Number(ORDER)));
    assert.notEqual(parsianOrderId('b7d1c6e2-3b4f-4a5d-9e8f-102030405060'), ORDER);
  });

  describe('the Status table', () => {
    const table: [code: number, kind: string, meaning: RegExp][] = [
      [0, 'ok', /successful/],
      [-138, 'customer', /canceled by the customer/],
      [-130, 'customer', /expired/],
      [51, 'customer', /insufficient funds/],
      [55, 'customer', /incorrect PIN/],
      [-126, 'merchant', /PIN/],
      [-127, 'merchant', /IP address/],
      [-112, 'merchant', /duplicate order id/],
      [-1530, 'merchant', /may not confirm/],
      [-1, 'bank', /server error/],
      [91, 'bank', /inoperative/],
      [9, 'state', /in progress/],
      [-1528, 'state', /not found/],
      [-1531, 'state', /unsuccessful payment/],
      [-1533, 'state', /already confirmed/],
      [-1549, 'state', /time allowed for a reversal/],
      [-1551, 'state', /already reversed/],
    ];
    for (const [code, kind, meaning] of table) {
      it(`${code}: ${kind}`, () => {
        assert.equal(PARSIAN_STATUS_CODES[code]?.kind, kind);
        assert.match(parsianStatusMeaning(code), meaning);
      });
    }
    it('an unknown code says so', () => assert.equal(parsianStatusMeaning(4242), 'unknown status 4242'));
    it("every named Status is in the table, with the table's kind", () => {
      for (const [name, code] of Object.entries(PARSIAN_STATUS))
        assert.ok(PARSIAN_STATUS_CODES[code] !== undefined, name);
    });
  });

  describe("the return's status as a state", () => {
    const table: [status: number, state: string][] = [
      [0, 'OK'],
      [-138, 'CanceledByUser'],
      [17, 'Failed'], // the switch's "customer cancellation" is not PEC's page's cancel
      [51, 'Failed'],
      [-130, 'Failed'],
      [-1, 'Failed'],
    ];
    for (const [status, state] of table) it(`${status} → ${state}`, () => assert.equal(returnState(status), state));
  });

  describe('a return post', () => {
    const table: [
      what: string,
      fields: Record<string, string>,
      paymentId: string | undefined,
      expected: ReturnType<typeof parsianReturn>,
    ][] = [
      ['paid', paid, PAYMENT, { state: 'OK', ref_num: paid.Token!, res_num: PAYMENT, token: paid.Token! }],
      [
        'canceled (-138)',
        { ...paid, status: '-138', RRN: '0' },
        PAYMENT,
        { state: 'CanceledByUser', ref_num: '', res_num: PAYMENT, token: paid.Token! },
      ],
      [
        'failed (51)',
        { ...paid, status: '51', RRN: '0' },
        PAYMENT,
        { state: 'Failed', ref_num: '', res_num: PAYMENT, token: paid.Token! },
      ],
      [
        'canceled without a Token',
        { status: '-138', OrderId: ORDER, Token: '0' },
        PAYMENT,
        { state: 'CanceledByUser', ref_num: '', res_num: PAYMENT, token: '' },
      ],
      ["another payment's (its OrderId)", { ...paid, OrderId: parsianOrderId('another') }, PAYMENT, undefined],
      [
        'without a payment: the order it names',
        paid,
        undefined,
        { state: 'OK', ref_num: paid.Token!, res_num: ORDER, token: paid.Token! },
      ],
      ['paid without a Token (Token > 0 is the document’s condition)', { ...paid, Token: '0' }, PAYMENT, undefined],
      ['paid with no Token field', { status: '0', OrderId: ORDER }, PAYMENT, undefined],
      ['no status', { ...paid, status: '' }, PAYMENT, undefined],
      ['a status that is no number', { ...paid, status: 'OK' }, PAYMENT, undefined],
      ['a Token that is no long', { ...paid, Token: '12ab' }, PAYMENT, undefined],
      ['a Token with a leading zero (a long has none)', { ...paid, Token: '0175793116' }, PAYMENT, undefined],
      ['an OrderId that is no positive long', { ...paid, OrderId: '-5' }, undefined, undefined],
      ['Status in SEP’s case only', { Token: paid.Token!, Status: '0', OrderId: ORDER }, PAYMENT, undefined],
    ];
    for (const [what, fields, paymentId, expected] of table)
      it(what, () => assert.deepEqual(parsianReturn(fields, paymentId), expected));

    it("is recognised by PEC's own names (Token, lower-case status, OrderId), not SEP's nor Mellat's", () => {
      assert.ok(isParsianReturn(paid));
      assert.ok(
        !isParsianReturn({ MID: '1', State: 'OK', Status: '2', RefNum: 'x', ResNum: 'y', Token: 't' }),
        "SEP's",
      );
      for (const m of loadMellatCorpus().filter((c) => c.direction === 'return'))
        assert.ok(!isParsianReturn(m.message as Record<string, string>), `Mellat's ${m.name}`);
    });
  });

  describe("ConfirmPayment's RRN and masked card", () => {
    const rrns: [string, string | null][] = [
      ['123456789012', '123456789012'],
      ['23456789012', '023456789012'], // a long loses the leading zero of a 12-digit RRN
      ['0', null], // the document: success is Status 0 and RRN > 0
      ['', null],
      ['1234567890123', null],
      ['-5', null],
    ];
    for (const [value, expected] of rrns)
      it(`RRN ${JSON.stringify(value)} → ${JSON.stringify(expected)}`, () =>
        assert.equal(confirmedRrn(value), expected));
    const cards: [string, string | null][] = [
      ['603799******1234', '603799******1234'],
      ['6037-99**-****-1234', '603799******1234'],
      ['603799XXXXXX1234', '603799******1234'],
      ['1234-****-****-1234', null], // a 4-4-4-4 mask (library mocks): no six-digit BIN to keep
      ['6037991234561234', null], // an unmasked number is never recorded
      ['', null],
    ];
    for (const [value, expected] of cards)
      it(`card ${JSON.stringify(value)} → ${JSON.stringify(expected)}`, () =>
        assert.equal(confirmedMaskedCard(value), expected));
  });

  describe("ReversalRequest's Status", () => {
    const table: [number, boolean][] = [
      [0, true],
      [-1551, true],
      [-102, true],
      [-1507, true],
      [-1549, false],
      [-1550, false],
      [-1552, false],
      [-1528, false],
      [-1, false],
    ];
    for (const [status, done] of table)
      it(`${status} → ${done ? 'done' : 'refused'}`, () => assert.equal(reversalDone(status), done));
  });
});
