/**
 * The IranKish simulator (src/psps/irankish/simulator.ts) held against the conformance corpus, in process:
 * it takes the corpus's requests as they are (the token request's envelope, sealed under the
 * simulator's test key, included) and answers each with the corpus answer's shape (the same field
 * names, the same code for the same situation); its return posts carry the corpus returns' fields, no
 * more and no fewer. Then a payment's whole life against it with the connector's client: token → the
 * page, reached by the form post of tokenIdentity → the return read by the mapping → confirmation (a
 * second answers duplicateVerify) → reversal (a second answers "reversed before"); each operation once
 * in the simulator's ledger under our operation key; and its fault switches as the client sees them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IrankishClient } from '../../../../src/psps/irankish/client.ts';
import { irankishOrderId, irankishReturn } from '../../../../src/psps/irankish/mapping.ts';
import { IRANKISH_PROFILE } from '../../../../src/psps/irankish/profile.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { IRANKISH_PAGE, IRANKISH_SIM_PUBLIC_KEY } from '../../../../src/psps/irankish/simulator.ts';
import type { Ledger } from '../../../../src/bank-sim/ledger.ts';
import { createSimulator } from '../../../../src/bank-sim/server.ts';
import { corpusAnswer, corpusFields, corpusRequest, irankishCorpusMessage } from '../corpus.ts';

const ADMIN = 'shape-test-admin';
const tokenRequest = corpusRequest('token-request');
const request = tokenRequest.json.request as Record<string, string | number | null>;
const TERMINAL = String(request.terminalId);
const ACCEPTOR = String(request.acceptorId);
const PASSWORD = tokenRequest.envelope!.password;
const keys = (o: unknown) => Object.keys(typeof o === 'object' && o !== null ? o : {}).sort();
const typeOf = (v: unknown) => (v === null ? 'null' : typeof v);
const typesOf = (o: unknown) =>
  Object.fromEntries(Object.entries(typeof o === 'object' && o !== null ? o : {}).map(([k, v]) => [k, typeOf(v)]));

/** An IranKish simulator of the corpus's terminal, acceptor and password, its ledger in `dir`, on a free loopback port. */
async function listeningSimulator(dir: string, autoReverseSeconds: number, delaySeconds = 0) {
  const { server, ledger } = createSimulator({
    protocol: 'irankish',
    stateFile: join(dir, 'ledger.jsonl'),
    terminalId: TERMINAL,
    settings: { ACCEPTOR_ID: ACCEPTOR, PUBLIC_KEY: IRANKISH_SIM_PUBLIC_KEY },
    password: PASSWORD,
    adminToken: ADMIN,
    redirectOrigins: ['http://callback.test'],
    delaySeconds,
    autoReverseSeconds,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    server,
    ledger,
    base: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
  };
}

/** The hidden fields of the page's form back to the merchant (its return post). */
function returnFields(html: string): Record<string, string> {
  const unescape = (s: string) => s.replace(/&#([0-9]+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  return Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]),
  );
}

describe('the IranKish simulator against the corpus', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'irankish-shape-'));
  let server: Server;
  let ledger: Ledger;
  let base = '';
  let order = 300_000_000_000;
  const client = (timeoutMs = 5_000) =>
    new IrankishClient({
      baseUrl: base,
      terminalId: TERMINAL,
      acceptorId: ACCEPTOR,
      password: PASSWORD,
      publicKey: IRANKISH_SIM_PUBLIC_KEY,
      timeoutMs,
    });

  before(async () => {
    ({ server, ledger, base } = await listeningSimulator(dir, 0, 1));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
  };
  /** The corpus's token request as it is, its time now (IranKish refuses a request out of date, 906). */
  const corpusToken = (change: Record<string, unknown> = {}) => ({
    ...tokenRequest.json,
    request: { ...request, requestTimestamp: Math.floor(Date.now() / 1000), ...change },
  });
  const setFault = async (operation: string, fault: string) => {
    const res = await fetch(`${base}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ operation, fault, times: 1 }),
    });
    assert.equal(res.status, 200);
  };

  /** The customer at the page, reached by the form post of tokenIdentity, and the choice posted as the browser does: the return's fields. */
  async function choose(token: { url: string; fields: Record<string, string> }, outcome: string) {
    const page = await fetch(token.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(token.fields).toString(),
    });
    assert.equal(page.status, 200);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    assert.equal(action, IRANKISH_PAGE.choicePath);
    const tokenIdentity = /<input type="hidden" name="tokenIdentity" value="([^"]+)">/.exec(html)?.[1] ?? '';
    const res = await fetch(`${base}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tokenIdentity, card: IRANKISH_PAGE.defaultCard, outcome }).toString(),
    });
    assert.equal(res.status, 200);
    return returnFields(await res.text());
  }

  it('defaults to the profile: its port, terminal, time to give back and settings, the public key the pair of its own', () => {
    assert.equal(IRANKISH_PROFILE.simulator.port, 3106);
    const publicKey = IRANKISH_PROFILE.settings.find((s) => s.suffix === 'PUBLIC_KEY')!;
    assert.equal(publicKey.testDefault, IRANKISH_SIM_PUBLIC_KEY);
  });

  it("takes the corpus's token request as it is (its envelope opens to the corpus's terminal, password and amount), answers the corpus answer's fields; refusals have the refusal's", async () => {
    const ok = await post('/api/v3/tokenization/make', corpusToken());
    assert.equal(ok.status, corpusAnswer('token-answer-ok').status);
    assert.deepEqual(keys(ok.json), keys(corpusAnswer('token-answer-ok').json));
    assert.deepEqual(typesOf(ok.json!.result), typesOf(corpusAnswer('token-answer-ok').json.result));
    assert.deepEqual([ok.json!.responseCode, ok.json!.status], ['00', true]);
    for (const [body, code] of [
      [corpusToken({ amount: 130_001 }), '922'],
      [corpusToken({ terminalId: '08099999' }), '915'],
      [corpusToken({ acceptorId: '1' }), '916'],
      [corpusToken({ transactionType: 'Bill' }), '917'],
      [corpusToken({ revertUri: 'http://elsewhere.test/' }), '907'],
      [corpusToken({ requestTimestamp: 1_000_000_000 }), '906'],
      [corpusToken({ requestId: '' }), '905'],
      [{ ...corpusToken(), authenticationEnvelope: { data: '00', iv: '00' } }, '922'],
    ] as const) {
      const refused = await post('/api/v3/tokenization/make', body);
      assert.deepEqual(keys(refused.json), keys(corpusAnswer('token-answer-refused').json));
      assert.deepEqual([refused.json!.responseCode, refused.json!.status], [code, false]);
    }
    assert.equal(corpusAnswer('token-answer-refused').json.status, false);
  });

  it("its page takes the redirect's form post; the return posts carry the corpus returns' fields and codes", async () => {
    const redirect = irankishCorpusMessage('page-redirect');
    assert.deepEqual([IRANKISH_PAGE.pagePath, IRANKISH_PAGE.pageMethod], [redirect.http.path, redirect.http.method]);
    assert.deepEqual([IRANKISH_PAGE.tokenField], Object.keys(corpusFields('page-redirect')));
    for (const [outcome, name] of [
      ['success', 'return-paid'],
      ['cancel', 'return-canceled'],
      ['failure', 'return-failed'],
    ] as const) {
      const requestId = String(order++);
      const { json } = await post('/api/v3/tokenization/make', corpusToken({ requestId }));
      const token = String((json!.result as { token: string }).token);
      const fields = await choose({ url: `${base}${redirect.http.path}`, fields: { tokenIdentity: token } }, outcome);
      assert.deepEqual(keys(fields), keys(corpusFields(name)), name);
      assert.equal(fields.responseCode, corpusFields(name).responseCode, name);
      assert.deepEqual([fields.requestId, fields.token, fields.acceptorId], [requestId, token, ACCEPTOR]);
      if (outcome === 'success') {
        assert.match(fields.retrievalReferenceNumber!, /^[0-9]{12}$/);
        assert.match(fields.systemTraceAuditNumber!, /^[0-9]{6}$/);
      }
    }
  });

  it("answers the corpus's confirmation and reversal with the corpus answers' fields: 00, then duplicateVerify; 25 no such transaction; reversed, then 2", async () => {
    const requestId = String(order++);
    const { json } = await post('/api/v3/tokenization/make', corpusToken({ requestId, amount: 130_000 }));
    const token = String((json!.result as { token: string }).token);
    const fields = await choose({ url: `${base}/iuiv3/IPG/Index/`, fields: { tokenIdentity: token } }, 'success');
    const body = {
      ...corpusRequest('verify-request').json,
      retrievalReferenceNumber: fields.retrievalReferenceNumber,
      systemTraceAuditNumber: fields.systemTraceAuditNumber,
      tokenIdentity: token,
    };
    const first = await post('/api/v3/confirmation/purchase', body);
    assert.deepEqual(keys(first.json), keys(corpusAnswer('verify-answer-ok').json));
    assert.deepEqual(keys(first.json!.result), keys(corpusAnswer('verify-answer-ok').json.result));
    assert.deepEqual(typesOf(first.json!.result), typesOf(corpusAnswer('verify-answer-ok').json.result));
    const result = first.json!.result as Record<string, unknown>;
    assert.deepEqual(
      [first.json!.responseCode, result.amount, result.requestId, result.duplicateVerify],
      ['00', '130000', requestId, false],
    );
    const again = await post('/api/v3/confirmation/purchase', body);
    assert.equal((again.json!.result as Record<string, unknown>).duplicateVerify, true);
    const unknown = await post('/api/v3/confirmation/purchase', corpusRequest('verify-request').json);
    assert.deepEqual(keys(unknown.json), keys(corpusAnswer('verify-answer-refused').json));
    assert.equal(unknown.json!.responseCode, corpusAnswer('verify-answer-refused').json.responseCode);
    const reversed = await post('/api/v3/confirmation/reversePurchase', body);
    assert.deepEqual(keys(reversed.json), keys(corpusAnswer('reverse-answer-ok').json));
    assert.equal(reversed.json!.responseCode, '00');
    const twice = await post('/api/v3/confirmation/reversePurchase', body);
    assert.deepEqual(keys(twice.json), keys(corpusAnswer('reverse-answer-reversed-before').json));
    assert.equal(twice.json!.responseCode, corpusAnswer('reverse-answer-reversed-before').json.responseCode);
    for (const path of ['/api/v3/inquiry/single', '/api/v3/confirmation/bill', '/api/v3/refund'])
      assert.equal((await post(path, body)).status, 404, path);
  });

  it('a payment with the client: token → the page → the return → confirmed (twice) → reversed (twice), each operation once under our key', async () => {
    const irankish = client();
    const payment = 'a1b2c3d4-0000-4000-8000-000000000001';
    const token = await irankish.requestToken(payment, 12_000, 'http://callback.test/return');
    assert.equal(token.method, 'POST');
    const callback = irankishReturn(await choose(token, 'success'), payment);
    assert.equal(callback?.state, 'OK');
    for (let i = 0; i < 2; i++) {
      const confirmation = await irankish.confirm(payment, callback.ref_num, 12_000);
      assert.ok(
        confirmation.result === 'confirmed' &&
          isGenuineConfirmation(
            { ...confirmation, terminal_matches: confirmation.terminal === TERMINAL },
            { id: payment, amount: 12_000 },
            callback.ref_num,
          ),
      );
    }
    assert.equal((await irankish.reverse(payment, callback.ref_num)).result_code, 0);
    assert.equal((await irankish.reverse(payment, callback.ref_num)).result_code, 2, 'reversed before');
    const operations = ledger.operations(irankishOrderId(payment));
    assert.deepEqual(
      operations.map((op) => [op.kind, op.operation_key]),
      [
        ['token', `token:${payment}`],
        ['confirm', `confirm:${payment}`],
        ['reverse', `reverse:${payment}`],
      ],
    );
    // A confirmation after the reversal: the transaction was given back.
    const after = await irankish.confirm(payment, callback.ref_num, 12_000);
    assert.deepEqual([after.result, after.result === 'refused' && after.code], ['refused', 2]);
  });

  it('the page\'s "delay in verification": IranKish has no in-progress answer, so the confirmation is unavailable until the delay is over', async () => {
    const irankish = client();
    const payment = 'a1b2c3d4-0000-4000-8000-000000000002';
    const token = await irankish.requestToken(payment, 1_000, 'http://callback.test/return');
    const callback = irankishReturn(await choose(token, 'delay'), payment)!;
    assert.equal(callback.state, 'OK');
    await assert.rejects(irankish.confirm(payment, callback.ref_num, 1_000), BankUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await irankish.confirm(payment, callback.ref_num, 1_000)).result, 'confirmed');
  });

  it('the fault switches: down, timeout and error are BankUnavailableError; unknown a refusal (25); other_amount a confirmation of another amount', async () => {
    const irankish = client(800);
    const payment = 'a1b2c3d4-0000-4000-8000-000000000003';
    for (const fault of ['down', 'timeout', 'error']) {
      await setFault('token', fault);
      await assert.rejects(
        irankish.requestToken(payment, 1_000, 'http://callback.test/return'),
        BankUnavailableError,
        `token ${fault}`,
      );
    }
    const token = await irankish.requestToken(payment, 1_000, 'http://callback.test/return');
    const callback = irankishReturn(await choose(token, 'success'), payment)!;
    for (const fault of ['down', 'error', 'in_progress']) {
      await setFault('confirm', fault);
      await assert.rejects(irankish.confirm(payment, callback.ref_num, 1_000), BankUnavailableError, fault);
    }
    await setFault('confirm', 'unknown');
    const unknown = await irankish.confirm(payment, callback.ref_num, 1_000);
    assert.deepEqual([unknown.result, unknown.result === 'refused' && unknown.code], ['refused', 25]);
    await setFault('confirm', 'timeout');
    await assert.rejects(irankish.confirm(payment, callback.ref_num, 1_000), BankUnavailableError, 'timeout');
    await setFault('confirm', 'other_amount');
    const other = await irankish.confirm(payment, callback.ref_num, 1_000);
    assert.ok(other.result === 'confirmed' && other.amount !== 1_000, 'the answer names another amount');
    assert.equal(
      ledger.operations(irankishOrderId(payment)).filter((op) => op.kind === 'confirm').length,
      1,
      'confirmed once',
    );
    for (const fault of ['down', 'error']) {
      await setFault('reverse', fault);
      await assert.rejects(irankish.reverse(payment, callback.ref_num), BankUnavailableError, `reverse ${fault}`);
    }
    await setFault('reverse', 'unknown');
    await assert.rejects(
      irankish.reverse(payment, callback.ref_num),
      (e: unknown) => e instanceof BankRefusalError && e.code === 25,
    );
  });
});

describe("the IranKish simulator's own clock: IranKish gives back a purchase nobody confirmed", function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'irankish-clock-'));
  let server: Server;
  let base = '';

  before(async () => {
    // A second in place of the profile's 20 minutes.
    ({ server, base } = await listeningSimulator(dir, 1));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a confirmation after it answers 2, reversed before', async () => {
    const irankish = new IrankishClient({
      baseUrl: base,
      terminalId: TERMINAL,
      acceptorId: ACCEPTOR,
      password: PASSWORD,
      publicKey: IRANKISH_SIM_PUBLIC_KEY,
      timeoutMs: 5_000,
    });
    const payment = 'a1b2c3d4-0000-4000-8000-000000000004';
    const token = await irankish.requestToken(payment, 1_000, 'http://callback.test/return');
    await fetch(`${base}/iuiv3/IPG/Pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tokenIdentity: token.token, outcome: 'success' }).toString(),
    });
    const page = await fetch(token.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(token.fields).toString(),
    });
    const callback = irankishReturn(returnFields(await page.text()), payment)!;
    assert.equal(callback.state, 'OK');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const late = await irankish.confirm(payment, callback.ref_num, 1_000);
    assert.deepEqual([late.result, late.result === 'refused' && late.code], ['refused', 2]);
  });
});
