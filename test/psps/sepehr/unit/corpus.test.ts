/**
 * The Sepehr connector (src/psps/sepehr/) reads Sepehr's messages as the conformance corpus
 * shows them (test/fixtures/psps/sepehr/, docs/psps/sepehr.md), not as our simulator writes them:
 * every return post is parsed, every answer is served (as the corpus file holds it, by a loopback
 * stand-in of the test's own) to the call that gets it, and every request the connector sends is held
 * against the corpus's request: the same path, JSON, field names in the same order, values of the same
 * types.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { SepehrClient } from '../../../../src/psps/sepehr/client.ts';
import { SEPEHR_CONNECTOR } from '../../../../src/psps/sepehr/index.ts';
import { sepehrOrderId } from '../../../../src/psps/sepehr/mapping.ts';
import {
  corpusAnswer,
  corpusFields,
  corpusRequest,
  isFieldsMessage,
  loadSepehrCorpus,
  sepehrCorpusMessage,
  type JsonAnswerMessage,
} from '../corpus.ts';

const PAYMENT = '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5';
const corpus = loadSepehrCorpus();
const tokenRequest = corpusRequest('token-request');
const TERMINAL = String(tokenRequest.json.terminalID);
const RECEIPT = String(corpusRequest('verify-request').json.digitalreceipt);
const AMOUNT = Number(tokenRequest.json.Amount);

/** A JSON value's type as the corpus compares it. */
const typeOf = (v: unknown) => (v === null ? 'null' : typeof v);

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback stand-in of Sepehr: answers each call with the next corpus answer queued, records what it received. */
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

describe('the Sepehr conformance corpus', () => {
  it('has every message the protocol has, each from at least two independent sources, its disagreements written down', () => {
    const names = corpus.map((m) => m.name);
    for (const needed of [
      'token-request',
      'token-answer-ok',
      'token-answer-refused',
      'pay-redirect',
      'return-paid',
      'return-canceled',
      'return-failed',
      'verify-request',
      'verify-answer-ok',
      'verify-answer-duplicate',
      'verify-answer-refused',
      'reversal-request',
      'reversal-answer-ok',
      'reversal-answer-duplicate',
      'reversal-answer-refused',
      'server-error',
    ]) {
      assert.ok(names.includes(needed), `the corpus has ${needed}.json`);
    }
    for (const m of corpus) {
      const repos = new Set(m.sources.map((s) => ('repo' in s ? s.repo : s.document)));
      assert.ok(repos.size >= 2, `${m.name}: two independent sources (${[...repos].join(', ')})`);
      assert.notEqual(m.disagreements, '', m.name);
    }
  });

  it("every request's body is in its order; the corpus's terminal, order id, receipt and amounts agree across its files", () => {
    for (const name of ['token-request', 'verify-request', 'reversal-request']) {
      const { json, order } = corpusRequest(name);
      assert.deepEqual(Object.keys(json), order, name);
    }
    assert.deepEqual(corpusRequest('verify-request').json, corpusRequest('reversal-request').json);
    const paid = corpusFields('return-paid');
    assert.equal(paid.invoiceid, tokenRequest.json.invoiceID);
    assert.equal(paid.terminalid, TERMINAL);
    assert.equal(paid.digitalreceipt, RECEIPT);
    assert.equal(Number(paid.amount), AMOUNT);
    assert.equal(Number(corpusAnswer('verify-answer-ok').json!.ReturnId), AMOUNT);
    assert.equal(corpusFields('pay-redirect').token, corpusAnswer('token-answer-ok').json!.Accesstoken);
  });
});

describe('the Sepehr connector against the corpus', () => {
  let bank: CorpusBank;
  let sepehr: SepehrClient;

  beforeEach(async () => {
    bank = await new CorpusBank().start();
    sepehr = new SepehrClient({
      baseUrl: bank.url,
      pageBaseUrl: 'http://page.test:8080',
      terminalId: TERMINAL,
      timeoutMs: 5_000,
    });
  });
  afterEach(() => bank.stop());

  /** The JSON bodies the bank received, after checking each one's path and headers against the corpus request `name`'s. */
  const sent = (name: string, operationKey: string): Record<string, unknown>[] =>
    bank.received.map((request) => {
      assert.equal(request.path, sepehrCorpusMessage(name).http.path);
      assert.match(String(request.headers['content-type']), /^application\/json/);
      assert.equal(request.headers['x-operation-key'], operationKey);
      return JSON.parse(request.body) as Record<string, unknown>;
    });

  it("the token request has the corpus request's fields, order and types; the answer's token goes to the page as pay-redirect.json's form", async () => {
    bank.answerWith('token-answer-ok');
    const token = await sepehr.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return');
    const [body] = sent('token-request', `token:${PAYMENT}`);
    assert.deepEqual(Object.keys(body!), tokenRequest.order);
    for (const [k, v] of Object.entries(tokenRequest.json))
      assert.equal(typeOf(body![k]), typeOf(v), `${k} is a ${typeOf(v)}`);
    assert.deepEqual(body, { ...tokenRequest.json, invoiceID: sepehrOrderId(PAYMENT) });
    const ok = corpusAnswer('token-answer-ok').json!;
    const redirect = sepehrCorpusMessage('pay-redirect');
    assert.equal(token.token, ok.Accesstoken);
    assert.equal(token.method, redirect.http.method);
    assert.equal(token.url, `http://page.test:8080${redirect.http.path}`);
    assert.deepEqual(token.fields, corpusFields('pay-redirect'));
  });

  it('the token read in either case of its name; a refusal is a BankRefusalError of its Status; no token or a server error is not a token', async () => {
    bank
      .answerWith('token-answer-ok', ({ Accesstoken, ...rest }) => ({ ...rest, AccessToken: Accesstoken }))
      .answerWith('token-answer-refused')
      .answerWith('token-answer-ok', ({ Status }) => ({ Status }))
      .answerWith('server-error');
    assert.equal(
      (await sepehr.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return')).token,
      corpusAnswer('token-answer-ok').json!.Accesstoken,
    );
    await assert.rejects(
      sepehr.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'),
      (e: unknown) => e instanceof BankRefusalError && e.code === corpusAnswer('token-answer-refused').json!.Status,
    );
    await assert.rejects(
      sepehr.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'),
      (e: unknown) => e instanceof BankRefusalError && e.code === -1000,
    );
    await assert.rejects(sepehr.requestToken(PAYMENT, AMOUNT, 'http://callback.test/return'), BankUnavailableError);
  });

  it("the verify (Advice) has the corpus request's fields in order; Ok and Duplicate confirm the receipt for ReturnId's amount, NOK refuses with its code", async () => {
    bank
      .answerWith('verify-answer-ok')
      .answerWith('verify-answer-duplicate')
      .answerWith('verify-answer-ok', (json) => ({ ...json, Status: 'OK', ReturnId: AMOUNT }))
      .answerWith('verify-answer-refused')
      .answerWith('server-error')
      .answerWith('verify-answer-ok', (json) => ({ ...json, Status: 'Maybe' }));
    const expected = {
      result: 'confirmed',
      basis: 'result_code',
      ref_num: RECEIPT,
      res_num: PAYMENT,
      amount: AMOUNT,
      terminal: TERMINAL,
      rrn: null,
      card_pan: null,
    };
    const first = await sepehr.confirm(PAYMENT, RECEIPT, AMOUNT);
    assert.deepEqual(first, expected);
    assert.ok(
      first.result === 'confirmed' &&
        isGenuineConfirmation({ ...first, terminal_matches: true }, { id: PAYMENT, amount: AMOUNT }, RECEIPT),
      'the workflow takes it',
    );
    assert.deepEqual(await sepehr.confirm(PAYMENT, RECEIPT, AMOUNT), expected, 'Duplicate: advised before');
    assert.deepEqual(await sepehr.confirm(PAYMENT, RECEIPT, AMOUNT), expected, 'OK, ReturnId a number');
    assert.deepEqual(await sepehr.confirm(PAYMENT, RECEIPT, AMOUNT), {
      result: 'refused',
      code: -1,
      description: corpusAnswer('verify-answer-refused').json!.Message,
    });
    await assert.rejects(sepehr.confirm(PAYMENT, RECEIPT, AMOUNT), BankUnavailableError);
    await assert.rejects(
      sepehr.confirm(PAYMENT, RECEIPT, AMOUNT),
      BankUnavailableError,
      'a Status Sepehr does not have',
    );
    for (const body of sent('verify-request', `confirm:${PAYMENT}`)) {
      assert.deepEqual(Object.keys(body), corpusRequest('verify-request').order);
      assert.deepEqual(body, corpusRequest('verify-request').json);
    }
  });

  it("an Advice whose ReturnId is not the payment's amount, or none, confirms nothing the workflow takes", async () => {
    bank
      .answerWith('verify-answer-ok', (json) => ({ ...json, ReturnId: String(AMOUNT + 1_000) }))
      .answerWith('verify-answer-duplicate', ({ ReturnId: _, ...rest }) => rest);
    for (const label of ['another amount', 'a Duplicate without ReturnId']) {
      const answer = await sepehr.confirm(PAYMENT, RECEIPT, AMOUNT);
      assert.ok(
        answer.result === 'confirmed' &&
          !isGenuineConfirmation({ ...answer, terminal_matches: true }, { id: PAYMENT, amount: AMOUNT }, RECEIPT),
        label,
      );
    }
  });

  it("the reversal (Rollback) has the corpus request's fields; Ok and Duplicate are done, NOK a BankRefusalError of its code, a server error unavailable", async () => {
    bank
      .answerWith('reversal-answer-ok')
      .answerWith('reversal-answer-duplicate')
      .answerWith('reversal-answer-refused')
      .answerWith('server-error');
    assert.deepEqual(await sepehr.reverse(PAYMENT, RECEIPT), { ref_num: RECEIPT, result_code: 0 });
    assert.deepEqual(
      await sepehr.reverse(PAYMENT, RECEIPT),
      { ref_num: RECEIPT, result_code: 0 },
      'rolled back before',
    );
    await assert.rejects(
      sepehr.reverse(PAYMENT, RECEIPT),
      (e: unknown) => e instanceof BankRefusalError && e.code === -6,
    );
    await assert.rejects(sepehr.reverse(PAYMENT, RECEIPT), BankUnavailableError);
    for (const body of sent('reversal-request', `reverse:${PAYMENT}`)) {
      assert.deepEqual(Object.keys(body), corpusRequest('reversal-request').order);
      assert.deepEqual(body, corpusRequest('reversal-request').json);
    }
  });

  describe('every return post', () => {
    for (const m of loadSepehrCorpus().filter((c) => c.direction === 'return' && isFieldsMessage(c))) {
      it(`${m.name}: parsed as ${m.outcome} by the connector; another payment's invoiceid is refused`, () => {
        const fields = m.message as Record<string, string>;
        // The corpus's invoiceid is an integration's; here it is our payment's, as Sepehr echoes it back.
        const ours: Record<string, string> = { ...fields, invoiceid: sepehrOrderId(PAYMENT) };
        const callback = SEPEHR_CONNECTOR.parseReturn(ours, PAYMENT);
        assert.deepEqual(callback, {
          state: m.outcome,
          ref_num: m.outcome === 'OK' ? fields.digitalreceipt : '',
          res_num: PAYMENT,
          token: '',
        });
        assert.ok(SEPEHR_CONNECTOR.recognisesReturn(fields), 'recognised by its own names');
        assert.equal(SEPEHR_CONNECTOR.parseReturn(fields, PAYMENT), undefined, "another payment's invoiceid");
      });
    }
  });

  it('no inquiry, settle or refund: no reference shows one; nothing is asked of Sepehr without a receipt', async () => {
    const calls = sepehr as unknown as Record<string, unknown>;
    for (const operation of ['inquire', 'settle', 'refund']) assert.equal(calls[operation], undefined, operation);
    assert.equal((await sepehr.confirm(PAYMENT, '', AMOUNT)).result, 'refused');
    await assert.rejects(sepehr.reverse(PAYMENT, ''), BankRefusalError);
    assert.equal(bank.received.length, 0);
  });
});
