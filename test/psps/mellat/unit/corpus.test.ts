/**
 * The Mellat connector (src/psps/mellat/) reads Behpardakht's messages as the conformance
 * corpus shows them (test/fixtures/psps/mellat/, docs/psps/mellat.md), not as our simulator writes
 * them: every return post is parsed, every SOAP answer is served (its envelope as the corpus file holds
 * it, by a loopback stand-in that serves the published WSDL pair) to the call that gets it, and every
 * request the connector sends is held against the corpus's request: the same operation, namespace,
 * parameter names in the same order, and values of the same shape.
 */
import assert from 'node:assert/strict';
import { readSoapCall } from '../../../../src/bank-sim/soap-envelope.ts';
import { MellatClient } from '../../../../src/psps/mellat/client.ts';
import { mellatOrderId, mellatRefundOrderId } from '../../../../src/psps/mellat/mapping.ts';
import { MELLAT_CONNECTOR } from '../../../../src/psps/mellat/index.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { CorpusBank } from '../corpus-bank.ts';
import {
  isFormMessage,
  isSoapAnswer,
  isSoapFault,
  isSoapRequest,
  loadMellatCorpus,
  mellatCorpusMessage,
  type MellatCorpusMessage,
} from '../corpus.ts';

const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const REFUND = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const corpus = loadMellatCorpus();
const paidReturn = mellatCorpusMessage('return-paid').message as Record<string, string>;
const SALE_REFERENCE = paidReturn.SaleReferenceId!;
/** The terminal the corpus's requests name, so that its values can be compared as they are. */
const terminal = (() => {
  const { parameters } = mellatCorpusMessage('token-request').message as { parameters: Record<string, string> };
  return { terminalId: parameters.terminalId!, userName: parameters.userName!, password: parameters.userPassword! };
})();

/** A value's shape: digits, empty, or other text (a URL, a name). */
const shape = (v: string) => (v === '' ? 'empty' : /^[0-9]+$/.test(v) ? 'digits' : 'text');

describe('the Mellat conformance corpus', () => {
  it('has every message the protocol has, each from at least two independent sources, its disagreements written down', () => {
    const names = corpus.map((m) => m.name);
    for (const needed of [
      'token-request',
      'token-answer-ok',
      'token-answer-refused',
      'startpay-redirect',
      'return-paid',
      'return-canceled',
      'return-failed',
      'verify-request',
      'verify-answer-ok',
      'verify-answer-verified-before',
      'settle-request',
      'settle-answer-ok',
      'settle-answer-settled-before',
      'reversal-request',
      'reversal-answer-ok',
      'reversal-answer-reversed-before',
      'inquiry-request',
      'inquiry-answer-ok',
      'refund-request',
      'refund-answer-ok',
      'refund-answer-refused',
      'soap-fault',
    ]) {
      assert.ok(names.includes(needed), `the corpus has ${needed}.json`);
    }
    for (const m of corpus) {
      const repos = new Set(m.sources.map((s) => ('repo' in s ? s.repo : s.document)));
      assert.ok(repos.size >= 2, `${m.name}: two independent sources (${[...repos].join(', ')})`);
    }
  });

  it('every SOAP envelope of the corpus says what its fields say (the operation, its namespace, the parameters in order, the return)', () => {
    for (const m of corpus) {
      if (isSoapRequest(m)) {
        const call = readSoapCall(m.message.envelope);
        assert.equal(call?.operation, m.message.soapOperation, m.name);
        assert.equal(call?.namespace, 'http://interfaces.core.sw.bps.com/', m.name);
        assert.deepEqual(
          call?.parameters,
          m.message.order.map((name) => [name, m.message.parameters[name]]),
          m.name,
        );
      } else if (isSoapAnswer(m)) {
        const call = readSoapCall(m.message.envelope);
        assert.equal(call?.operation, `${m.message.soapOperation}Response`, m.name);
        assert.deepEqual(call?.parameters, [['return', m.message.return]], m.name);
      }
    }
  });
});

describe('the Mellat connector against the corpus', () => {
  let bank: CorpusBank;
  let mellat: MellatClient;

  beforeEach(async () => {
    bank = await new CorpusBank().start();
    mellat = new MellatClient({ baseUrl: bank.url, ...terminal, timeoutMs: 5_000 });
  });
  afterEach(() => bank.stop());

  describe('every return post', () => {
    for (const m of corpus.filter((c) => c.direction === 'return' && isFormMessage(c))) {
      it(`${m.name}: parsed as ${m.outcome}`, () => {
        const fields = m.message as Record<string, string>;
        // The corpus's SaleOrderId is an integration's; here it is our payment's, as Behpardakht would send it back.
        const ours = { ...fields, SaleOrderId: mellatOrderId(PAYMENT) };
        const callback = MELLAT_CONNECTOR.parseReturn(ours, PAYMENT);
        assert.ok(callback !== undefined, `${m.name} is read`);
        assert.equal(callback.state, m.outcome);
        assert.equal(callback.token, fields.RefId);
        assert.equal(callback.res_num, PAYMENT);
        assert.equal(callback.ref_num, fields.SaleReferenceId ?? '');
        assert.equal(
          MELLAT_CONNECTOR.parseReturn(fields, PAYMENT),
          undefined,
          "a return naming another order is not this payment's",
        );
        assert.deepEqual(
          MELLAT_CONNECTOR.parseReturn(fields)?.res_num,
          fields.SaleOrderId,
          'without a payment, the order the return names',
        );
      });
    }
  });

  it('the way to the page: a form POST of RefId to /pgwchannel/startpay.mellat, as startpay-redirect.json', async () => {
    const redirect = mellatCorpusMessage('startpay-redirect');
    bank.answer('bpPayRequest', 'token-answer-ok');
    const token = await mellat.requestToken(PAYMENT, 1_000, 'http://callback.test');
    assert.equal(token.method, redirect.http.method);
    assert.equal(new URL(token.url).pathname, redirect.http.path);
    assert.deepEqual(Object.keys(token.fields), Object.keys(redirect.message));
    assert.equal(token.fields.RefId, (redirect.message as Record<string, string>).RefId);
  });

  /** Each operation's call, as the connector makes it for the corpus's payment. */
  const calls: Record<string, { soap: string; run: (m: MellatClient) => Promise<unknown> }> = {
    token: { soap: 'bpPayRequest', run: (m) => m.requestToken(PAYMENT, 1_000, 'http://callback.test') },
    confirm: { soap: 'bpVerifyRequest', run: (m) => m.confirm(PAYMENT, SALE_REFERENCE, 1_000) },
    settle: { soap: 'bpSettleRequest', run: (m) => m.settle(PAYMENT, SALE_REFERENCE) },
    reverse: { soap: 'bpReversalRequest', run: (m) => m.reverse(PAYMENT, SALE_REFERENCE) },
    inquire: {
      soap: 'bpInquiryRequest',
      run: (m) => m.inquire(PAYMENT, { ref_num: SALE_REFERENCE, token: 'AF82041a2Bf6989c7fF9' }),
    },
    refund: { soap: 'bpRefundRequest', run: (m) => m.refund(PAYMENT, SALE_REFERENCE, REFUND, 400) },
  };

  describe('every SOAP answer', () => {
    const expectations: Record<string, (m: MellatCorpusMessage, result: Promise<unknown>) => Promise<void>> = {
      token: async (m, result) => {
        if (m.outcome === 'refused')
          return void (await assert.rejects(
            result,
            (e: unknown) => e instanceof BankRefusalError && e.code === m.code,
          ));
        const refId = (m.message as { return: string }).return.split(',')[1];
        assert.deepEqual(await result, {
          token: refId,
          url: `${bank.url}/pgwchannel/startpay.mellat`,
          method: 'POST',
          fields: { RefId: refId },
        });
      },
      confirm: async (m, result) => {
        if (m.outcome === 'refused')
          return void assert.deepEqual(await result, {
            result: 'refused',
            code: m.code,
            description: 'sale transaction not found',
          });
        assert.deepEqual(await result, {
          result: 'confirmed',
          basis: 'result_code',
          ref_num: SALE_REFERENCE,
          res_num: PAYMENT,
          amount: 1_000,
          terminal: terminal.terminalId,
          rrn: null,
          card_pan: null,
        });
      },
      inquire: async (m, result) => assert.deepEqual(await result, { standing: m.outcome }),
    };
    const operationAnswer = async (m: MellatCorpusMessage, result: Promise<unknown>) => {
      if (m.outcome === 'refused')
        return void (await assert.rejects(result, (e: unknown) => e instanceof BankRefusalError && e.code === m.code));
      assert.deepEqual(await result, { ref_num: SALE_REFERENCE, result_code: m.code });
    };
    for (const m of corpus.filter(isSoapAnswer)) {
      it(`${m.name}: ${m.operation} → ${m.outcome}`, async () => {
        const call = calls[m.operation];
        assert.ok(call !== undefined, `the connector has a call for ${m.operation}`);
        assert.equal(call.soap, m.message.soapOperation);
        bank.answer(call.soap, m.name);
        await (expectations[m.operation] ?? operationAnswer)(m, call.run(mellat));
        assert.equal(bank.callsOf(call.soap).length, 1, 'asked once');
      });
    }

    it('soap-fault.json: every call gets BankUnavailableError (worth another try), its message without the password', async () => {
      const fault = corpus.find(isSoapFault);
      assert.ok(fault !== undefined);
      for (const [operation, call] of Object.entries(calls)) {
        bank.answer(call.soap, fault.name);
        await assert.rejects(
          call.run(mellat),
          (e: unknown) =>
            e instanceof BankUnavailableError && /HTTP 500/.test(e.message) && !e.message.includes(terminal.password),
          operation,
        );
      }
    });
  });

  describe('every SOAP request', () => {
    for (const m of corpus.filter(isSoapRequest)) {
      it(`${m.name}: ${m.message.soapOperation} with the corpus's parameters, in its order, of its shapes`, async () => {
        const call = calls[m.operation];
        assert.ok(call !== undefined, `the connector has a call for ${m.operation}`);
        await call.run(mellat).catch(() => undefined); // no answer configured: only the request matters here
        const [sent] = bank.callsOf(m.message.soapOperation);
        assert.ok(sent !== undefined, `${m.message.soapOperation} was sent`);
        assert.equal(sent.namespace, readSoapCall(m.message.envelope)?.namespace);
        assert.deepEqual(
          sent.parameters.map(([name]) => name),
          m.message.order,
          'the published parameters, in the published order',
        );
        const values = Object.fromEntries(sent.parameters);
        for (const name of m.message.order)
          assert.equal(
            shape(values[name]!),
            shape(m.message.parameters[name]!),
            `${name}: ${values[name]} is of the shape of ${m.message.parameters[name]}`,
          );
        // Where the connector is given the corpus's values, it sends them as they are.
        for (const name of [
          'terminalId',
          'userName',
          'userPassword',
          'saleReferenceId',
          'amount',
          'refundAmount',
          'callBackUrl',
          'additionalData',
          'payerId',
        ]) {
          if (name in m.message.parameters) assert.equal(values[name], m.message.parameters[name], name);
        }
        // The order ids are ours: the sale's is the payment's, a refund's its own.
        if ('saleOrderId' in values) assert.equal(values.saleOrderId, mellatOrderId(PAYMENT));
        assert.equal(values.orderId, m.operation === 'refund' ? mellatRefundOrderId(REFUND) : mellatOrderId(PAYMENT));
        if (m.operation === 'token') {
          assert.match(values.localDate!, /^20[0-9]{6}$/);
          assert.match(values.localTime!, /^[0-2][0-9][0-5][0-9][0-5][0-9]$/);
        }
      });
    }
  });

  it('an inquiry of a return that names no sale (a cancel or a failure: no SaleReferenceId) asks nothing and decides nothing', async () => {
    for (const name of ['return-canceled', 'return-failed']) {
      const fields = {
        ...(mellatCorpusMessage(name).message as Record<string, string>),
        SaleOrderId: mellatOrderId(PAYMENT),
      };
      const callback = MELLAT_CONNECTOR.parseReturn(fields, PAYMENT);
      assert.ok(callback !== undefined);
      assert.deepEqual(await mellat.inquire(PAYMENT, callback), { standing: 'open' });
    }
    assert.equal(bank.calls.length, 0, 'no bpInquiryRequest with saleReferenceId 0');
  });
});
