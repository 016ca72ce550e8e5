/**
 * The Sepehr simulator (src/psps/sepehr/simulator.ts) held against the conformance corpus, in process: it
 * takes the corpus's requests as they are (and as the sources' other spellings send them: a form,
 * camel-cased names) and answers each with the corpus answer's shape (the same field names, the same
 * Status for the same situation); its return posts carry the corpus returns' fields, no more and no
 * fewer. Then a payment's whole life against it with the connector's client: token → the page's form
 * → the choice, posted as the browser would → the return read by the mapping → Advice (a second
 * answers Duplicate) → Rollback (a second answers Duplicate); each operation once in the simulator's
 * ledger; its fault switches as the client sees them; and its own clock.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isGenuineConfirmation } from '../../../../src/domain/bank-confirmation.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { SepehrClient } from '../../../../src/psps/sepehr/client.ts';
import { sepehrCallback, sepehrOrderId } from '../../../../src/psps/sepehr/mapping.ts';
import type { Ledger } from '../../../../src/bank-sim/ledger.ts';
import { createSimulator } from '../../../../src/bank-sim/server.ts';
import { corpusAnswer, corpusFields, corpusRequest, sepehrCorpusMessage } from '../corpus.ts';

const ADMIN = 'shape-test-admin';
const tokenRequest = corpusRequest('token-request');
const TERMINAL = String(tokenRequest.json.terminalID);
const TOKEN_PATH = sepehrCorpusMessage('token-request').http.path;
const ADVICE_PATH = sepehrCorpusMessage('verify-request').http.path;
const ROLLBACK_PATH = sepehrCorpusMessage('reversal-request').http.path;
const PAGE_PATH = sepehrCorpusMessage('pay-redirect').http.path;
const keys = (o: object | null) => Object.keys(o ?? {}).sort();

/** A Sepehr simulator of the corpus's terminal, its ledger in `dir`, on a free loopback port. */
async function listeningSimulator(
  dir: string,
  autoReverseSeconds: number,
  delaySeconds = 0,
  reversalWindowSeconds?: number,
) {
  const { server, ledger } = createSimulator({
    protocol: 'sepehr',
    stateFile: join(dir, 'ledger.jsonl'),
    terminalId: TERMINAL,
    password: '',
    adminToken: ADMIN,
    redirectOrigins: ['http://callback.test'],
    delaySeconds,
    autoReverseSeconds,
    ...(reversalWindowSeconds === undefined ? {} : { reversalWindowSeconds }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    server,
    ledger,
    base: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
  };
}

/** The hidden fields of a page's form (the page's own, or its form back to the merchant). */
function hiddenFields(html: string): Record<string, string> {
  const unescape = (s: string) => s.replace(/&#([0-9]+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  return Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]),
  );
}

/** The simulator at `base`, with the helpers every test of it uses. */
function bankAt(base: () => string) {
  const post = async (path: string, body: unknown, form = false) => {
    const res = await fetch(`${base()}${path}`, {
      method: 'POST',
      headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
      body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
  };
  const setFault = async (operation: string, fault: string) => {
    const res = await fetch(`${base()}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ operation, fault, times: 1 }),
    });
    assert.equal(res.status, 200);
  };
  /** The customer's browser: the form to the page (pay-redirect.json), then the choice posted as the page's form does; the return's fields. */
  const choose = async (url: string, fields: Record<string, string>, outcome: string) => {
    const page = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    assert.equal(page.status, 200);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
    assert.equal(action, `${PAGE_PATH}/choose`);
    const res = await fetch(`${base()}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hiddenFields(html), card: '6037991234567893', outcome }).toString(),
    });
    assert.equal(res.status, 200);
    return hiddenFields(await res.text());
  };
  return { post, setFault, choose };
}

describe('the Sepehr simulator against the corpus', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'sepehr-shape-'));
  let server: Server;
  let ledger: Ledger;
  let base = '';
  let order = 300_000_000_000;
  const { post, setFault, choose } = bankAt(() => base);
  const asked = (invoice: number, amount = 1_000) => ({
    ...tokenRequest.json,
    invoiceID: String(invoice),
    Amount: amount,
  });
  const client = (timeoutMs = 5_000) => new SepehrClient({ baseUrl: base, terminalId: TERMINAL, timeoutMs });

  before(async () => {
    ({ server, ledger, base } = await listeningSimulator(dir, 0, 1));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("takes the corpus's token request as it is, and its sources' other spellings; answers the corpus answer's fields; refusals have the refusal's", async () => {
    const ok = await post(TOKEN_PATH, tokenRequest.json);
    assert.equal(ok.status, corpusAnswer('token-answer-ok').status);
    assert.deepEqual(keys(ok.json), keys(corpusAnswer('token-answer-ok').json));
    assert.equal(ok.json!.Status, 0);
    assert.match(String(ok.json!.Accesstoken), /^[A-Za-z0-9]{16,64}$/);
    assert.deepEqual(
      (await post(TOKEN_PATH, tokenRequest.json)).json,
      ok.json,
      'the same sale asked again: its token again',
    );
    const formed = await post(TOKEN_PATH, { ...asked(order++), terminalID: TERMINAL, Amount: '1000' }, true);
    assert.equal(formed.json!.Status, 0, "multipay's form");
    const camel = await post(TOKEN_PATH, {
      amount: 1_000,
      callbackUrl: 'http://callback.test/r',
      invoiceId: String(order++),
      terminalId: Number(TERMINAL),
    });
    assert.equal(camel.json!.Status, 0, "Parbad's camel-cased names");
    for (const [body, code] of [
      [{ ...asked(order++), terminalID: 11112222 }, -2],
      [{ ...asked(order++), callbackURL: 'http://elsewhere.test/' }, -3],
      [{ ...asked(order++), Amount: 0 }, -3],
    ] as const) {
      const refused = await post(TOKEN_PATH, body);
      assert.deepEqual(keys(refused.json), keys(corpusAnswer('token-answer-refused').json));
      assert.equal(refused.json!.Status, code);
    }
  });

  it("its page takes pay-redirect.json's form; the return posts carry the corpus returns' fields and codes", async () => {
    for (const [outcome, name] of [
      ['success', 'return-paid'],
      ['cancel', 'return-canceled'],
      ['failure', 'return-failed'],
    ] as const) {
      const invoice = order++;
      const { json } = await post(TOKEN_PATH, asked(invoice));
      const fields = await choose(
        `${base}${PAGE_PATH}`,
        { ...corpusFields('pay-redirect'), token: String(json!.Accesstoken) },
        outcome,
      );
      assert.deepEqual(keys(fields), keys(corpusFields(name)), name);
      assert.equal(fields.respcode, corpusFields(name).respcode, name);
      assert.equal(fields.invoiceid, String(invoice));
      assert.equal(fields.terminalid, TERMINAL);
      assert.equal(fields.digitalreceipt === '', outcome !== 'success', name);
    }
  });

  it("answers Advice and Rollback with the corpus answers' fields: Ok, then Duplicate; NOK -1 for a receipt it has not; no inquiry, settle or refund path", async () => {
    const invoice = order++;
    const { json } = await post(TOKEN_PATH, asked(invoice, 2_500));
    const fields = await choose(
      `${base}${PAGE_PATH}`,
      { token: String(json!.Accesstoken), TerminalID: TERMINAL },
      'success',
    );
    const body = { ...corpusRequest('verify-request').json, digitalreceipt: fields.digitalreceipt! };
    const first = await post(ADVICE_PATH, body);
    assert.deepEqual(keys(first.json), keys(corpusAnswer('verify-answer-ok').json));
    assert.deepEqual([first.json!.Status, first.json!.ReturnId], ['Ok', '2500']);
    const again = await post(ADVICE_PATH, body);
    assert.deepEqual(keys(again.json), keys(corpusAnswer('verify-answer-duplicate').json));
    assert.deepEqual([again.json!.Status, again.json!.ReturnId], ['Duplicate', '2500']);
    const unknown = await post(ADVICE_PATH, corpusRequest('verify-request').json);
    assert.deepEqual(keys(unknown.json), keys(corpusAnswer('verify-answer-refused').json));
    assert.deepEqual(
      [unknown.json!.Status, unknown.json!.ReturnId],
      ['NOK', corpusAnswer('verify-answer-refused').json!.ReturnId],
    );
    assert.equal((await post(ADVICE_PATH, { ...body, Tid: 11112222 })).json!.Status, 'NOK', 'another terminal');
    const rolled = await post(ROLLBACK_PATH, body);
    assert.deepEqual(keys(rolled.json), keys(corpusAnswer('reversal-answer-ok').json));
    assert.equal(rolled.json!.Status, 'Ok');
    const twice = await post(ROLLBACK_PATH, { digitalReceipt: body.digitalreceipt, tid: Number(TERMINAL) });
    assert.deepEqual(keys(twice.json), keys(corpusAnswer('reversal-answer-duplicate').json));
    assert.equal(twice.json!.Status, 'Duplicate', "rolled back before (Parbad's camel-cased names)");
    assert.equal((await post(ROLLBACK_PATH, corpusRequest('reversal-request').json)).json!.Status, 'NOK');
    assert.deepEqual(
      [(await post(ADVICE_PATH, body)).json!.Status, (await post(ADVICE_PATH, body)).json!.ReturnId],
      ['NOK', '-4'],
      'an Advice of a transaction given back',
    );
    for (const path of ['/V1/PeymentApi/Inquiry', '/V1/PeymentApi/Settle', '/V1/PeymentApi/Refund'])
      assert.equal((await post(path, body)).status, 404, path);
  });

  it('a payment with the client: token → the page → the return → Advice (confirmed, then Duplicate) → Rollback (done, then again), each operation once', async () => {
    const sepehr = client();
    const payment = 'a1b2c3d4-0000-4000-8000-000000000001';
    const token = await sepehr.requestToken(payment, 12_000, 'http://callback.test/return');
    assert.equal(token.method, 'POST');
    const callback = sepehrCallback(await choose(token.url, token.fields, 'success'), payment);
    assert.equal(callback?.state, 'OK');
    for (let i = 0; i < 2; i++) {
      const confirmation = await sepehr.confirm(payment, callback.ref_num, 12_000);
      assert.ok(
        confirmation.result === 'confirmed' &&
          isGenuineConfirmation(
            { ...confirmation, terminal_matches: confirmation.terminal === TERMINAL },
            { id: payment, amount: 12_000 },
            callback.ref_num,
          ),
        i === 0 ? 'Ok' : 'Duplicate',
      );
    }
    for (let i = 0; i < 2; i++)
      assert.deepEqual(await sepehr.reverse(payment, callback.ref_num), { ref_num: callback.ref_num, result_code: 0 });
    const operations = ledger.operations(sepehrOrderId(payment));
    assert.deepEqual(
      operations.map((op) => [op.kind, op.operation_key]),
      [
        ['token', `token:${payment}`],
        ['confirm', `confirm:${payment}`],
        ['reverse', `reverse:${payment}`],
      ],
    );
  });

  it('the page\'s "delay in verification": Sepehr has no in-progress answer, so the Advice is unavailable until the delay is over', async () => {
    const sepehr = client();
    const payment = 'a1b2c3d4-0000-4000-8000-000000000002';
    const token = await sepehr.requestToken(payment, 1_000, 'http://callback.test/return');
    const callback = sepehrCallback(await choose(token.url, token.fields, 'delay'), payment)!;
    assert.equal(callback.state, 'OK');
    await assert.rejects(sepehr.confirm(payment, callback.ref_num, 1_000), BankUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await sepehr.confirm(payment, callback.ref_num, 1_000)).result, 'confirmed');
  });

  it('the fault switches: down, timeout and error are BankUnavailableError; unknown a refusal; other_amount an Advice the workflow does not take', async () => {
    const sepehr = client(800);
    const payment = 'a1b2c3d4-0000-4000-8000-000000000003';
    for (const fault of ['down', 'timeout', 'error']) {
      await setFault('token', fault);
      await assert.rejects(
        sepehr.requestToken(payment, 1_000, 'http://callback.test/return'),
        BankUnavailableError,
        `token ${fault}`,
      );
    }
    const token = await sepehr.requestToken(payment, 1_000, 'http://callback.test/return');
    const callback = sepehrCallback(await choose(token.url, token.fields, 'success'), payment)!;
    for (const fault of ['down', 'error', 'in_progress']) {
      await setFault('confirm', fault);
      await assert.rejects(sepehr.confirm(payment, callback.ref_num, 1_000), BankUnavailableError, `Advice ${fault}`);
    }
    await setFault('confirm', 'unknown');
    assert.deepEqual(await sepehr.confirm(payment, callback.ref_num, 1_000), {
      result: 'refused',
      code: -1,
      description: 'تراکنش پیدا نشد',
    });
    // A timeout: Sepehr advises, its answer never arrives; the retry answers Duplicate.
    await setFault('confirm', 'timeout');
    await assert.rejects(sepehr.confirm(payment, callback.ref_num, 1_000), BankUnavailableError, 'Advice timeout');
    await setFault('confirm', 'other_amount');
    const other = await sepehr.confirm(payment, callback.ref_num, 1_000);
    assert.ok(
      other.result === 'confirmed' &&
        !isGenuineConfirmation({ ...other, terminal_matches: true }, { id: payment, amount: 1_000 }, callback.ref_num),
    );
    assert.equal(
      ledger.operations(sepehrOrderId(payment)).filter((op) => op.kind === 'confirm').length,
      1,
      'advised once',
    );
    for (const fault of ['down', 'error']) {
      await setFault('reverse', fault);
      await assert.rejects(sepehr.reverse(payment, callback.ref_num), BankUnavailableError, `Rollback ${fault}`);
    }
    await setFault('reverse', 'unknown');
    await assert.rejects(
      sepehr.reverse(payment, callback.ref_num),
      (e: unknown) => e instanceof BankRefusalError && e.code === -1,
    );
    await setFault('reverse', 'timeout');
    await assert.rejects(sepehr.reverse(payment, callback.ref_num), BankUnavailableError, 'Rollback timeout');
    assert.deepEqual(
      await sepehr.reverse(payment, callback.ref_num),
      { ref_num: callback.ref_num, result_code: 0 },
      'rolled back before',
    );
    assert.equal(
      ledger.operations(sepehrOrderId(payment)).filter((op) => op.kind === 'reverse').length,
      1,
      'rolled back once',
    );
  });
});

describe("the Sepehr simulator's own clock", function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'sepehr-clock-'));
  let server: Server;
  let base = '';
  const { choose } = bankAt(() => base);

  before(async () => {
    // A second in place of Sepehr's 30 minutes to give back what nobody advised, and of the 50 minutes of Rollback.
    ({ server, base } = await listeningSimulator(dir, 1, 0, 1));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a payment nobody advised is given back: its Advice answers NOK -4; a Rollback past the window answers NOK -4', async () => {
    const sepehr = new SepehrClient({ baseUrl: base, terminalId: TERMINAL, timeoutMs: 5_000 });
    const unadvised = 'a1b2c3d4-0000-4000-8000-000000000004';
    const first = await sepehr.requestToken(unadvised, 1_000, 'http://callback.test/return');
    const given = sepehrCallback(await choose(first.url, first.fields, 'success'), unadvised)!;
    const advised = 'a1b2c3d4-0000-4000-8000-000000000005';
    const second = await sepehr.requestToken(advised, 1_000, 'http://callback.test/return');
    const kept = sepehrCallback(await choose(second.url, second.fields, 'success'), advised)!;
    assert.equal((await sepehr.confirm(advised, kept.ref_num, 1_000)).result, 'confirmed');
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.deepEqual(await sepehr.confirm(unadvised, given.ref_num, 1_000), {
      result: 'refused',
      code: -4,
      description: 'امکان انجام درخواست برای این تراکنش وجود ندارد',
    });
    await assert.rejects(
      sepehr.reverse(advised, kept.ref_num),
      (e: unknown) => e instanceof BankRefusalError && e.code === -4,
    );
  });
});
