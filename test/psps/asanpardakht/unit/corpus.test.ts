/**
 * The Asan Pardakht client (src/psps/asanpardakht/client.ts) against the conformance corpus,
 * over a loopback HTTP server of this test's own that answers with the corpus's answers: every
 * request the client sends has the corpus request's shape (method, path, the usr and pwd headers, a
 * JSON body with the corpus's fields and types, or TranResult's query), and every corpus answer is
 * read to the right result (a token, confirmed, done before, in progress, refused, unavailable).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { AsanpardakhtClient } from '../../../../src/psps/asanpardakht/client.ts';
import { asanpardakhtOrderId } from '../../../../src/psps/asanpardakht/mapping.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { asanpardakhtCorpusMessage, type JsonAnswerMessage, type JsonRequestMessage } from '../corpus.ts';

const PAYMENT = 'pay_01HZXCORPUSASANPARDAKHT01';
const INVOICE = asanpardakhtOrderId(PAYMENT);

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

const answerOf = (name: string) => asanpardakhtCorpusMessage(name).message as JsonAnswerMessage;
const requestOf = (name: string) => asanpardakhtCorpusMessage(name);

/** A JSON value's type as the corpus compares it: a number, a string, … */
const typeOf = (v: unknown) => (v === null ? 'null' : typeof v);

describe('the Asan Pardakht client against the corpus', () => {
  let server: Server;
  let base = '';
  let seen: Seen[] = [];
  /** The corpus answers to give, by path, in order (the last one stays). */
  let script: Record<string, string[]> = {};

  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://bank');
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: text === '' ? undefined : JSON.parse(text),
        });
        const queue = script[url.pathname] ?? [];
        const name = queue.length > 1 ? queue.shift()! : queue[0];
        if (name === 'drop') return res.destroy();
        if (name === undefined) return res.writeHead(404).end();
        const { status, body } = answerOf(name);
        if (body === null) return res.writeHead(status).end();
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen = [];
    script = {};
  });

  const client = () =>
    new AsanpardakhtClient({
      baseUrl: base,
      pageBaseUrl: 'https://asan.shaparak.ir',
      terminalId: '1234',
      userName: 'username',
      password: 'password',
      timeoutMs: 2_000,
    });

  /** The request has the corpus request's method, path, credentials, and its body's fields and their types (or its query's names). */
  function assertShape(request: Seen, name: string) {
    const corpus = requestOf(name);
    const message = corpus.message as JsonRequestMessage;
    assert.equal(request.method, corpus.http.method, name);
    assert.equal(request.path, corpus.http.path, name);
    assert.equal(request.headers.usr, message.headers.usr, `${name}: usr`);
    assert.equal(request.headers.pwd, message.headers.pwd, `${name}: pwd`);
    assert.ok(String(request.headers['x-operation-key'] ?? '').length > 0, `${name}: our operation key`);
    if (message.query !== undefined) {
      assert.deepEqual(
        [...request.query.keys()].sort(),
        Object.keys(message.query).sort(),
        `${name}: the query's names`,
      );
      assert.equal(request.body, undefined, `${name}: a GET has no body`);
      return;
    }
    assert.match(String(request.headers['content-type']), /^application\/json/, `${name}: JSON`);
    const body = request.body as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), Object.keys(message.body!).sort(), `${name}: the body's fields`);
    for (const [field, value] of Object.entries(message.body!))
      assert.equal(typeOf(body[field]), typeOf(value), `${name}: ${field}'s type`);
  }

  it("asks a token with the corpus request's fields and types; reads the RefId and the way to the page (a form POST of RefId)", async () => {
    script = { '/v1/Token': ['token-answer-ok'] };
    const token = await client().requestToken(PAYMENT, 1000, 'http://callback.test/return');
    assertShape(seen[0]!, 'token-request');
    const body = seen[0]!.body as Record<string, unknown>;
    assert.equal(body.merchantConfigurationId, 1234);
    assert.equal(body.serviceTypeId, 1);
    assert.equal(String(body.localInvoiceId), INVOICE);
    assert.equal(body.amountInRials, 1000);
    assert.match(String(body.localDate), /^[0-9]{8} [0-9]{6}$/);
    assert.equal(body.paymentId, '0');
    assert.equal(new URL(String(body.callbackURL)).searchParams.get('localInvoiceId'), INVOICE);
    const page = asanpardakhtCorpusMessage('page-redirect');
    assert.deepEqual(token, {
      token: answerOf('token-answer-ok').body,
      url: `https://asan.shaparak.ir${page.http.path}`,
      method: page.http.method,
      fields: { RefId: answerOf('token-answer-ok').body },
    });
    assert.deepEqual(Object.keys(token.fields), Object.keys(page.message));
  });

  it('reads a refused token as a refusal with its status, a server error as unavailable', async () => {
    script = { '/v1/Token': ['token-answer-refused'] };
    await assert.rejects(
      client().requestToken(PAYMENT, 1000, 'http://callback.test/return'),
      (e: unknown) => e instanceof BankRefusalError && e.code === 489,
    );
    script = { '/v1/Token': ['server-error'] };
    await assert.rejects(client().requestToken(PAYMENT, 1000, 'http://callback.test/return'), BankUnavailableError);
  });

  it("confirms: TranResult by our invoice id, then Verify of its payGateTranID; the confirmation is TranResult's detail", async () => {
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Verify': ['verify-answer-ok'] };
    const confirmation = await client().confirm(PAYMENT, INVOICE, 1000);
    assertShape(seen[0]!, 'tranresult-request');
    assert.equal(seen[0]!.query.get('localInvoiceId'), INVOICE);
    assert.equal(seen[0]!.query.get('merchantConfigurationId'), '1234');
    assertShape(seen[1]!, 'verify-request');
    assert.deepEqual(seen[1]!.body, { merchantConfigurationId: 1234, payGateTranId: 987654321 });
    // The corpus's salesOrderID is another invoice than this payment's: the answer names it, and the workflow refuses it.
    assert.deepEqual(confirmation, {
      result: 'confirmed',
      ref_num: INVOICE,
      res_num: 'localInvoiceId:123456789012345',
      amount: 1000,
      terminal: '1234',
      rrn: '227926981246',
      card_pan: '603799******1234',
    });
  });

  it('reads Verify\'s "verified before" as confirmed, "not yet processed" as in progress, 471 as a refusal, a 503 as unavailable', async () => {
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Verify': ['verify-answer-verified-before'] };
    assert.equal((await client().confirm(PAYMENT, INVOICE, 1000)).result, 'confirmed');
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Verify': ['verify-answer-in-progress'] };
    assert.deepEqual(await client().confirm(PAYMENT, INVOICE, 1000), { result: 'in_progress' });
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Verify': ['verify-answer-refused'] };
    assert.deepEqual(await client().confirm(PAYMENT, INVOICE, 1000), {
      result: 'refused',
      code: 471,
      description: 'original transaction was failed',
    });
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Verify': ['server-error'] };
    await assert.rejects(client().confirm(PAYMENT, INVOICE, 1000), BankUnavailableError);
  });

  it("reads TranResult's 472 as a refusal without a Verify; a return of another payment's invoice asks nothing", async () => {
    script = { '/v1/TranResult': ['tranresult-answer-not-found'] };
    assert.deepEqual(await client().confirm(PAYMENT, INVOICE, 1000), {
      result: 'refused',
      code: 472,
      description: 'no records found',
      standing: 'canceled',
    });
    assert.deepEqual(
      seen.map((s) => s.path),
      ['/v1/TranResult'],
    );
    seen = [];
    assert.equal((await client().confirm(PAYMENT, '123', 1000)).result, 'refused');
    assert.equal(seen.length, 0);
  });

  it('settles: TranResult, then Settlement of its payGateTranID; 200 and 474 done, 472 refused', async () => {
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Settlement': ['settle-answer-ok'] };
    assert.deepEqual(await client().settle(PAYMENT, INVOICE), { ref_num: INVOICE, result_code: 200 });
    assertShape(seen[1]!, 'settle-request');
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Settlement': ['settle-answer-settled-before'] };
    assert.deepEqual(await client().settle(PAYMENT, INVOICE), { ref_num: INVOICE, result_code: 474 });
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Settlement': ['settle-answer-not-verified'] };
    await assert.rejects(
      client().settle(PAYMENT, INVOICE),
      (e: unknown) => e instanceof BankRefusalError && e.code === 472,
    );
  });

  it('reverses: Reverse; a verified transaction (472) is canceled with the same body; "before" is done; a settled one is refused', async () => {
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Reverse': ['reverse-answer-ok'] };
    assert.deepEqual(await client().reverse(PAYMENT, INVOICE), { ref_num: INVOICE, result_code: 200 });
    assertShape(seen[1]!, 'reverse-request');
    seen = [];
    script = {
      '/v1/TranResult': ['tranresult-answer-paid'],
      '/v1/Reverse': ['reverse-answer-verified'],
      '/v1/Cancel': ['cancel-answer-ok'],
    };
    assert.deepEqual(await client().reverse(PAYMENT, INVOICE), { ref_num: INVOICE, result_code: 200 });
    assert.deepEqual(
      seen.map((s) => s.path),
      ['/v1/TranResult', '/v1/Reverse', '/v1/Cancel'],
    );
    assertShape(seen[2]!, 'cancel-request');
    assert.deepEqual(seen[2]!.body, seen[1]!.body);
    script = { '/v1/TranResult': ['tranresult-answer-paid'], '/v1/Reverse': ['reverse-answer-reversed-before'] };
    assert.equal((await client().reverse(PAYMENT, INVOICE)).result_code, 473);
    script = {
      '/v1/TranResult': ['tranresult-answer-paid'],
      '/v1/Reverse': ['reverse-answer-verified'],
      '/v1/Cancel': ['cancel-answer-canceled-before'],
    };
    assert.equal((await client().reverse(PAYMENT, INVOICE)).result_code, 813);
    script = {
      '/v1/TranResult': ['tranresult-answer-paid'],
      '/v1/Reverse': ['reverse-answer-verified'],
      '/v1/Cancel': ['cancel-answer-settled'],
    };
    await assert.rejects(
      client().reverse(PAYMENT, INVOICE),
      (e: unknown) => e instanceof BankRefusalError && e.code === 805,
    );
  });

  it('reads no answer at all as unavailable, and never puts the credentials in the error', async () => {
    script = { '/v1/TranResult': ['drop'] };
    await assert.rejects(
      client().confirm(PAYMENT, INVOICE, 1000),
      (e: unknown) => e instanceof BankUnavailableError && !/password|username/.test(e.message),
    );
  });
});
