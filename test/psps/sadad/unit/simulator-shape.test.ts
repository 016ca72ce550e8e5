/**
 * The Sadad simulator (src/psps/sadad/simulator.ts) held against the conformance corpus, in process: it
 * takes the corpus's requests as they are and answers each with the corpus answer's shape (the same
 * field names, the same code for the same situation); its return posts carry the corpus returns'
 * fields, no more and no fewer. Then a payment's whole life against it with the connector's client:
 * token → the page's choice, posted as the browser would → the return read by the mapping → confirm
 * (a second answers "verified before") → no reversal; each operation once in the simulator's ledger;
 * and its fault switches as the client sees them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { SadadClient } from '../../../../src/psps/sadad/client.ts';
import {
  SADAD_CODE,
  sadadCallback,
  sadadOrderId,
  sadadSignature,
  sadadKey,
} from '../../../../src/psps/sadad/mapping.ts';
import type { Ledger } from '../../../../src/bank-sim/ledger.ts';
import { createSimulator } from '../../../../src/bank-sim/server.ts';
import { corpusAnswer, corpusFields, corpusRequest } from '../corpus.ts';

const ADMIN = 'shape-test-admin';
const tokenRequest = corpusRequest('token-request');
const TERMINAL = String(tokenRequest.json.TerminalId);
const MERCHANT = String(tokenRequest.json.MerchantId);
const KEY = tokenRequest.signature.key;
const keys = (o: object | null) => Object.keys(o ?? {}).sort();

/** A Sadad simulator of the corpus's terminal, merchant and key, its ledger in `dir`, on a free loopback port. */
async function listeningSimulator(dir: string, autoReverseSeconds: number, delaySeconds = 0) {
  const { server, ledger } = createSimulator({
    protocol: 'sadad',
    stateFile: join(dir, 'ledger.jsonl'),
    terminalId: TERMINAL,
    settings: { MERCHANT_ID: MERCHANT, KEY },
    password: '',
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

describe('the Sadad simulator against the corpus', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'sadad-shape-'));
  let server: Server;
  let ledger: Ledger;
  let base = '';
  let order = 300_000_000_000;

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
  const signed = (orderId: number, amount = 1_000) => ({
    ...tokenRequest.json,
    OrderId: orderId,
    Amount: amount,
    SignData: sadadSignature(`${TERMINAL};${orderId};${amount}`, sadadKey(KEY)),
  });
  const verifyBody = (token: string) => ({ Token: token, SignData: sadadSignature(token, sadadKey(KEY)) });
  const setFault = async (operation: string, fault: string) => {
    const res = await fetch(`${base}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ operation, fault, times: 1 }),
    });
    assert.equal(res.status, 200);
  };

  /** The customer's choice on the page, posted to the page's choice path as the browser does: the return's fields. */
  async function choose(pageUrl: string, outcome: string): Promise<Record<string, string>> {
    const page = await fetch(pageUrl);
    assert.equal(page.status, 200);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    assert.equal(action, '/Purchase/choose');
    const token = /<input type="hidden" name="Token" value="([^"]+)">/.exec(html)?.[1] ?? '';
    const res = await fetch(`${base}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ Token: token, card: '6037997123456783', outcome }).toString(),
    });
    assert.equal(res.status, 200);
    return returnFields(await res.text());
  }

  it("takes the corpus's token request as it is, and answers the corpus answer's fields; a repeat, a bad signature, another terminal are refusals of the refusal's fields", async () => {
    const ok = await post('/api/v0/Request/PaymentRequest', tokenRequest.json);
    assert.equal(ok.status, corpusAnswer('token-answer-ok').status);
    assert.deepEqual(keys(ok.json), keys(corpusAnswer('token-answer-ok').json));
    assert.equal(ok.json!.ResCode, 0);
    assert.match(String(ok.json!.Token), /^[A-Za-z0-9]{8,64}$/);
    for (const [body, code] of [
      [tokenRequest.json, 1011],
      [{ ...signed(order++), SignData: tokenRequest.json.SignData }, 1025],
      [{ ...signed(order++), TerminalId: '999' }, 1027],
      [{ ...signed(order++), ReturnUrl: 'http://elsewhere.test/' }, 1023],
    ] as const) {
      const refused = await post('/api/v0/Request/PaymentRequest', body);
      assert.deepEqual(keys(refused.json), keys(corpusAnswer('token-answer-refused').json));
      assert.equal(refused.json!.ResCode, code);
    }
  });

  it("its page is at the redirect's path with its field; the return posts carry the corpus returns' fields", async () => {
    const paths = { page: '/Purchase', field: Object.keys(corpusFields('purchase-redirect'))[0]! };
    const outcomes = [
      ['success', 'return-paid'],
      ['cancel', 'return-canceled'],
      ['failure', 'return-failed'],
    ] as const;
    for (const [outcome, name] of outcomes) {
      const orderId = order++;
      const { json } = await post('/api/v0/Request/PaymentRequest', signed(orderId));
      const fields = await choose(`${base}${paths.page}?${paths.field}=${String(json!.Token)}`, outcome);
      assert.deepEqual(keys(fields), keys(corpusFields(name)), name);
      assert.equal(fields.ResCode, corpusFields(name).ResCode, name);
      assert.equal(fields.OrderId, String(orderId));
      assert.equal(fields.token, json!.Token);
    }
  });

  it("answers the corpus's verify with the corpus answers' fields: 0, then 100 verified before, -1 no such transaction; no reversal, inquiry or refund path", async () => {
    const orderId = order++;
    const { json } = await post('/api/v0/Request/PaymentRequest', signed(orderId, 2_500));
    const token = String(json!.Token);
    await choose(`${base}/Purchase?Token=${token}`, 'success');
    const first = await post('/api/v0/Advice/Verify', verifyBody(token));
    assert.deepEqual(keys(first.json), keys(corpusAnswer('verify-answer-ok').json));
    assert.deepEqual([first.json!.ResCode, first.json!.Amount, first.json!.OrderId], [0, 2_500, orderId]);
    assert.match(String(first.json!.RetrivalRefNo), /^[0-9]{12}$/);
    const again = await post('/api/v0/Advice/Verify', verifyBody(token));
    assert.deepEqual(keys(again.json), keys(corpusAnswer('verify-answer-verified-before').json));
    assert.equal(again.json!.ResCode, corpusAnswer('verify-answer-verified-before').json!.ResCode);
    const unknown = await post('/api/v0/Advice/Verify', corpusRequest('verify-request').json);
    assert.deepEqual(keys(unknown.json), keys(corpusAnswer('verify-answer-refused').json));
    assert.equal(unknown.json!.ResCode, corpusAnswer('verify-answer-refused').json!.ResCode);
    assert.equal(
      (await post('/api/v0/Advice/Verify', { Token: token, SignData: 'forged' })).json!.ResCode,
      -1,
      'a verify not signed with the key',
    );
    for (const path of ['/api/v0/Advice/Reverse', '/api/v0/Advice/Inquiry', '/api/v0/Refund/Register'])
      assert.equal((await post(path, verifyBody(token))).status, 404, path);
  });

  it("a payment with the client: token → the page → the return (confirmed on its own, no call) → the merchant's verify (settle) → again → no reversal, each operation once", async () => {
    const sadad = new SadadClient({
      baseUrl: base,
      terminalId: TERMINAL,
      merchantId: MERCHANT,
      key: KEY,
      timeoutMs: 5_000,
    });
    const payment = 'a1b2c3d4-0000-4000-8000-000000000001';
    const token = await sadad.requestToken(payment, 12_000, 'http://callback.test/return');
    assert.equal(token.method, 'GET');
    const fields = await choose(token.url, 'success');
    const callback = sadadCallback(fields, payment);
    assert.equal(callback?.state, 'OK');
    const confirmation = await sadad.confirm(payment, callback.ref_num, 12_000);
    assert.ok(
      confirmation.result === 'confirmed' &&
        isGenuineConfirmation(
          { ...confirmation, terminal_matches: confirmation.terminal === TERMINAL },
          { id: payment, amount: 12_000 },
          callback.ref_num,
        ),
    );
    assert.deepEqual(
      ledger.operations(sadadOrderId(payment)).map((op) => op.kind),
      ['token'],
      'the return asked Sadad nothing',
    );
    assert.deepEqual(await sadad.settle(payment, callback.ref_num, 12_000), {
      ref_num: callback.ref_num,
      result_code: 0,
    });
    assert.deepEqual(
      await sadad.settle(payment, callback.ref_num, 12_000),
      { ref_num: callback.ref_num, result_code: 100 },
      'verified before',
    );
    await assert.rejects(sadad.reverse(payment), BankRefusalError);
    assert.deepEqual(
      ledger.operations(sadadOrderId(payment)).map((op) => op.kind),
      ['token', 'confirm'],
    );
    assert.deepEqual(
      ledger.operations(sadadOrderId(payment)).map((op) => op.operation_key),
      [`token:${payment}`, `settle:${payment}`],
    );
  });

  it('the page\'s "delay in verification": Sadad has no in-progress answer, so the verify is unavailable until the delay is over', async () => {
    const sadad = new SadadClient({
      baseUrl: base,
      terminalId: TERMINAL,
      merchantId: MERCHANT,
      key: KEY,
      timeoutMs: 5_000,
    });
    const payment = 'a1b2c3d4-0000-4000-8000-000000000002';
    const token = await sadad.requestToken(payment, 1_000, 'http://callback.test/return');
    const callback = sadadCallback(await choose(token.url, 'delay'), payment)!;
    assert.equal(callback.state, 'OK');
    await assert.rejects(sadad.settle(payment, callback.ref_num, 1_000), BankUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await sadad.settle(payment, callback.ref_num, 1_000)).result_code, 0);
  });

  it('the fault switches: down, timeout and error are BankUnavailableError; unknown a refused verify; other_amount a verify refused as not this payment', async () => {
    const sadad = new SadadClient({
      baseUrl: base,
      terminalId: TERMINAL,
      merchantId: MERCHANT,
      key: KEY,
      timeoutMs: 800,
    });
    const payment = 'a1b2c3d4-0000-4000-8000-000000000003';
    for (const fault of ['down', 'timeout', 'error']) {
      await setFault('token', fault);
      await assert.rejects(
        sadad.requestToken(payment, 1_000, 'http://callback.test/return'),
        BankUnavailableError,
        `token ${fault}`,
      );
    }
    const token = await sadad.requestToken(payment, 1_000, 'http://callback.test/return');
    const callback = sadadCallback(await choose(token.url, 'success'), payment)!;
    for (const fault of ['down', 'error', 'in_progress']) {
      await setFault('confirm', fault);
      await assert.rejects(sadad.settle(payment, callback.ref_num, 1_000), BankUnavailableError, `verify ${fault}`);
    }
    await setFault('confirm', 'unknown');
    await assert.rejects(
      sadad.settle(payment, callback.ref_num, 1_000),
      (e: unknown) => e instanceof BankRefusalError && e.code === -1,
    );
    // A timeout: the bank verifies, its answer never arrives; the retry answers "verified before".
    await setFault('confirm', 'timeout');
    await assert.rejects(sadad.settle(payment, callback.ref_num, 1_000), BankUnavailableError, 'verify timeout');
    assert.equal(ledger.operations(sadadOrderId(payment)).filter((op) => op.kind === 'confirm').length, 1);
    await setFault('confirm', 'other_amount');
    await assert.rejects(
      sadad.settle(payment, callback.ref_num, 1_000),
      (e: unknown) => e instanceof BankRefusalError && e.code === SADAD_CODE.NOT_THIS_PAYMENT,
    );
    assert.equal((await sadad.settle(payment, callback.ref_num, 1_000)).result_code, 100, 'verified before');
    assert.equal(
      ledger.operations(sadadOrderId(payment)).filter((op) => op.kind === 'confirm').length,
      1,
      'verified once',
    );
  });
});

describe("the Sadad simulator's own clock: Sadad gives back a payment nobody verified", function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'sadad-clock-'));
  let server: Server;
  let base = '';

  before(async () => {
    // A second in place of Sadad's 15 minutes (the default, src/bank-sim/main.ts).
    ({ server, base } = await listeningSimulator(dir, 1));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a verify after it answers 101, the corpus\'s "too late"', async () => {
    const sadad = new SadadClient({
      baseUrl: base,
      terminalId: TERMINAL,
      merchantId: MERCHANT,
      key: KEY,
      timeoutMs: 5_000,
    });
    const payment = 'a1b2c3d4-0000-4000-8000-000000000004';
    const token = await sadad.requestToken(payment, 1_000, 'http://callback.test/return');
    const page = await (await fetch(token.url)).text();
    const tokenField = /<input type="hidden" name="Token" value="([^"]+)">/.exec(page)?.[1] ?? '';
    await fetch(`${base}/Purchase/choose`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ Token: tokenField, outcome: 'success' }).toString(),
    });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await assert.rejects(
      sadad.settle(payment, token.token, 1_000),
      (e: unknown) => e instanceof BankRefusalError && e.code === corpusAnswer('verify-answer-too-late').json!.ResCode,
    );
  });
});
