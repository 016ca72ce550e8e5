/**
 * SEP end to end from its conformance corpus (test/fixtures/psps/sep/, docs/psps/sep.md), against
 * the real stack (MySQL, the Temporal dev server, the API and a payment worker of this test's own
 * task queue) with no simulator: a loopback PSP answers the gateway's SEP client with the corpus's
 * answers as their files show them (the token, the verify, the reversal), and the customer's return
 * is posted as the corpus's files show it. Only what binds a message to this payment is the
 * payment's: the return's ResNum is the payment's id, and the verify's and reversal's answers name
 * the RefNum they were asked for (SEP's answer names the transaction it found).
 *
 * - a return with a Base64-like RefNum, and a verify answer without ResNum: `paid`, with SEP's RefNum,
 *   RRN and masked card; then the merchant's verify: `verified`, with no call SEP does not have;
 * - a RefNum another payment recorded, posted to this payment's return: nothing paid;
 * - the guide's return by query (Token and RefNum): `paid` the same way;
 * - a cancel (State CanceledByUser, no RefNum): nothing asked of SEP, the payment canceled by the customer;
 * - a paid payment nobody verifies: reversed at its deadline by ReverseTransaction, once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { createPaymentWorker } from '../../../src/main/payment-worker.ts';
import { returnSignature } from '../../../src/payments/return-signature.ts';
import type { Payment } from '../../../src/domain/payment-schemas.ts';
import { CorpusPsp, type RecordedRequest } from '../../support/corpus-psp.ts';
import { apiWith, getHarness, newMerchant, testConfig } from '../../support/harness.ts';
import { client, waitFor } from '../../support/http.ts';
import { bankPageOf, createdPayment, returnsAnswered, waitForStatus } from '../../support/payments.ts';
import { corpusFields, corpusMessage } from '../../support/psp-corpus.ts';

const returnOk = corpusFields(corpusMessage('sep', 'return-ok'));
const TERMINAL = returnOk.TerminalId!;
const AMOUNT = Number(returnOk.Amount);
const VERIFY = corpusMessage('sep', 'verify-request').http.path;
const REVERSE = corpusMessage('sep', 'reverse-request').http.path;

/** The corpus answer `name`, naming the RefNum it was asked for (SEP's answer is of the transaction it found). */
function answerFor(name: string, request: RecordedRequest): { json: unknown } {
  const shown = corpusMessage('sep', name).message as { TransactionDetail: Record<string, unknown> };
  const refNum = (request.body as Record<string, unknown>).RefNum;
  return { json: { ...shown, TransactionDetail: { ...shown.TransactionDetail, RefNum: refNum } } };
}

/** Another RefNum of SEP's shape for each payment after the first: the corpus's, its tail replaced. */
const refNumOf = (n: number) =>
  n === 0 ? returnOk.RefNum! : `${returnOk.RefNum!.slice(0, 44)}${String(n).padStart(6, 'A')}`;

describe('SEP end to end from its conformance corpus: real MySQL and Temporal, the PSP answering from the corpus', function () {
  this.timeout(180_000);
  const psp = new CorpusPsp();
  const queue = `sep-corpus-${randomUUID()}`;
  let worker: Worker;
  let running: Promise<void>;
  let api: string;
  let shortApi: string;
  let key: string;
  let payments = 0;

  before(async () => {
    const h = await getHarness();
    await psp.start();
    psp.answers.set(corpusMessage('sep', 'token-request').http.path, () => ({
      json: corpusMessage('sep', 'token-answer-ok').message,
    }));
    psp.answers.set(VERIFY, (request) => answerFor('verify-answer-ok', request));
    psp.answers.set(REVERSE, (request) => answerFor('reverse-answer-ok', request));
    const own = {
      SANDBOX_SEP_URL: psp.url,
      SANDBOX_SEP_PAGE_URL: psp.url,
      SANDBOX_SEP_TERMINAL_ID: TERMINAL,
      SANDBOX_SEP_PASSWORD: '',
      TEMPORAL_TASK_QUEUE: queue,
    };
    worker = await createPaymentWorker({
      config: testConfig(own),
      db: h.db,
      temporal: h.temporal.client,
      logger: h.logger,
      bundle: h.bundle,
    });
    running = worker.run();
    api = await apiWith(own);
    shortApi = await apiWith({ ...own, VERIFY_WINDOW_SECONDS: '3' });
    ({ key } = await newMerchant());
  });

  after(async () => {
    worker?.shutdown();
    await running;
    await psp.stop();
  });

  /** A payment of the corpus's amount, its customer sent to SEP's page (the token asked of the corpus PSP). */
  async function atSepPage(base: string): Promise<Payment> {
    const p = await createdPayment(base, key, { amount: AMOUNT });
    assert.equal(p.charged_amount, AMOUNT, "the corpus's amount is what the bank charges");
    await bankPageOf(base, p.id);
    return p;
  }

  /** Posts the corpus return `fields` to the payment's signed return address, as SEP's page does (the form), or by a GET with a query (the guide). */
  async function sepReturns(
    base: string,
    p: Payment,
    fields: Record<string, string>,
    way: 'form' | 'query',
  ): Promise<Response> {
    const query = way === 'query' ? `?${new URLSearchParams(fields).toString()}` : '';
    // To the session's signed return address, the RedirectUrl the token request gave SEP (an unsigned return
    // that is not paid ends nothing: docs/BANK.md).
    const signed = `${base}/pay/${p.id}/return/${returnSignature(testConfig(), p.id)}`;
    return fetch(`${signed}${query}`, {
      method: way === 'form' ? 'POST' : 'GET',
      redirect: 'manual',
      ...(way === 'form'
        ? {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(fields).toString(),
          }
        : {}),
    });
  }

  const calls = (path: string, refNum: string) =>
    psp.to(path).filter((r) => (r.body as Record<string, unknown>).RefNum === refNum);

  it("a return as the corpus's form (Base64 RefNum, no Token) and the corpus's verify answer (no ResNum): paid, with SEP's references", async () => {
    const p = await atSepPage(api);
    const refNum = refNumOf(payments++);
    const back = await sepReturns(api, p, { ...returnOk, ResNum: p.id, RefNum: refNum }, 'form');
    assert.equal(back.status, 303);
    assert.equal(back.headers.get('location'), `/pay/${p.id}/result`);
    const paid = await waitForStatus(api, key, p.id, 'paid', 30_000);
    const detail = (corpusMessage('sep', 'verify-answer-ok').message as { TransactionDetail: Record<string, string> })
      .TransactionDetail;
    assert.equal(paid.reference_id, refNum, "SEP's RefNum, as the return carried it");
    assert.equal(paid.rrn, detail.RRN);
    assert.equal(paid.card_pan, detail.MaskedPan);
    assert.equal(calls(VERIFY, refNum).length, 1, 'one VerifyTransaction');
    assert.deepEqual(
      calls(VERIFY, refNum)[0]!.body,
      { RefNum: refNum, TerminalNumber: Number(TERMINAL) },
      "the corpus's verify request",
    );
  });

  it("a RefNum another payment recorded pays nothing more: SEP's verify names no payment, so the same receipt posted to another payment's return is refused", async () => {
    const first = await atSepPage(api);
    const refNum = refNumOf(payments++);
    await sepReturns(api, first, { ...returnOk, ResNum: first.id, RefNum: refNum }, 'form');
    await waitForStatus(api, key, first.id, 'paid', 30_000);
    const second = await atSepPage(api);
    assert.equal(
      (await sepReturns(api, second, { ...returnOk, ResNum: second.id, RefNum: refNum }, 'form')).status,
      303,
    );
    const h = await getHarness();
    await waitFor(
      `the workflow to answer the return of ${second.id}`,
      async () => ((await returnsAnswered(h.temporal.client, second.id)) >= 1 ? true : undefined),
      30_000,
    );
    const after = (await client(api, key).get<{ payment: Payment }>(`/payments/${second.id}`)).body.payment;
    assert.equal(after.status, 'created', "another payment's receipt: nothing paid");
    assert.equal(calls(REVERSE, refNum).length, 0, "nothing reversed: it is the first payment's money");
  });

  it("the merchant's verify of a SEP payment: verified, with no call SEP does not have (its verify at the return captured)", async () => {
    const p = await atSepPage(api);
    const refNum = refNumOf(payments++);
    await sepReturns(api, p, { ...returnOk, ResNum: p.id, RefNum: refNum }, 'form');
    await waitForStatus(api, key, p.id, 'paid', 30_000);
    const verified = await client(api, key).post<{ payment: Payment }>(`/payments/${p.id}/verify`, {
      amount: p.amount,
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.payment.status, 'verified');
    const paths = new Set(psp.requests.map((r) => r.path));
    for (const absent of ['SettleTransaction', 'InquiryTransaction', 'RefundTransaction', 'TransactionReport'])
      assert.ok(![...paths].some((path) => path.endsWith(absent)), `no ${absent}`);
    assert.equal(calls(REVERSE, refNum).length, 0, 'nothing reversed');
  });

  it("a return by the guide's query (Token and RefNum only), by a GET: paid the same way", async () => {
    const p = await atSepPage(api);
    const refNum = refNumOf(payments++);
    const query = corpusFields(corpusMessage('sep', 'return-query'));
    const back = await sepReturns(api, p, { ...query, RefNum: refNum }, 'query');
    assert.equal(back.status, 303);
    const paid = await waitForStatus(api, key, p.id, 'paid', 30_000);
    assert.equal(paid.reference_id, refNum, "the RefNum's '+' and '/' survived the query");
    assert.equal(calls(VERIFY, refNum).length, 1);
  });

  it("a cancel as the corpus's (State CanceledByUser, no RefNum, no Token): SEP is asked nothing, and the payment is canceled by the customer", async () => {
    const p = await atSepPage(api);
    const before = psp.requests.length;
    const cancel = corpusFields(corpusMessage('sep', 'return-canceled'));
    const back = await sepReturns(api, p, { ...cancel, ResNum: p.id }, 'form');
    assert.equal(back.status, 303);
    const h = await getHarness();
    await waitFor(
      `the workflow to answer the cancel of ${p.id}`,
      async () => ((await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined),
      30_000,
    );
    assert.deepEqual(
      psp.requests.slice(before),
      [],
      'no verify, no inquiry, no reversal: SEP has no inquiry, and a cancel has no RefNum to verify',
    );
    const after = await waitForStatus(api, key, p.id, 'canceled', 30_000);
    assert.equal(after.failure?.code, 'canceled_by_customer');
    assert.equal(after.reference_id, null, 'nothing paid');
  });

  it('a paid payment nobody verifies: reversed at its deadline by ReverseTransaction, once', async () => {
    const p = await atSepPage(shortApi);
    const refNum = refNumOf(payments++);
    await sepReturns(shortApi, p, { ...returnOk, ResNum: p.id, RefNum: refNum }, 'form');
    await waitForStatus(shortApi, key, p.id, 'paid', 30_000);
    const reversed = await waitForStatus(shortApi, key, p.id, 'reversed', 60_000);
    assert.equal(reversed.refunded_amount, p.amount);
    // A moment more: a second reversal would have come by now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal(calls(REVERSE, refNum).length, 1, 'one ReverseTransaction');
    assert.deepEqual(
      calls(REVERSE, refNum)[0]!.body,
      { RefNum: refNum, TerminalNumber: Number(TERMINAL) },
      "the corpus's reverse request",
    );
  });
});
