/**
 * The Asan Pardakht simulator (src/psps/asanpardakht/simulator.ts) held against the conformance corpus, in
 * process on a free loopback port: it takes the corpus's requests as they are and answers each with
 * the corpus answer's shape (its status for the same situation; the token a JSON string, TranResult
 * the corpus's fields, the verify family no body); its page's return posts nothing, the callback
 * URL's query being the return. Then a lifecycle with our client: token → the page's choice →
 * the return read by the mapping → confirm → settle, and confirm → reverse (Cancel, the transaction
 * being verified); a second confirm is "before"; each operation done once in the simulator's ledger;
 * the fault switches turn into BankUnavailableError and BankRefusalError.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsanpardakhtClient } from '../../../../src/psps/asanpardakht/client.ts';
import { asanpardakhtCallback, asanpardakhtOrderId } from '../../../../src/psps/asanpardakht/mapping.ts';
import { ASANPARDAKHT_PAGE } from '../../../../src/psps/asanpardakht/simulator.ts';
import { createSimulator } from '../../../../src/bank-sim/server.ts';
import { BankRefusalError, BankUnavailableError } from '../../../../src/psps/psp-client.ts';
import { asanpardakhtCorpusMessage, type JsonAnswerMessage, type JsonRequestMessage } from '../corpus.ts';

const ADMIN = 'shape-test-admin';
const TERMINAL = '1234';
const request = (name: string) => asanpardakhtCorpusMessage(name).message as JsonRequestMessage;
const corpusAnswer = (name: string) => asanpardakhtCorpusMessage(name).message as JsonAnswerMessage;

describe('the Asan Pardakht simulator against the corpus', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'asanpardakht-shape-'));
  let server: Server;
  let base = '';
  let invoice = 200_000_000_000;

  before(async () => {
    ({ server } = createSimulator({
      protocol: 'asanpardakht',
      stateFile: join(dir, 'ledger.jsonl'),
      terminalId: TERMINAL,
      userName: request('token-request').headers.usr!,
      password: request('token-request').headers.pwd!,
      redirectOrigins: ['http://callback.test'],
      delaySeconds: 0,
      adminToken: ADMIN,
      autoReverseSeconds: 0,
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends the corpus request `name` with `values` in its body (or query) in place of its own; the status and the body read as JSON (undefined: none). */
  async function send(name: string, values: Record<string, unknown> = {}): Promise<{ status: number; body: unknown }> {
    const corpus = asanpardakhtCorpusMessage(name);
    const message = corpus.message as JsonRequestMessage;
    const headers = { ...message.headers, 'content-type': 'application/json' };
    let res: Response;
    if (message.query !== undefined) {
      const query = new URLSearchParams({ ...message.query, ...(values as Record<string, string>) });
      res = await fetch(`${base}${corpus.http.path}?${query.toString()}`, { headers: message.headers });
    } else {
      res = await fetch(`${base}${corpus.http.path}`, {
        method: corpus.http.method,
        headers,
        body: JSON.stringify({ ...message.body, ...values }),
      });
    }
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  /** The answer has the corpus answer's status and the shape of its body: none, a string, or an object with its keys. */
  function assertLike(answer: { status: number; body: unknown }, name: string) {
    const corpus = corpusAnswer(name);
    assert.equal(answer.status, corpus.status, name);
    if (corpus.body === null) return assert.equal(answer.body, undefined, `${name}: no body`);
    assert.equal(typeof answer.body, typeof corpus.body, `${name}: the body's type`);
    if (typeof corpus.body === 'object')
      assert.deepEqual(
        Object.keys(answer.body as object).sort(),
        Object.keys(corpus.body).sort(),
        `${name}: the body's fields`,
      );
  }

  /** A token for a new invoice id, the customer's choice on the page, and the page's return (its form's action and fields). */
  async function paid(
    outcome = 'success',
  ): Promise<{ id: string; refId: string; returnUrl: URL; posted: Record<string, string> }> {
    invoice += 1;
    const id = String(invoice);
    const token = await send('token-request', {
      merchantConfigurationId: Number(TERMINAL),
      localInvoiceId: invoice,
      callbackURL: `http://callback.test/return?localInvoiceId=${id}`,
    });
    assertLike(token, 'token-answer-ok');
    const refId = token.body as string;
    const page = await fetch(`${base}${ASANPARDAKHT_PAGE.pagePath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ RefId: refId }).toString(),
    });
    assert.equal(page.status, 200);
    const html = await (
      await fetch(`${base}${ASANPARDAKHT_PAGE.choicePath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ RefId: refId, outcome }).toString(),
      })
    ).text();
    const action = /<form method="post" action="([^"]+)">/
      .exec(html)![1]!
      .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
    const posted = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([A-Za-z]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    );
    return { id, refId, returnUrl: new URL(action), posted };
  }

  const payGateTranIdOf = async (id: string) =>
    (
      (await send('tranresult-request', { merchantConfigurationId: TERMINAL, localInvoiceId: id })).body as {
        payGateTranID: number;
      }
    ).payGateTranID;

  it("answers the token with a JSON string, an invoice id used before with 489; the page's return posts nothing, its query carries the invoice id", async () => {
    const { id, returnUrl, posted } = await paid();
    assert.deepEqual(posted, {});
    assert.equal(returnUrl.origin, 'http://callback.test');
    assert.equal(returnUrl.searchParams.get('localInvoiceId'), id);
    assertLike(
      await send('token-request', {
        merchantConfigurationId: Number(TERMINAL),
        localInvoiceId: Number(id),
        callbackURL: 'http://callback.test/return',
      }),
      'token-answer-refused',
    );
  });

  it("answers TranResult of a paid invoice with the corpus's fields, of a canceled or failed one with 472", async () => {
    const { id } = await paid();
    assertLike(
      await send('tranresult-request', { merchantConfigurationId: TERMINAL, localInvoiceId: id }),
      'tranresult-answer-paid',
    );
    for (const outcome of ['cancel', 'failure']) {
      const other = await paid(outcome);
      assertLike(
        await send('tranresult-request', { merchantConfigurationId: TERMINAL, localInvoiceId: other.id }),
        'tranresult-answer-not-found',
      );
    }
  });

  it('answers Verify 200 then 472, Settlement 200 then 474, Reverse of a verified transaction 472, Cancel of a settled one 805', async () => {
    const { id } = await paid();
    const byTxn = { merchantConfigurationId: Number(TERMINAL), payGateTranId: await payGateTranIdOf(id) };
    assertLike(await send('settle-request', byTxn), 'settle-answer-not-verified');
    assertLike(await send('verify-request', byTxn), 'verify-answer-ok');
    assertLike(await send('verify-request', byTxn), 'verify-answer-verified-before');
    assertLike(await send('reverse-request', byTxn), 'reverse-answer-verified');
    assertLike(await send('settle-request', byTxn), 'settle-answer-ok');
    assertLike(await send('settle-request', byTxn), 'settle-answer-settled-before');
    assertLike(await send('cancel-request', byTxn), 'cancel-answer-settled');
    assertLike(await send('verify-request', { ...byTxn, payGateTranId: 1 }), 'verify-answer-refused');
  });

  it('answers Reverse of an unverified transaction 200 then 473; Cancel of a verified one 200 then 813', async () => {
    const unverified = await paid();
    const first = { merchantConfigurationId: Number(TERMINAL), payGateTranId: await payGateTranIdOf(unverified.id) };
    assertLike(await send('reverse-request', first), 'reverse-answer-ok');
    assertLike(await send('reverse-request', first), 'reverse-answer-reversed-before');
    const verified = await paid();
    const second = { merchantConfigurationId: Number(TERMINAL), payGateTranId: await payGateTranIdOf(verified.id) };
    assertLike(await send('verify-request', second), 'verify-answer-ok');
    assertLike(await send('cancel-request', second), 'cancel-answer-ok');
    assertLike(await send('cancel-request', second), 'cancel-answer-canceled-before');
  });

  describe('a lifecycle with our client', () => {
    const paymentId = 'pay_01HZXSIMASANPARDAKHT00001';
    const client = () =>
      new AsanpardakhtClient({
        baseUrl: base,
        terminalId: TERMINAL,
        userName: 'username',
        password: 'password',
        timeoutMs: 1_500,
      });
    const fault = async (operation: string, kind: string, times = 1) => {
      const res = await fetch(`${base}/admin/faults`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ operation, fault: kind, times }),
      });
      assert.equal(res.status, 200);
    };
    const ledgerOf = async (resNum: string) =>
      (await (
        await fetch(`${base}/admin/transactions?res_num=${resNum}`, { headers: { authorization: `Bearer ${ADMIN}` } })
      ).json()) as { operations: { kind: string }[] };
    /** Token → page → choice → the return, read by the mapping. */
    async function payThroughPage(id: string, outcome = 'success') {
      const token = await client().requestToken(id, 5_000, 'http://callback.test/pay/x/return');
      assert.equal(token.method, 'POST');
      assert.equal(new URL(token.url).pathname, ASANPARDAKHT_PAGE.pagePath);
      const html = await (
        await fetch(`${base}${ASANPARDAKHT_PAGE.choicePath}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...token.fields, outcome }).toString(),
        })
      ).text();
      const action = new URL(
        /<form method="post" action="([^"]+)">/
          .exec(html)![1]!
          .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))),
      );
      const callback = asanpardakhtCallback(Object.fromEntries(action.searchParams), id);
      assert.ok(callback !== undefined);
      return callback;
    }

    it('token → page → return → confirm (twice: "before") → settle; each operation once in the ledger', async () => {
      const callback = await payThroughPage(paymentId);
      assert.deepEqual(callback, {
        state: 'OK',
        ref_num: asanpardakhtOrderId(paymentId),
        res_num: paymentId,
        token: '',
      });
      const confirmation = await client().confirm(paymentId, callback.ref_num, 5_000);
      assert.equal(confirmation.result, 'confirmed');
      assert.ok(
        confirmation.result === 'confirmed' &&
          confirmation.amount === 5_000 &&
          confirmation.res_num === paymentId &&
          confirmation.ref_num === callback.ref_num,
      );
      assert.ok(
        confirmation.result === 'confirmed' &&
          /^[0-9]{12}$/.test(confirmation.rrn ?? '') &&
          /^[0-9]{6}\*+[0-9]{4}$/.test(confirmation.card_pan ?? ''),
      );
      assert.equal((await client().confirm(paymentId, callback.ref_num, 5_000)).result, 'confirmed');
      assert.deepEqual(await client().settle(paymentId, callback.ref_num), {
        ref_num: callback.ref_num,
        result_code: 200,
      });
      assert.deepEqual(await client().settle(paymentId, callback.ref_num), {
        ref_num: callback.ref_num,
        result_code: 474,
      });
      const kinds = (await ledgerOf(callback.ref_num)).operations.map((o) => o.kind);
      assert.deepEqual(kinds, ['token', 'confirm', 'settle']);
      // Settled: the money is the merchant's, a reversal is refused.
      await assert.rejects(client().reverse(paymentId, callback.ref_num), BankRefusalError);
    });

    it('confirm → reverse (Reverse answers 472, Cancel gives the money back) → reverse again is "before"; a canceled payment is refused at confirm', async () => {
      const id = `${paymentId}-reverse`;
      const callback = await payThroughPage(id);
      assert.equal((await client().confirm(id, callback.ref_num, 5_000)).result, 'confirmed');
      assert.deepEqual(await client().reverse(id, callback.ref_num), { ref_num: callback.ref_num, result_code: 200 });
      // The retry's Reverse finds the transaction reversed (473): done before, and no Cancel is asked.
      assert.deepEqual(await client().reverse(id, callback.ref_num), { ref_num: callback.ref_num, result_code: 473 });
      assert.deepEqual(
        (await ledgerOf(callback.ref_num)).operations.map((o) => o.kind),
        ['token', 'confirm', 'reverse'],
      );
      const canceled = await payThroughPage(`${paymentId}-canceled`, 'cancel');
      assert.deepEqual(await client().confirm(`${paymentId}-canceled`, canceled.ref_num, 5_000), {
        result: 'refused',
        code: 472,
        description: 'no records found',
        standing: 'canceled',
      });
    });

    it('"delay in verification": Verify answers 571 (in progress) until the delay has passed, then confirms', async () => {
      const id = `${paymentId}-delay`;
      const callback = await payThroughPage(id, 'delay');
      assert.deepEqual(await client().confirm(id, callback.ref_num, 5_000), { result: 'in_progress' });
      assert.equal((await client().confirm(id, callback.ref_num, 5_000)).result, 'confirmed');
    });

    it('the fault switches: down and timeout are unavailable, error unavailable, unknown a refusal, in_progress in progress', async () => {
      const id = `${paymentId}-faults`;
      await fault('token', 'down');
      await assert.rejects(client().requestToken(id, 5_000, 'http://callback.test/pay/x/return'), BankUnavailableError);
      await fault('token', 'error');
      await assert.rejects(client().requestToken(id, 5_000, 'http://callback.test/pay/x/return'), BankUnavailableError);
      const callback = await payThroughPage(id);
      await fault('confirm', 'timeout');
      await assert.rejects(client().confirm(id, callback.ref_num, 5_000), BankUnavailableError);
      // The hanging Verify did its work: the retry is "verified before", confirmed.
      assert.equal((await client().confirm(id, callback.ref_num, 5_000)).result, 'confirmed');
      await fault('confirm', 'in_progress');
      assert.deepEqual(await client().confirm(id, callback.ref_num, 5_000), { result: 'in_progress' });
      await fault('confirm', 'unknown');
      assert.equal((await client().confirm(id, callback.ref_num, 5_000)).result, 'refused');
      await fault('settle', 'down');
      await assert.rejects(client().settle(id, callback.ref_num), BankUnavailableError);
      await fault('settle', 'error');
      await assert.rejects(client().settle(id, callback.ref_num), BankUnavailableError);
      await fault('reverse', 'unknown');
      await assert.rejects(client().reverse(id, callback.ref_num), BankRefusalError);
      await fault('reverse', 'error');
      await assert.rejects(client().reverse(id, callback.ref_num), BankUnavailableError);
      assert.deepEqual(
        (await ledgerOf(callback.ref_num)).operations.map((o) => o.kind),
        ['token', 'confirm'],
      );
    });
  });
});
