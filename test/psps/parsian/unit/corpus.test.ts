/**
 * The Parsian connector (src/psps/parsian/) reads PEC's messages as the conformance corpus
 * shows them (test/fixtures/psps/parsian/, docs/psps/parsian.md), not as our simulator writes them:
 * every return post is parsed, every SOAP answer is served (its envelope as the corpus file holds it,
 * by a loopback stand-in that serves the services' WSDLs) to the call that gets it, and every request
 * the connector sends is held against the corpus's request: the same service path, operation and
 * namespace, requestData's fields in the same order, values of the same shape, a SOAP 1.1 envelope.
 */
import assert from 'node:assert/strict';
import { ParsianClient } from '../../../../src/psps/parsian/client.ts';
import { PARSIAN_CONNECTOR } from '../../../../src/psps/parsian/index.ts';
import { parsianOrderId } from '../../../../src/psps/parsian/mapping.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { readSoapCall } from '../../../../src/bank-sim/soap-envelope.ts';
import { ParsianCorpusBank } from '../corpus-bank.ts';
import {
  isReturn,
  isSoapAnswer,
  isSoapFault,
  isSoapRequest,
  loadParsianCorpus,
  parsianCorpusMessage,
  type ParsianCorpusMessage,
  type SoapAnswerMessage,
  type SoapRequestMessage,
} from '../corpus.ts';

const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const corpus = loadParsianCorpus();
const paidReturn = parsianCorpusMessage('return-paid').message as Record<string, string>;
const TOKEN = paidReturn.Token!;
const TERMINAL = paidReturn.TerminalNo!;
const PIN = (parsianCorpusMessage('token-request').message as SoapRequestMessage).parameters.LoginAccount!;
const SOAP_11 = 'http://schemas.xmlsoap.org/soap/envelope/';

/** A value's shape: digits, empty, or other text (a URL, a PIN). */
const shape = (v: string) => (v === '' ? 'empty' : /^[0-9]+$/.test(v) ? 'digits' : 'text');

describe('the Parsian conformance corpus', () => {
  it('has every message the protocol has, each from at least two independent sources, its disagreements written down', () => {
    const names = corpus.map((m) => m.name);
    for (const needed of [
      'token-request',
      'token-answer-ok',
      'token-answer-refused',
      'page-redirect',
      'return-paid',
      'return-canceled',
      'return-failed',
      'verify-request',
      'verify-answer-ok',
      'verify-answer-confirmed-before',
      'verify-answer-refused',
      'reversal-request',
      'reversal-answer-ok',
      'reversal-answer-reversed-before',
      'reversal-answer-refused',
      'soap-fault',
    ]) {
      assert.ok(names.includes(needed), `the corpus has ${needed}.json`);
    }
    for (const m of corpus) {
      const repos = new Set(m.sources.map((s) => ('repo' in s ? s.repo : s.document)));
      assert.ok(repos.size >= 2, `${m.name}: two independent sources (${[...repos].join(', ')})`);
    }
  });

  it('every SOAP envelope of the corpus says what its fields say (the operation, its namespace, the fields in order)', () => {
    const namespaces = new Map<string, string>();
    for (const m of corpus) {
      if (isSoapRequest(m)) {
        const call = readSoapCall(m.message.envelope);
        assert.equal(call?.operation, m.message.soapOperation, m.name);
        assert.match(call.namespace, /^https:\/\/pec\.Shaparak\.ir\/NewIPGServices\/(Sale|Confirm|Reversal)\//, m.name);
        namespaces.set(m.message.soapOperation, call.namespace);
        assert.deepEqual(
          call.parameters,
          m.message.order.map((name) => [name, m.message.parameters[name]]),
          m.name,
        );
      }
    }
    for (const m of corpus.filter(isSoapAnswer)) {
      const call = readSoapCall(m.message.envelope);
      assert.equal(call?.operation, `${m.message.soapOperation}Response`, m.name);
      assert.equal(
        call.namespace,
        namespaces.get(m.message.soapOperation),
        `${m.name}: the answer is in its request's namespace`,
      );
      assert.deepEqual(call.parameters, Object.entries(m.message.result), m.name);
    }
  });
});

describe('the Parsian connector against the corpus', () => {
  let bank: ParsianCorpusBank;
  let parsian: ParsianClient;

  beforeEach(async () => {
    bank = await new ParsianCorpusBank().start();
    parsian = new ParsianClient({ baseUrl: bank.url, terminalId: TERMINAL, pin: PIN, timeoutMs: 5_000 });
  });
  afterEach(() => bank.stop());

  describe('every return post', () => {
    for (const m of corpus.filter(isReturn)) {
      it(`${m.name}: parsed as ${m.outcome}`, () => {
        const fields = m.message as Record<string, string>;
        // The corpus's OrderId is an integration's; here it is our payment's, as PEC would send it back.
        const ours = { ...fields, OrderId: parsianOrderId(PAYMENT) };
        const callback = PARSIAN_CONNECTOR.parseReturn(ours, PAYMENT);
        assert.ok(callback !== undefined, `${m.name} is read`);
        assert.equal(callback.state, m.outcome);
        assert.equal(callback.token, fields.Token);
        assert.equal(callback.res_num, PAYMENT);
        assert.equal(callback.ref_num, m.outcome === 'OK' ? fields.Token : '');
        assert.ok(PARSIAN_CONNECTOR.recognisesReturn(fields), 'recognised as PEC’s by its field names');
        assert.equal(
          PARSIAN_CONNECTOR.parseReturn(fields, PAYMENT),
          undefined,
          "a return naming another order is not this payment's",
        );
        assert.equal(
          PARSIAN_CONNECTOR.parseReturn(fields)?.res_num,
          fields.OrderId,
          'without a payment, the order the return names',
        );
      });
    }
  });

  it('the way to the page: a GET of /NewIPG/?Token=…, no fields, as page-redirect.json', async () => {
    const redirect = parsianCorpusMessage('page-redirect');
    bank.answer('SalePaymentRequest', 'token-answer-ok');
    const token = await parsian.requestToken(PAYMENT, 1_000, 'http://callback.test');
    assert.equal(token.method, redirect.http.method);
    const url = new URL(token.url);
    assert.equal(url.pathname, redirect.http.path);
    assert.deepEqual(Object.fromEntries(url.searchParams), redirect.message);
    assert.deepEqual(token.fields, {});
    assert.deepEqual(PARSIAN_CONNECTOR.pageOrigins({ URL: bank.url, PAGE_URL: '' }), [bank.url]);
    assert.deepEqual(PARSIAN_CONNECTOR.pageOrigins({ URL: bank.url, PAGE_URL: 'https://pec.shaparak.ir' }), [
      'https://pec.shaparak.ir',
    ]);
  });

  /** Each operation's call, as the connector makes it for the corpus's payment. */
  const calls: Record<string, { soap: string; path: string; run: (c: ParsianClient) => Promise<unknown> }> = {
    token: {
      soap: 'SalePaymentRequest',
      path: '/NewIPGServices/Sale/SaleService.asmx',
      run: (c) => c.requestToken(PAYMENT, 1_000, 'http://callback.test'),
    },
    confirm: {
      soap: 'ConfirmPayment',
      path: '/NewIPGServices/Confirm/ConfirmService.asmx',
      run: (c) => c.confirm(PAYMENT, TOKEN, 1_000),
    },
    reverse: {
      soap: 'ReversalRequest',
      path: '/NewIPGServices/Reverse/ReversalService.asmx',
      run: (c) => c.reverse(PAYMENT, TOKEN),
    },
  };

  describe('every SOAP answer', () => {
    const refused = (m: ParsianCorpusMessage) => (e: unknown) =>
      e instanceof BankRefusalError && e.code === m.code && !e.message.includes(PIN);
    const expectations: Record<
      string,
      (m: ParsianCorpusMessage & { message: SoapAnswerMessage }, result: Promise<unknown>) => Promise<void>
    > = {
      token: async (m, result) => {
        if (m.outcome === 'refused') return void (await assert.rejects(result, refused(m)));
        const token = m.message.result.Token!;
        assert.deepEqual(await result, { token, url: `${bank.url}/NewIPG/?Token=${token}`, method: 'GET', fields: {} });
      },
      confirm: async (m, result) => {
        const answer = (await result) as Record<string, unknown>;
        if (m.outcome === 'refused')
          return void assert.deepEqual(answer, {
            result: 'refused',
            code: m.code,
            description: 'the payment was not found',
          });
        if (m.outcome === 'in_progress') return void assert.deepEqual(answer, { result: 'in_progress' });
        const { RRN, CardNumberMasked } = m.message.result;
        // PEC's own RRN and card where the answer has them in the shapes a payment records; else the Status alone.
        if (m.code === 0 && CardNumberMasked === '603799******1234') {
          return void assert.deepEqual(answer, {
            result: 'confirmed',
            ref_num: TOKEN,
            res_num: PAYMENT,
            amount: 1_000,
            terminal: TERMINAL,
            rrn: RRN,
            card_pan: CardNumberMasked,
          });
        }
        assert.deepEqual(answer, {
          result: 'confirmed',
          basis: 'result_code',
          ref_num: TOKEN,
          res_num: PAYMENT,
          amount: 1_000,
          terminal: TERMINAL,
          rrn: null,
          card_pan: null,
        });
      },
      reverse: async (m, result) => {
        if (m.outcome === 'refused') return void (await assert.rejects(result, refused(m)));
        assert.deepEqual(await result, { ref_num: TOKEN, result_code: m.code });
      },
    };
    for (const m of corpus.filter(isSoapAnswer)) {
      it(`${m.name}: ${m.operation} → ${m.outcome}`, async () => {
        const call = calls[m.operation];
        assert.ok(call !== undefined, `the connector has a call for ${m.operation}`);
        assert.equal(call.soap, m.message.soapOperation);
        bank.answer(call.soap, m.name);
        await expectations[m.operation]!(m, call.run(parsian));
        assert.equal(bank.callsOf(call.soap).length, 1, 'asked once');
      });
    }

    it('soap-fault.json: every call gets BankUnavailableError (worth another try), its message without the PIN', async () => {
      const fault = corpus.find(isSoapFault);
      assert.ok(fault !== undefined);
      for (const [operation, call] of Object.entries(calls)) {
        bank.answer(call.soap, fault.name);
        await assert.rejects(
          call.run(parsian),
          (e: unknown) => e instanceof BankUnavailableError && /HTTP 500/.test(e.message) && !e.message.includes(PIN),
          operation,
        );
      }
    });

    it('an answer without its Result object says nothing: BankUnavailableError', async () => {
      // The confirm's envelope answered to the sale: its Response holds no SalePaymentRequestResult.
      bank.answer('SalePaymentRequest', 'verify-answer-ok');
      await assert.rejects(calls.token!.run(parsian), BankUnavailableError);
    });

    it('a confirm whose answer names another Token than the one asked about confirms nothing', async () => {
      bank.answer('ConfirmPayment', 'verify-answer-ok');
      const answer = await parsian.confirm(PAYMENT, '999999999', 1_000);
      assert.deepEqual(answer, {
        result: 'refused',
        code: 0,
        description: 'the answer names another Token than the one asked about',
      });
    });
  });

  describe('every SOAP request', () => {
    for (const m of corpus.filter(isSoapRequest)) {
      it(`${m.name}: ${m.message.soapOperation} at ${m.http.path}, requestData's fields in the corpus's order and shapes`, async () => {
        const call = calls[m.operation];
        assert.ok(call !== undefined, `the connector has a call for ${m.operation}`);
        assert.equal(call.path, m.http.path);
        await call.run(parsian).catch(() => undefined); // no answer configured: only the request matters here
        const [sent] = bank.callsOf(m.message.soapOperation);
        assert.ok(sent !== undefined, `${m.message.soapOperation} was sent`);
        assert.equal(sent.path, m.http.path);
        assert.equal(sent.namespace, readSoapCall(m.message.envelope)?.namespace);
        assert.equal(sent.operationKey, `${m.operation}:${PAYMENT}`);
        assert.match(sent.body, new RegExp(`<(\\w+:)?Envelope [^>]*xmlns(:\\w+)?="${SOAP_11}"`), 'a SOAP 1.1 envelope');
        assert.match(sent.body, /<(\w+:)?requestData[ >]/, 'the fields inside one requestData');
        assert.deepEqual(
          sent.parameters.map(([name]) => name),
          m.message.order,
          "the document's fields, in its order",
        );
        const values = Object.fromEntries(sent.parameters);
        for (const name of m.message.order)
          assert.equal(
            shape(values[name]!),
            shape(m.message.parameters[name]!),
            `${name}: ${values[name]} is of the shape of ${m.message.parameters[name]}`,
          );
        // Where the connector is given the corpus's values, it sends them as they are; the order id is the payment's.
        for (const name of ['LoginAccount', 'Amount', 'CallBackUrl', 'AdditionalData', 'Token']) {
          if (name in m.message.parameters) assert.equal(values[name], m.message.parameters[name], name);
        }
        if ('OrderId' in values) assert.equal(values.OrderId, parsianOrderId(PAYMENT));
      });
    }
  });
});

describe("the Parsian connector's outgoing operations: only what the corpus shows", () => {
  const shown = new Set(corpus.filter(isSoapRequest).map((m) => m.message.soapOperation));

  it('every operation the client makes is one a corpus request shows, and it has none of the operations PEC lacks', async () => {
    const bank = await new ParsianCorpusBank().start();
    try {
      for (const op of shown) bank.answer(op, 'soap-fault');
      const parsian = new ParsianClient({ baseUrl: bank.url, terminalId: TERMINAL, pin: PIN, timeoutMs: 5_000 });
      // Every method the client has, with what each takes; a method added later and not listed here fails below.
      const exercised: Record<string, () => Promise<unknown>> = {
        requestToken: () => parsian.requestToken(PAYMENT, 1_000, 'http://callback.test'),
        confirm: () => parsian.confirm(PAYMENT, TOKEN, 1_000),
        reverse: () => parsian.reverse(PAYMENT, TOKEN),
      };
      const methods = Object.getOwnPropertyNames(ParsianClient.prototype).filter(
        (n) =>
          n !== 'constructor' &&
          typeof Object.getOwnPropertyDescriptor(ParsianClient.prototype, n)?.value === 'function',
      );
      const offPath = new Set(['call']);
      assert.deepEqual(
        methods.filter((n) => !offPath.has(n)).sort(),
        Object.keys(exercised).sort(),
        'every operation of the client is exercised here',
      );
      for (const run of Object.values(exercised)) await run().catch(() => undefined);
      assert.deepEqual(
        [...new Set(bank.calls.map((c) => c.operation))].sort(),
        [...shown].sort(),
        'the client calls every operation the corpus shows a request of, and no other',
      );
      const absent = parsian as { settle?: unknown; refund?: unknown; inquire?: unknown; dailyReport?: unknown };
      assert.deepEqual(
        [absent.settle, absent.refund, absent.inquire, absent.dailyReport],
        [undefined, undefined, undefined, undefined],
        'no settle, refund, inquiry or report: no reference shows PEC having one',
      );
      assert.deepEqual(parsian.capabilities, {
        capture: 'verify',
        reversalWindowMs: 50 * 60_000,
        unverifiedReversalMs: 20 * 60_000,
        refund: 'none',
        inquiry: false,
        dailyReport: false,
      });
    } finally {
      await bank.stop();
    }
  });
});
