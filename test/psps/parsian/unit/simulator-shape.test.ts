/**
 * The Parsian simulator (src/psps/parsian/simulator.ts) held against the conformance corpus, in process:
 * each of PEC's three services publishes a WSDL a SOAP client loads with requestData's fields in the
 * corpus's order; it takes the corpus's request envelopes as they are; each answer is an envelope of
 * the corpus answer's shape (`<{op}Response><{op}Result>` in the service's namespace, the same fields
 * in the same order) with the corpus's Status for the same situation; its return posts carry the
 * corpus returns' fields. Then the connector's client against it: a payment's lifecycle, each
 * operation done once in the simulator's ledger, and the fault switches as the client reads them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClientAsync } from 'soap';
import { ParsianClient } from '../../../../src/psps/parsian/client.ts';
import { parsianOrderId } from '../../../../src/psps/parsian/mapping.ts';
import { PARSIAN_CONNECTOR } from '../../../../src/psps/parsian/index.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import type { Ledger } from '../../../../src/bank-sim/ledger.ts';
import { PARSIAN_SERVICES } from '../../../../src/psps/parsian/simulator-wsdl.ts';
import { createSimulator, type SimulatorOptions } from '../../../../src/bank-sim/server.ts';
import { readSoapCall } from '../../../../src/bank-sim/soap-envelope.ts';
import {
  isSoapFault,
  isSoapRequest,
  loadParsianCorpus,
  parsianCorpusMessage,
  type SoapAnswerMessage,
  type SoapRequestMessage,
} from '../corpus.ts';

const ADMIN = 'shape-test-admin';
const TERMINAL = '77889900';
const corpus = loadParsianCorpus();
const request = (name: string) => parsianCorpusMessage(name).message as SoapRequestMessage;
const corpusAnswer = (name: string) => parsianCorpusMessage(name).message as SoapAnswerMessage;
const corpusFields = (name: string) => parsianCorpusMessage(name).message as Record<string, string>;
const PIN = request('token-request').parameters.LoginAccount!;
const pathOf = (name: string) => parsianCorpusMessage(name).http.path;

/** A Parsian simulator of the corpus's PIN, its ledger in `dir`, on a free loopback port; `options` are the test's own. */
async function listeningSimulator(
  dir: string,
  options: Pick<SimulatorOptions, 'adminToken' | 'autoReverseSeconds' | 'reversalWindowSeconds'>,
) {
  const { server, ledger } = createSimulator({
    protocol: 'parsian',
    stateFile: join(dir, 'ledger.jsonl'),
    terminalId: TERMINAL,
    password: PIN,
    redirectOrigins: ['http://callback.test'],
    delaySeconds: 0,
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    server,
    ledger,
    base: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
  };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** The hidden fields of the page's return form: what the customer's browser posts back to the gateway. */
const hiddenFields = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&#([0-9]+);/g, (_, c: string) => String.fromCharCode(Number(c))),
    ]),
  );

/** Posts the corpus request `name`'s envelope with `values` in place of its own fields; the answer's status and envelope. */
async function post(
  base: string,
  name: string,
  values: Record<string, string> = {},
): Promise<{ status: number; xml: string }> {
  let envelope = request(name).envelope;
  for (const [field, value] of Object.entries(values))
    envelope = envelope.replace(
      new RegExp(`<(\\w+:)?${field}>[^<]*</(\\w+:)?${field}>`),
      `<$1${field}>${value}</$1${field}>`,
    );
  const res = await fetch(`${base}${pathOf(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8' },
    body: envelope,
  });
  return { status: res.status, xml: await res.text() };
}

/**
 * The answer's Result fields, after checking its envelope has the shape of the corpus answer `like`:
 * the same Response element, namespace and fields in the same order, and the same Status (or `status`,
 * for a situation the corpus has no answer of its own for).
 */
function resultLike(
  answer: { status: number; xml: string },
  like: string,
  status = corpusAnswer(like).result.Status,
): Record<string, string> {
  assert.equal(answer.status, 200, answer.xml);
  const got = readSoapCall(answer.xml);
  const want = readSoapCall(corpusAnswer(like).envelope)!;
  assert.equal(got?.operation, want.operation);
  assert.equal(got.namespace, want.namespace);
  assert.deepEqual(
    got.parameters.map(([n]) => n),
    want.parameters.map(([n]) => n),
    `the fields of ${like}.json`,
  );
  const fields = Object.fromEntries(got.parameters);
  assert.equal(fields.Status, status, `the Status of ${like}.json`);
  return fields;
}

/** The customer's choice on the simulator's page, as the browser makes it: the page by its GET, then a post of the choice. */
async function choose(
  base: string,
  token: string,
  outcome: 'success' | 'cancel' | 'failure' | 'delay',
): Promise<Record<string, string>> {
  const page = await fetch(`${base}/NewIPG/?Token=${token}`);
  assert.equal(page.status, 200);
  assert.match(
    await page.text(),
    new RegExp(`<form method="post" action="/NewIPG/pay"><input type="hidden" name="Token" value="${token}">`),
  );
  const res = await fetch(`${base}/NewIPG/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ Token: token, outcome }).toString(),
  });
  assert.equal(res.status, 200);
  return hiddenFields(await res.text());
}

describe('the Parsian simulator against the corpus', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'parsian-shape-'));
  let server: Server;
  let base = '';
  let order = 100_000_000_000;

  before(async () => {
    ({ server, base } = await listeningSimulator(dir, { adminToken: ADMIN, autoReverseSeconds: 0 }));
  });
  after(async () => {
    await close(server);
    rmSync(dir, { recursive: true, force: true });
  });

  /** A sale the customer paid (or not) on the simulator's page: its order id, Token and the page's return fields. */
  async function sale(outcome: 'success' | 'cancel' | 'failure') {
    const orderId = String(order++);
    const { Token } = resultLike(
      await post(base, 'token-request', { OrderId: orderId, CallBackUrl: 'http://callback.test/return' }),
      'token-answer-ok',
    );
    assert.match(Token!, /^[1-9][0-9]{0,18}$/);
    return { orderId, Token: Token!, fields: await choose(base, Token!, outcome) };
  }

  it("publishes each service's WSDL, which a SOAP client loads with requestData's fields in the corpus's order", async () => {
    for (const m of corpus.filter(isSoapRequest)) {
      const service = PARSIAN_SERVICES.find((s) => s.operation === m.message.soapOperation)!;
      assert.equal(service.path, m.http.path);
      const client = await createClientAsync(`${base}${m.http.path}?WSDL`);
      const ports = client.describe() as Record<
        string,
        Record<string, Record<string, { input: { requestData: Record<string, unknown> } }>>
      >;
      const input = ports[service.name]![`${service.name}Soap`]![m.message.soapOperation]!.input.requestData;
      // describe() adds the namespace it read (targetNSAlias, targetNamespace) beside the fields.
      const fields = Object.keys(input).filter((k) => !k.startsWith('targetNS') && k !== 'targetNamespace');
      // The WSDL has Originator too (optional); the connector does not send it.
      assert.deepEqual(
        fields.filter((f) => f !== 'Originator'),
        m.message.order,
        m.name,
      );
    }
  });

  it("the token: Status 0 and a Token; -126 another PIN; -112 an order id used before; the return posts carry the corpus returns' fields", async () => {
    const refused = resultLike(
      await post(base, 'token-request', { LoginAccount: 'another-pin' }),
      'token-answer-refused',
    );
    assert.equal(refused.Token, '0');
    const paid = await sale('success');
    resultLike(
      await post(base, 'token-request', { OrderId: paid.orderId, CallBackUrl: 'http://callback.test/return' }),
      'token-answer-refused',
      '-112',
    );
    const names = (name: string) => Object.keys(corpusFields(name));
    assert.deepEqual(Object.keys(paid.fields).sort(), names('return-paid').sort());
    assert.equal(paid.fields.status, corpusFields('return-paid').status);
    assert.equal(paid.fields.Token, paid.Token);
    assert.equal(paid.fields.OrderId, paid.orderId);
    assert.equal(paid.fields.TerminalNo, TERMINAL);
    assert.match(paid.fields.RRN!, /^[1-9][0-9]{11}$/);
    for (const outcome of ['cancel', 'failure'] as const) {
      const name = outcome === 'cancel' ? 'return-canceled' : 'return-failed';
      const s = await sale(outcome);
      assert.deepEqual(Object.keys(s.fields).sort(), names(name).sort());
      assert.equal(s.fields.status, corpusFields(name).status);
      assert.equal(s.fields.RRN, '0');
    }
  });

  it('ConfirmPayment answers as the corpus does: 0 with RRN and card, then -1533; -1528 a Token it does not know; -1531 one not paid', async () => {
    const s = await sale('success');
    const ok = resultLike(await post(base, 'verify-request', { Token: s.Token }), 'verify-answer-ok');
    assert.equal(ok.RRN, s.fields.RRN);
    assert.match(ok.CardNumberMasked!, /^622106\*{6}[0-9]{4}$/);
    assert.equal(ok.Token, s.Token);
    resultLike(await post(base, 'verify-request', { Token: s.Token }), 'verify-answer-confirmed-before');
    resultLike(await post(base, 'verify-request', { Token: '111111111111' }), 'verify-answer-refused');
    const canceled = await sale('cancel');
    resultLike(await post(base, 'verify-request', { Token: canceled.Token }), 'verify-answer-refused', '-1531');
  });

  it('ReversalRequest answers 0, then -1551; -1550 for a payment not paid', async () => {
    const s = await sale('success');
    resultLike(await post(base, 'verify-request', { Token: s.Token }), 'verify-answer-ok');
    resultLike(await post(base, 'reversal-request', { Token: s.Token }), 'reversal-answer-ok');
    resultLike(await post(base, 'reversal-request', { Token: s.Token }), 'reversal-answer-reversed-before');
    const failed = await sale('failure');
    resultLike(await post(base, 'reversal-request', { Token: failed.Token }), 'reversal-answer-refused', '-1550');
  });

  it("a switched-on error is a SOAP Fault of the corpus's shape, with HTTP 500; a Token that is no long does not deserialize", async () => {
    const s = await sale('success');
    const set = await fetch(`${base}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ operation: 'confirm', fault: 'error', times: 1 }),
    });
    assert.equal(set.status, 200);
    const answer = await post(base, 'verify-request', { Token: s.Token });
    const fault = corpus.find(isSoapFault)!;
    assert.equal(answer.status, fault.message.status);
    assert.equal(readSoapCall(answer.xml)?.operation, readSoapCall(fault.message.envelope)?.operation);
    assert.match(answer.xml, /<faultcode>soap:Server<\/faultcode>/);
    const notLong = await post(base, 'verify-request', { Token: 'ABC' });
    assert.equal(notLong.status, 500);
    assert.match(notLong.xml, /soap:Client/);
  });
});

describe('the Parsian connector against the simulator: a lifecycle, each operation once, the fault switches', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'parsian-lifecycle-'));
  let server: Server;
  let ledger: Ledger;
  let base = '';
  let client: ParsianClient;
  let n = 0;

  before(async () => {
    ({ server, ledger, base } = await listeningSimulator(dir, { adminToken: ADMIN, autoReverseSeconds: 0 }));
    client = new ParsianClient({ baseUrl: base, terminalId: TERMINAL, pin: PIN, timeoutMs: 1_500 });
  });
  after(async () => {
    await close(server);
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    const res = await fetch(`${base}/admin/faults`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    assert.equal(res.status, 200, 'every switch off');
  });

  const fault = async (operation: string, kind: string, times = 1) => {
    const res = await fetch(`${base}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ operation, fault: kind, times }),
    });
    assert.equal(res.status, 200, await res.text());
  };
  const payment = () => `5e1f0a2b-7c3d-4e5f-8a9b-${String(++n).padStart(12, '0')}`;
  /** A payment the customer paid on the page: its id, token and the return the client parsed. */
  const paidPayment = async (outcome: 'success' | 'delay' = 'success') => {
    const id = payment();
    const token = await client.requestToken(id, 25_000, 'http://callback.test/return');
    assert.equal(token.method, 'GET');
    assert.equal(new URL(token.url).origin, base);
    const fields = await choose(base, new URL(token.url).searchParams.get('Token')!, outcome);
    const callback = PARSIAN_CONNECTOR.parseReturn(fields, id);
    assert.deepEqual(callback, { state: 'OK', ref_num: token.token, res_num: id, token: token.token });
    return { id, token, fields, callback };
  };

  it('token → the page → the return → confirm (PEC’s RRN and card) → confirm again (done before) → reverse → reverse again; each done once', async () => {
    const { id, token, fields, callback } = await paidPayment();
    const confirmed = await client.confirm(id, callback.ref_num, 25_000);
    assert.deepEqual(confirmed, {
      result: 'confirmed',
      ref_num: token.token,
      res_num: id,
      amount: 25_000,
      terminal: TERMINAL,
      rrn: fields.RRN,
      card_pan: (confirmed as { card_pan: string }).card_pan,
    });
    assert.match((confirmed as { card_pan: string }).card_pan, /^622106\*{6}[0-9]{4}$/);
    assert.deepEqual(await client.confirm(id, callback.ref_num, 25_000), {
      result: 'confirmed',
      basis: 'result_code',
      ref_num: token.token,
      res_num: id,
      amount: 25_000,
      terminal: TERMINAL,
      rrn: null,
      card_pan: null,
    });
    assert.deepEqual(await client.reverse(id, callback.ref_num), { ref_num: token.token, result_code: 0 });
    assert.deepEqual(await client.reverse(id, callback.ref_num), { ref_num: token.token, result_code: -1551 });
    const done = ledger.operations(parsianOrderId(id));
    assert.deepEqual(
      done.map((o) => [o.kind, o.operation_key]),
      [
        ['token', `token:${id}`],
        ['confirm', `confirm:${id}`],
        ['reverse', `reverse:${id}`],
      ],
    );
    // Confirmed after a reversal: PEC holds no successful payment to confirm.
    assert.deepEqual(await client.confirm(id, callback.ref_num, 25_000), {
      result: 'refused',
      code: -1531,
      description: 'an unsuccessful payment cannot be confirmed',
    });
  });

  it("a canceled payment's return carries no reference; its confirm is refused; a second token of the same payment is a duplicate order id", async () => {
    const id = payment();
    const token = await client.requestToken(id, 25_000, 'http://callback.test/return');
    const fields = await choose(base, token.token, 'cancel');
    assert.deepEqual(PARSIAN_CONNECTOR.parseReturn(fields, id), {
      state: 'CanceledByUser',
      ref_num: '',
      res_num: id,
      token: token.token,
    });
    assert.equal((await client.confirm(id, token.token, 25_000)).result, 'refused');
    await assert.rejects(
      client.requestToken(id, 25_000, 'http://callback.test/return'),
      (e: unknown) => e instanceof BankRefusalError && e.code === -112,
    );
  });

  it('"delay in verification": 9 (in progress), then confirmed', async () => {
    const { id, callback } = await paidPayment('delay');
    assert.deepEqual(await client.confirm(id, callback.ref_num, 25_000), { result: 'in_progress' });
    assert.equal((await client.confirm(id, callback.ref_num, 25_000)).result, 'confirmed');
  });

  it('the token: down and timeout are BankUnavailableError, error is a refusal (PEC’s -1 server error); no token is made', async () => {
    for (const kind of ['down', 'timeout']) {
      await fault('token', kind);
      await assert.rejects(
        client.requestToken(payment(), 25_000, 'http://callback.test/return'),
        BankUnavailableError,
        kind,
      );
    }
    await fault('token', 'error');
    const id = payment();
    await assert.rejects(
      client.requestToken(id, 25_000, 'http://callback.test/return'),
      (e: unknown) => e instanceof BankRefusalError && e.code === -1,
    );
    assert.deepEqual(ledger.operations(parsianOrderId(id)), []);
  });

  it('confirm and reverse: down, timeout and error are BankUnavailableError; a timeout did the work, so the retry is "done before"; unknown and in_progress as PEC answers them', async () => {
    const { id, callback } = await paidPayment();
    for (const kind of ['down', 'error']) {
      await fault('confirm', kind);
      await assert.rejects(client.confirm(id, callback.ref_num, 25_000), BankUnavailableError, kind);
    }
    await fault('confirm', 'in_progress');
    assert.deepEqual(await client.confirm(id, callback.ref_num, 25_000), { result: 'in_progress' });
    await fault('confirm', 'unknown');
    assert.deepEqual(await client.confirm(id, callback.ref_num, 25_000), {
      result: 'refused',
      code: -1528,
      description: 'the payment was not found',
    });
    await fault('confirm', 'timeout');
    await assert.rejects(client.confirm(id, callback.ref_num, 25_000), BankUnavailableError);
    assert.equal(
      ((await client.confirm(id, callback.ref_num, 25_000)) as { basis?: string }).basis,
      'result_code',
      'confirmed before, by the call whose answer never came',
    );
    for (const kind of ['down', 'error', 'timeout']) {
      await fault('reverse', kind);
      await assert.rejects(client.reverse(id, callback.ref_num), BankUnavailableError, kind);
    }
    assert.deepEqual(
      await client.reverse(id, callback.ref_num),
      { ref_num: callback.ref_num, result_code: -1551 },
      'reversed by the call whose answer never came',
    );
    assert.deepEqual(
      ledger.operations(parsianOrderId(id)).map((o) => o.kind),
      ['token', 'confirm', 'reverse'],
    );
  });
});

describe("the Parsian simulator's own clock: PEC's reversal window and its reversal of an unconfirmed payment", function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'parsian-clock-'));
  let server: Server;
  let base = '';

  before(async () => {
    // Seconds in place of the profile's 20 and 50 minutes.
    ({ server, base } = await listeningSimulator(dir, { autoReverseSeconds: 2, reversalWindowSeconds: 1 }));
  });
  after(async () => {
    await close(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a paid payment nobody confirms is given back by the bank itself (its confirm -1531); a confirmed one is no longer reversed past the window (-1549)', async () => {
    const paid = async (orderId: string) => {
      const token = readSoapCall(
        (await post(base, 'token-request', { OrderId: orderId, CallBackUrl: 'http://callback.test/return' })).xml,
      )!.parameters.find(([n]) => n === 'Token')![1];
      await choose(base, token, 'success');
      return token;
    };
    const unconfirmed = await paid('300000000001');
    const confirmed = await paid('300000000002');
    resultLike(await post(base, 'verify-request', { Token: confirmed }), 'verify-answer-ok');
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    // Too late to confirm: the money went back.
    resultLike(await post(base, 'verify-request', { Token: unconfirmed }), 'verify-answer-refused', '-1531');
    resultLike(await post(base, 'reversal-request', { Token: confirmed }), 'reversal-answer-refused');
  });
});
