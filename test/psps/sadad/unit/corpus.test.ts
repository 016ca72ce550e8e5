/**
 * The Sadad connector (src/psps/sadad/) reads Sadad's messages as the conformance corpus
 * shows them (test/fixtures/psps/sadad/, docs/psps/sadad.md), not as our simulator writes them:
 * every return post is parsed, every answer is served (as the corpus file holds it, by a loopback
 * stand-in of the test's own) to the call that gets it, and every request the connector sends is
 * held against the corpus's request: the same path, JSON, field names in the same order, values of
 * the same types, and a SignData computed as the sources compute it.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { SadadClient } from '../../../../src/psps/sadad/client.ts';
import { SADAD_CODE, sadadKey, sadadOrderId, sadadSignature } from '../../../../src/psps/sadad/mapping.ts';
import { SADAD_CONNECTOR } from '../../../../src/psps/sadad/index.ts';
import {
  corpusAnswer,
  corpusFields,
  corpusRequest,
  isFieldsMessage,
  isJsonRequest,
  loadSadadCorpus,
  sadadCorpusMessage,
  type JsonAnswerMessage,
} from '../corpus.ts';

const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const corpus = loadSadadCorpus();
const tokenRequest = corpusRequest('token-request');
const terminal = {
  terminalId: String(tokenRequest.json.TerminalId),
  merchantId: String(tokenRequest.json.MerchantId),
  key: tokenRequest.signature.key,
};
/** The one corpus file with a single repository as its source, as the corpus's README says. */
const SINGLE_SOURCE = new Set(['verify-answer-verified-before']);

/** A JSON value's type as the corpus compares it. */
const typeOf = (v: unknown) => (v === null ? 'null' : typeof v);

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback stand-in of Sadad: answers each call with the next corpus answer queued, records what it received. */
class CorpusBank {
  readonly received: Received[] = [];
  private readonly queue: JsonAnswerMessage[] = [];
  private server: Server | undefined;
  url = '';

  answerWith(name: string, change?: (json: Record<string, unknown>) => Record<string, unknown>): this {
    const answer = corpusAnswer(name);
    this.queue.push(
      change === undefined || answer.json === null
        ? answer
        : { ...answer, json: change({ ...answer.json }) as JsonAnswerMessage['json'] },
    );
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const answer = this.queue.shift();
        if (answer === undefined) return void res.writeHead(404).end();
        res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(answer.json === null ? '' : JSON.stringify(answer.json));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

describe('the Sadad conformance corpus', () => {
  it('has every message the protocol has, each from at least two independent sources (but the one the README names), its disagreements written down', () => {
    const names = corpus.map((m) => m.name);
    for (const needed of [
      'token-request',
      'token-answer-ok',
      'token-answer-refused',
      'purchase-redirect',
      'return-paid',
      'return-canceled',
      'return-failed',
      'verify-request',
      'verify-answer-ok',
      'verify-answer-verified-before',
      'verify-answer-refused',
      'verify-answer-too-late',
      'server-error',
    ]) {
      assert.ok(names.includes(needed), `the corpus has ${needed}.json`);
    }
    for (const m of corpus) {
      const repos = new Set(m.sources.map((s) => ('repo' in s ? s.repo : s.document)));
      assert.ok(
        repos.size >= (SINGLE_SOURCE.has(m.name) ? 1 : 2),
        `${m.name}: two independent sources (${[...repos].join(', ')})`,
      );
      assert.notEqual(m.disagreements, '', m.name);
    }
  });

  it("every request's SignData is what the sources compute: Triple-DES ECB PKCS#7 of its text under the base64 key, the text being the body's own values", () => {
    for (const m of corpus.filter(isJsonRequest)) {
      const { json, signature, order } = m.message;
      assert.deepEqual(Object.keys(json), order, `${m.name}: the body in its order`);
      assert.equal(sadadSignature(signature.text, sadadKey(signature.key)), json.SignData, m.name);
    }
    assert.equal(
      tokenRequest.signature.text,
      `${tokenRequest.json.TerminalId};${tokenRequest.json.OrderId};${tokenRequest.json.Amount}`,
    );
    assert.equal(corpusRequest('verify-request').signature.text, corpusRequest('verify-request').json.Token);
    assert.equal(
      Buffer.from(terminal.key, 'base64').toString('utf8'),
      'DARGAH-TEST-KEY-NOT-REAL',
      'an obvious test key',
    );
  });
});

describe('the Sadad connector against the corpus', () => {
  let bank: CorpusBank;
  let sadad: SadadClient;

  beforeEach(async () => {
    bank = await new CorpusBank().start();
    sadad = new SadadClient({ baseUrl: bank.url, ...terminal, timeoutMs: 5_000 });
  });
  afterEach(() => bank.stop());

  /** The JSON body of the one request the bank received, after checking its path and headers against the corpus request `name`'s. */
  const sent = (name: string, operationKey: string): Record<string, unknown> => {
    assert.equal(bank.received.length, 1);
    const [request] = bank.received;
    assert.equal(request!.path, sadadCorpusMessage(name).http.path);
    assert.match(String(request!.headers['content-type']), /^application\/json/);
    assert.equal(request!.headers['x-operation-key'], operationKey);
    assert.ok(!request!.body.includes(terminal.key), 'the key never travels');
    return JSON.parse(request!.body) as Record<string, unknown>;
  };

  it("the token request has the corpus request's fields, order and types, signed over its own values; the answer's token goes to the page as purchase-redirect.json's field", async () => {
    bank.answerWith('token-answer-ok');
    const token = await sadad.requestToken(PAYMENT, 1_000, 'http://callback.test/return');
    const body = sent('token-request', `token:${PAYMENT}`);
    assert.deepEqual(Object.keys(body), tokenRequest.order);
    for (const [k, v] of Object.entries(tokenRequest.json))
      assert.equal(typeOf(body[k]), typeOf(v), `${k} is a ${typeOf(v)}`);
    assert.equal(body.TerminalId, terminal.terminalId);
    assert.equal(body.MerchantId, terminal.merchantId);
    assert.equal(body.Amount, 1_000);
    assert.equal(String(body.OrderId), sadadOrderId(PAYMENT));
    assert.equal(body.ReturnUrl, 'http://callback.test/return');
    assert.match(
      String(body.LocalDateTime),
      /^[01][0-9]\/[0-3][0-9]\/[0-9]{4} (1[0-2]|[1-9]):[0-5][0-9]:[0-5][0-9] (am|pm)$/,
      "the PHP sample's m/d/Y g:i:s a",
    );
    assert.equal(
      body.SignData,
      sadadSignature(`${terminal.terminalId};${sadadOrderId(PAYMENT)};1000`, sadadKey(terminal.key)),
    );
    const ok = corpusAnswer('token-answer-ok').json!;
    assert.equal(token.token, ok.Token);
    assert.equal(token.method, sadadCorpusMessage('purchase-redirect').http.method);
    const page = new URL(token.url);
    assert.equal(page.pathname, sadadCorpusMessage('purchase-redirect').http.path);
    assert.deepEqual([...page.searchParams.keys()], Object.keys(corpusFields('purchase-redirect')));
    assert.equal(page.searchParams.get('Token'), ok.Token);
  });

  it('a refused token request is a BankRefusalError with its code; a server error is BankUnavailableError', async () => {
    bank.answerWith('token-answer-refused').answerWith('server-error');
    await assert.rejects(
      sadad.requestToken(PAYMENT, 1_000, 'http://callback.test/return'),
      (e: unknown) => e instanceof BankRefusalError && e.code === corpusAnswer('token-answer-refused').json!.ResCode,
    );
    await assert.rejects(sadad.requestToken(PAYMENT, 1_000, 'http://callback.test/return'), BankUnavailableError);
  });

  it("the verify, asked at the merchant's verify (settle), has the corpus request's fields in order, the token signed; its answers read as the corpus says", async () => {
    const token = String(corpusRequest('verify-request').json.Token);
    const amount = Number(corpusAnswer('verify-answer-ok').json!.Amount);
    const ours = (json: Record<string, unknown>) => ({ ...json, OrderId: Number(sadadOrderId(PAYMENT)) });
    bank.answerWith('verify-answer-ok', ours);
    const settled = await sadad.settle(PAYMENT, token, amount);
    const body = sent('verify-request', `settle:${PAYMENT}`);
    assert.deepEqual(Object.keys(body), corpusRequest('verify-request').order);
    assert.deepEqual(body, corpusRequest('verify-request').json, 'the same token signs to the same SignData');
    assert.deepEqual(settled, { ref_num: token, result_code: 0 });

    bank
      .answerWith('verify-answer-verified-before', ours)
      .answerWith('verify-answer-refused')
      .answerWith('verify-answer-too-late')
      .answerWith('server-error')
      .answerWith('verify-answer-ok')
      .answerWith('verify-answer-ok', ours);
    assert.deepEqual(
      await sadad.settle(PAYMENT, token, amount),
      { ref_num: token, result_code: 100 },
      '100: verified before',
    );
    await assert.rejects(
      sadad.settle(PAYMENT, token, amount),
      (e: unknown) => e instanceof BankRefusalError && e.code === -1,
    );
    await assert.rejects(
      sadad.settle(PAYMENT, token, amount),
      (e: unknown) => e instanceof BankRefusalError && e.code === 101,
    );
    await assert.rejects(sadad.settle(PAYMENT, token, amount), BankUnavailableError);
    // The corpus's own OrderId is an integration's, not this payment's; and another amount than the payment's: both refused.
    await assert.rejects(
      sadad.settle(PAYMENT, token, amount),
      (e: unknown) => e instanceof BankRefusalError && e.code === SADAD_CODE.NOT_THIS_PAYMENT,
    );
    await assert.rejects(
      sadad.settle(PAYMENT, token, amount + 1),
      (e: unknown) => e instanceof BankRefusalError && e.code === SADAD_CODE.NOT_THIS_PAYMENT,
    );
  });

  it("the return's confirm asks Sadad nothing: it answers on the return's own token, the recorded amount and our terminal", async () => {
    const token = String(corpusRequest('verify-request').json.Token);
    assert.deepEqual(await sadad.confirm(PAYMENT, token, 12_000), {
      result: 'confirmed',
      basis: 'result_code',
      ref_num: token,
      res_num: PAYMENT,
      amount: 12_000,
      terminal: terminal.terminalId,
      rrn: null,
      card_pan: null,
    });
    assert.equal(bank.received.length, 0);
  });

  describe('every return post', () => {
    for (const m of corpus.filter((c) => c.direction === 'return' && isFieldsMessage(c))) {
      it(`${m.name}: parsed as ${m.outcome}, its token the reference, in either spelling of the token`, () => {
        const fields = m.message as Record<string, string>;
        // The corpus's OrderId is an integration's; here it is our payment's, as Sadad would send it back.
        const ours: Record<string, string> = { ...fields, OrderId: sadadOrderId(PAYMENT) };
        const callback = SADAD_CONNECTOR.parseReturn(ours, PAYMENT);
        assert.deepEqual(callback, { state: m.outcome, ref_num: fields.token, res_num: PAYMENT, token: fields.token });
        const { token, ...rest } = ours;
        assert.deepEqual(SADAD_CONNECTOR.parseReturn({ ...rest, Token: token! }, PAYMENT), callback);
        assert.equal(SADAD_CONNECTOR.parseReturn(fields, PAYMENT), undefined, "another payment's order id");
      });
    }
  });

  it('no reversal: refused at once, and Sadad is never called; no inquiry or refund', async () => {
    await assert.rejects(sadad.reverse(PAYMENT), BankRefusalError);
    assert.equal(bank.received.length, 0);
    assert.equal((sadad as unknown as Record<string, unknown>).inquire, undefined);
    assert.equal((sadad as unknown as Record<string, unknown>).refund, undefined);
  });
});
