/**
 * The Pasargad (PEP) simulator (src/psps/pasargad/simulator.ts) held against the conformance corpus, in
 * process: it takes the corpus's requests as they are and answers each with the corpus answer's shape
 * (the same field names, the same code for the same situation); its returns carry the corpus returns'
 * fields, no more and no fewer, by a GET as PEP's. Then a payment's whole life against it with the
 * connector's client: token → the page's choice, as the browser does → the return read by the mapping →
 * the inquiry's confirmation (nothing confirmed) → the merchant's verify (confirm-transactions, again
 * "confirmed before") → a reversal refused after it; a refused confirmation's reversal; each operation
 * once in the simulator's ledger; and its fault switches as the client sees them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PasargadClient } from '../../../../src/psps/pasargad/client.ts';
import { PASARGAD_CODE, pasargadOrderId, pasargadReturn } from '../../../../src/psps/pasargad/mapping.ts';
import { PASARGAD_PROFILE } from '../../../../src/psps/pasargad/profile.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import type { Ledger } from '../../../../src/bank-sim/ledger.ts';
import { PASARGAD_SIMULATOR } from '../../../../src/psps/pasargad/simulator.ts';
import { createSimulator } from '../../../../src/bank-sim/server.ts';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { corpusAnswer, corpusData, corpusFields, corpusRequest, pasargadCorpusMessage } from '../corpus.ts';

const ADMIN = 'shape-test-admin';
const auth = corpusRequest('auth-request');
const purchase = corpusRequest('token-request');
const TERMINAL = String(purchase.json.terminalNumber);
const USER = String(auth.json.username);
const PASSWORD = String(auth.json.password);
const keys = (o: object | null | undefined) => Object.keys(o ?? {}).sort();
const path = (name: string) => pasargadCorpusMessage(name).http.path;

/** A PEP simulator of the corpus's terminal, user name and password, its ledger in `dir`, on a free loopback port. */
async function listeningSimulator(dir: string, delaySeconds: number) {
  const { server, ledger } = createSimulator({
    protocol: 'pasargad',
    stateFile: join(dir, 'ledger.jsonl'),
    terminalId: TERMINAL,
    userName: USER,
    settings: { USERNAME: USER },
    password: PASSWORD,
    adminToken: ADMIN,
    redirectOrigins: ['http://callback.test'],
    delaySeconds,
    autoReverseSeconds: 0,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    server,
    ledger,
    base: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
  };
}

/** The form back to the merchant: its method, its address and its hidden fields. */
function returnForm(html: string) {
  const unescape = (s: string) => s.replace(/&#([0-9]+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  const form = /<form method="(get|post)" action="([^"]+)">/.exec(html);
  return {
    method: form?.[1],
    action: unescape(form?.[2] ?? ''),
    fields: Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]),
    ),
  };
}

describe('the Pasargad simulator against the corpus', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'pasargad-shape-'));
  let server: Server;
  let ledger: Ledger;
  let base = '';
  let invoice = 400_000_000_000;

  before(async () => {
    ({ server, ledger, base } = await listeningSimulator(dir, 1));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (to: string, body: unknown, bearer?: string) => {
    const res = await fetch(`${base}${to}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
  };
  const login = async () => String((await post(path('auth-request'), auth.json)).json!.token);
  const bought = async (bearer: string, amount = 10_001) => {
    const n = String(invoice++);
    const { json } = await post(path('token-request'), { ...purchase.json, invoice: n, amount }, bearer);
    assert.equal(json!.resultCode, 0, JSON.stringify(json));
    return { invoice: n, data: json!.data as { urlId: string; url: string } };
  };
  const setFault = async (operation: string, fault: string) => {
    const res = await fetch(`${base}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ operation, fault, times: 1 }),
    });
    assert.equal(res.status, 200);
  };

  /** The customer on the page the purchase's url leads to: the choice posted as the browser does, then the return's form. */
  async function choose(pageUrl: string, outcome: string) {
    const page = await fetch(new URL(new URL(pageUrl).pathname, base));
    assert.equal(page.status, 200);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    const urlId = /<input type="hidden" name="urlId" value="([^"]+)">/.exec(html)?.[1] ?? '';
    const res = await fetch(`${base}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ urlId, card: '5022291234567897', outcome }).toString(),
    });
    assert.equal(res.status, 200);
    return returnForm(await res.text());
  }

  it("getToken takes the corpus's request and answers the corpus answer's fields; a wrong password the refusal's; every other call wants the bearer (HTTP 401)", async () => {
    const ok = await post(path('auth-request'), auth.json);
    assert.equal(ok.status, corpusAnswer('auth-answer-ok').status);
    assert.deepEqual(keys(ok.json), keys(corpusAnswer('auth-answer-ok').json));
    const refused = await post(path('auth-request'), { ...auth.json, password: 'wrong' });
    assert.deepEqual(refused.json, corpusAnswer('auth-answer-refused').json);
    for (const name of ['token-request', 'inquiry-request', 'confirm-request', 'reverse-request']) {
      assert.equal((await post(path(name), corpusRequest(name).json)).status, 401, `${name} without a bearer`);
      assert.equal(
        (await post(path(name), corpusRequest(name).json, 'forged')).status,
        401,
        `${name}, a bearer getToken never gave`,
      );
    }
  });

  it("takes the corpus's purchase as it is, and answers the corpus answer's fields; a repeated invoice, another terminal, another callback are refusals of the refusal's fields", async () => {
    const bearer = await login();
    const ok = await post(path('token-request'), purchase.json, bearer);
    assert.equal(ok.status, corpusAnswer('token-answer-ok').status);
    assert.deepEqual(keys(ok.json), keys(corpusAnswer('token-answer-ok').json));
    assert.deepEqual(keys(ok.json!.data as object), keys(corpusData('token-answer-ok')));
    const data = ok.json!.data as { urlId: string; url: string };
    assert.match(data.urlId, /^[0-9a-f]{40}[0-9]{15}$/, "the shape of PEP's example");
    assert.equal(new URL(data.url).pathname, `/${data.urlId}`, 'the base address and the urlId');
    for (const [body, code] of [
      [purchase.json, 13003],
      [{ ...purchase.json, invoice: String(invoice++), terminalNumber: 999 }, 13399],
      [{ ...purchase.json, invoice: String(invoice++), callbackApi: 'http://elsewhere.test/' }, 13028],
      [{ ...purchase.json, invoice: String(invoice++), amount: -5 }, 13055],
    ] as const) {
      const refused = await post(path('token-request'), body, bearer);
      assert.deepEqual(keys(refused.json), keys(corpusAnswer('token-answer-refused').json));
      assert.equal(refused.json!.resultCode, code);
    }
  });

  it("its page is the purchase's url; its returns are GETs of the callback carrying the corpus returns' fields", async () => {
    const bearer = await login();
    for (const [outcome, name] of [
      ['success', 'return-paid'],
      ['cancel', 'return-canceled'],
      ['failure', 'return-failed'],
    ] as const) {
      const { invoice: n, data } = await bought(bearer);
      const back = await choose(data.url, outcome);
      assert.equal(back.method?.toUpperCase(), pasargadCorpusMessage(name).http.method, name);
      assert.equal(back.action, 'http://callback.test/return');
      assert.deepEqual(keys(back.fields), keys(corpusFields(name)), name);
      assert.equal(back.fields.status, corpusFields(name).status, name);
      assert.equal(back.fields.invoiceId, n);
      if (outcome === 'success') assert.match(back.fields.referenceNumber!, /^[0-9]{12}$/);
    }
  });

  it("answers the inquiry, the confirm and the reversal with the corpus answers' fields and codes", async () => {
    const bearer = await login();
    const { invoice: n, data } = await bought(bearer, 2_500);
    const back = await choose(data.url, 'success');
    const inquiry = await post(path('inquiry-request'), { invoiceId: n }, bearer);
    assert.deepEqual(keys(inquiry.json), keys(corpusAnswer('inquiry-answer-paid').json));
    assert.deepEqual(keys(inquiry.json!.data as object), keys(corpusData('inquiry-answer-paid')));
    const paid = inquiry.json!.data as Record<string, unknown>;
    assert.deepEqual(
      [paid.status, paid.amount, paid.invoice, paid.url, paid.referenceNumber],
      [corpusData('inquiry-answer-paid').status, 2_500, n, data.urlId, back.fields.referenceNumber],
    );
    assert.match(String(paid.cardNumber), /^502229\*{6}7897$/);
    const confirm = await post(path('confirm-request'), { invoice: n, urlId: data.urlId }, bearer);
    assert.deepEqual(keys(confirm.json), keys(corpusAnswer('confirm-answer-ok').json));
    assert.deepEqual(keys(confirm.json!.data as object), keys(corpusData('confirm-answer-ok')));
    const again = await post(path('confirm-request'), { invoice: n, urlId: data.urlId }, bearer);
    assert.deepEqual(again.json, corpusAnswer('confirm-answer-confirmed-before').json);
    const confirmedInquiry = await post(path('inquiry-request'), { invoiceId: n }, bearer);
    assert.equal((confirmedInquiry.json!.data as Record<string, unknown>).status, PASARGAD_CODE.CONFIRMED);
    const late = await post(path('reverse-request'), { invoice: n, urlId: data.urlId }, bearer);
    assert.deepEqual(late.json, corpusAnswer('reverse-answer-refused').json, 'no reversal after the confirm');
    const unknown = await post(path('confirm-request'), corpusRequest('confirm-request').json, bearer);
    assert.deepEqual(unknown.json, corpusAnswer('confirm-answer-refused').json);

    const other = await bought(bearer);
    await choose(other.data.url, 'success');
    const reversed = await post(path('reverse-request'), { invoice: other.invoice, urlId: other.data.urlId }, bearer);
    assert.deepEqual(reversed.json, corpusAnswer('reverse-answer-ok').json);
    const gone = await post(path('inquiry-request'), { invoiceId: other.invoice }, bearer);
    assert.equal((gone.json!.data as Record<string, unknown>).status, corpusData('inquiry-answer-reversed').status);
  });

  it("a payment with the client: token → the page → the return → the inquiry's confirmation (nothing confirmed) → the merchant's verify → again → no reversal after it; each operation once", async () => {
    const pep = new PasargadClient({
      baseUrl: base,
      terminalId: TERMINAL,
      userName: USER,
      password: PASSWORD,
      timeoutMs: 5_000,
    });
    const payment = 'a1b2c3d4-0000-4000-8000-000000000001';
    const token = await pep.requestToken(payment, 12_000, 'http://callback.test/return');
    assert.equal(token.method, 'GET');
    const back = await choose(token.url, 'success');
    const callback = pasargadReturn(back.fields, payment);
    assert.equal(callback?.state, 'OK');
    const confirmation = await pep.confirm(payment, callback.ref_num, 12_000);
    assert.ok(
      confirmation.result === 'confirmed' &&
        isGenuineConfirmation(
          { ...confirmation, terminal_matches: confirmation.terminal === TERMINAL },
          { id: payment, amount: 12_000 },
          callback.ref_num,
        ),
      JSON.stringify(confirmation),
    );
    const invoiceOf = pasargadOrderId(payment);
    assert.deepEqual(
      ledger.operations(invoiceOf).map((op) => op.kind),
      ['token'],
      'the return confirmed nothing at PEP',
    );
    assert.deepEqual(await pep.settle(payment, callback.ref_num, 12_000), {
      ref_num: callback.ref_num,
      result_code: 0,
    });
    assert.deepEqual(
      await pep.settle(payment, callback.ref_num, 12_000),
      { ref_num: callback.ref_num, result_code: PASARGAD_CODE.CONFIRMED },
      'confirmed before',
    );
    await assert.rejects(
      pep.reverse(payment, callback.ref_num),
      (e: unknown) => e instanceof BankRefusalError && e.code === PASARGAD_CODE.REVERSE_TIME_EXPIRED,
    );
    assert.deepEqual(
      ledger.operations(invoiceOf).map((op) => op.kind),
      ['token', 'confirm'],
    );
    assert.deepEqual(
      ledger.operations(invoiceOf).map((op) => op.operation_key),
      [`token:${payment}`, `settle:${payment}`],
    );
  });

  it('a sale the gateway does not confirm is reversed by reverse-transactions (again: reversed before); its verify is then refused 13033', async () => {
    const pep = new PasargadClient({
      baseUrl: base,
      terminalId: TERMINAL,
      userName: USER,
      password: PASSWORD,
      timeoutMs: 5_000,
    });
    const payment = 'a1b2c3d4-0000-4000-8000-000000000002';
    const token = await pep.requestToken(payment, 9_000, 'http://callback.test/return');
    const callback = pasargadReturn((await choose(token.url, 'success')).fields, payment)!;
    assert.deepEqual(await pep.reverse(payment, callback.ref_num), { ref_num: callback.ref_num, result_code: 0 });
    assert.deepEqual(await pep.reverse(payment, callback.ref_num), {
      ref_num: callback.ref_num,
      result_code: PASARGAD_CODE.REVERSED,
    });
    await assert.rejects(
      pep.settle(payment, callback.ref_num, 9_000),
      (e: unknown) => e instanceof BankRefusalError && e.code === PASARGAD_CODE.REVERSED,
    );
    assert.deepEqual(
      ledger.operations(pasargadOrderId(payment)).map((op) => op.kind),
      ['token', 'reverse'],
    );
  });

  it('the page\'s "delay in verification": the inquiry answers status 2 (in progress) until the delay is over', async () => {
    const pep = new PasargadClient({
      baseUrl: base,
      terminalId: TERMINAL,
      userName: USER,
      password: PASSWORD,
      timeoutMs: 5_000,
    });
    const payment = 'a1b2c3d4-0000-4000-8000-000000000003';
    const token = await pep.requestToken(payment, 7_000, 'http://callback.test/return');
    const callback = pasargadReturn((await choose(token.url, 'delay')).fields, payment)!;
    assert.deepEqual(await pep.confirm(payment, callback.ref_num, 7_000), { result: 'in_progress' });
    await new Promise((r) => setTimeout(r, 1_100));
    assert.equal((await pep.confirm(payment, callback.ref_num, 7_000)).result, 'confirmed');
  });

  it("its fault switches as the client sees them: the purchase's error and down, the inquiry's in_progress, unknown and other_amount, the confirm's error", async () => {
    const pep = new PasargadClient({
      baseUrl: base,
      terminalId: TERMINAL,
      userName: USER,
      password: PASSWORD,
      timeoutMs: 5_000,
    });
    await setFault('token', 'error');
    await assert.rejects(
      pep.requestToken('a1b2c3d4-0000-4000-8000-000000000004', 5_000, 'http://callback.test/return'),
      BankUnavailableError,
    );
    await setFault('token', 'down');
    await assert.rejects(
      pep.requestToken('a1b2c3d4-0000-4000-8000-000000000005', 5_000, 'http://callback.test/return'),
      BankUnavailableError,
    );
    const payment = 'a1b2c3d4-0000-4000-8000-000000000006';
    const token = await pep.requestToken(payment, 5_000, 'http://callback.test/return');
    const callback = pasargadReturn((await choose(token.url, 'success')).fields, payment)!;
    await setFault('confirm', 'in_progress');
    assert.deepEqual(await pep.confirm(payment, callback.ref_num, 5_000), { result: 'in_progress' });
    await setFault('confirm', 'unknown');
    assert.deepEqual(await pep.confirm(payment, callback.ref_num, 5_000), {
      result: 'refused',
      code: PASARGAD_CODE.NOT_FOUND,
      description: 'Transaction not found',
    });
    await setFault('confirm', 'other_amount');
    const other = await pep.confirm(payment, callback.ref_num, 5_000);
    assert.ok(other.result === 'confirmed' && other.amount !== 5_000);
    await setFault('settle', 'error');
    await assert.rejects(pep.settle(payment, callback.ref_num, 5_000), BankUnavailableError);
    assert.deepEqual(await pep.settle(payment, callback.ref_num, 5_000), { ref_num: callback.ref_num, result_code: 0 });
  });

  it("its defaults are the profile's simulator's", () => {
    assert.equal(PASARGAD_SIMULATOR.defaults.port, PASARGAD_PROFILE.simulator.port);
    assert.equal(PASARGAD_SIMULATOR.defaults.terminalId, PASARGAD_PROFILE.simulator.terminalId);
    assert.equal(PASARGAD_SIMULATOR.defaults.autoReverseSeconds, PASARGAD_PROFILE.simulator.autoReverseSeconds);
    assert.equal(
      PASARGAD_SIMULATOR.defaults.autoReverseSeconds * 1000,
      PASARGAD_PROFILE.capabilities.unverifiedReversalMs,
    );
  });
});
