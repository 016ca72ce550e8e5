/**
 * IranKish end to end from its conformance corpus (test/fixtures/psps/irankish/, docs/psps/irankish.md),
 * against the real stack (MySQL, the Temporal dev server, the API and a payment worker of this test's
 * own task queue) with no simulator: a loopback PSP (test/support/corpus-psp.ts) answers the gateway's
 * IranKish client with the corpus's answers as their files show them (the token, the confirmation, the
 * reversal), and the customer's return is posted as the corpus's files show it, to the revertUri the
 * token request named. Only what binds a message to this payment is the payment's: the token each
 * payment is given (the corpus's, its tail numbered), the return's requestId (the payment's order id,
 * as IranKish echoes the one it was given) and its RRN, and the confirmation's requestId.
 *
 * - the Pay button posts the form of page-redirect.json; a return as return-paid.json and the
 *   confirmation as verify-answer-ok.json: `paid`, the reference IranKish's RRN, STAN and token; the
 *   confirmation asked as verify-request.json; the merchant's verify: `verified`, nothing more asked;
 * - a cancel as return-canceled.json: IranKish is asked nothing, the payment canceled by the customer;
 * - a paid payment nobody verifies: reversed at its deadline by reversePurchase as reverse-request.json, once.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { irankishOrderId, irankishReference } from '../../../src/psps/irankish/mapping.ts';
import { replaceMerchantRoute } from '../../../src/db/psp-routes.ts';
import type { Payment } from '../../../src/domain/payment-schemas.ts';
import { createPaymentWorker } from '../../../src/main/payment-worker.ts';
import { CorpusPsp, type RecordedRequest } from '../../support/corpus-psp.ts';
import { apiWith, getHarness, newMerchant, testConfig } from '../../support/harness.ts';
import { client, waitFor } from '../../support/http.ts';
import { bankRedirectForm, createdPayment, pressPay, returnsAnswered, waitForStatus } from '../../support/payments.ts';
import { corpusAnswer, corpusFields, corpusRequest, irankishCorpusMessage } from './corpus.ts';

const tokenRequest = corpusRequest('token-request');
const request = tokenRequest.json.request as Record<string, string | number | null>;
const TERMINAL = String(request.terminalId);
const AMOUNT = Number(request.amount);
const TOKEN_PATH = irankishCorpusMessage('token-request').http.path;
const CONFIRM_PATH = irankishCorpusMessage('verify-request').http.path;
const REVERSE_PATH = irankishCorpusMessage('reverse-request').http.path;
const paidReturn = corpusFields('return-paid');
const okAnswer = corpusAnswer('verify-answer-ok').json;
const okResult = okAnswer.result as Record<string, unknown>;

describe('IranKish end to end from its conformance corpus: real MySQL and Temporal, the PSP answering from the corpus', function () {
  this.timeout(180_000);
  const psp = new CorpusPsp();
  const queue = `irankish-corpus-${randomUUID()}`;
  let worker: Worker;
  let running: Promise<void>;
  let api: string;
  let shortApi: string;
  let key: string;
  let tokens = 0;
  /** The token the corpus PSP gave each order id (requestId), and the order id of each token. */
  const tokenOf = new Map<string, string>();
  const orderOf = new Map<string, string>();

  before(async () => {
    const h = await getHarness();
    await psp.start();
    // The token answer of the corpus, its token numbered for each payment (IranKish gives each its own).
    psp.answers.set(TOKEN_PATH, (req) => {
      const requestId = String((req.body as { request: { requestId: string } }).request.requestId);
      const answer = corpusAnswer('token-answer-ok').json;
      const shown = String((answer.result as { token: string }).token);
      const token = `${shown.slice(0, -4)}${String(tokens++).padStart(4, '0')}`;
      tokenOf.set(requestId, token);
      orderOf.set(token, requestId);
      return { json: { ...answer, result: { ...(answer.result as object), token } } };
    });
    // The confirmation and the reversal of the corpus, naming the transaction they were asked about.
    const answerOf = (name: string) => (req: RecordedRequest) => {
      const body = req.body as Record<string, string>;
      const shown = corpusAnswer(name).json;
      return {
        json: {
          ...shown,
          result: {
            ...(shown.result as object),
            retrievalReferenceNumber: body.retrievalReferenceNumber,
            systemTraceAuditNumber: body.systemTraceAuditNumber,
            tokenIdentity: body.tokenIdentity,
            requestId: orderOf.get(body.tokenIdentity!) ?? okResult.requestId,
          },
        },
      };
    };
    psp.answers.set(CONFIRM_PATH, answerOf('verify-answer-ok'));
    psp.answers.set(REVERSE_PATH, answerOf('reverse-answer-ok'));
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const own = {
      SANDBOX_IRANKISH_URL: psp.url,
      SANDBOX_IRANKISH_PAGE_URL: psp.url,
      SANDBOX_IRANKISH_TERMINAL_ID: TERMINAL,
      SANDBOX_IRANKISH_ACCEPTOR_ID: String(request.acceptorId),
      SANDBOX_IRANKISH_PASSWORD: tokenRequest.envelope!.password,
      SANDBOX_IRANKISH_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
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
    const merchant = await newMerchant();
    key = merchant.key;
    await replaceMerchantRoute(
      h.db,
      merchant.merchantId,
      'test',
      [
        {
          position: 0,
          priority: 0,
          psp: 'irankish',
          terminal_id: TERMINAL,
          weight: 1,
          min_amount: null,
          max_amount: null,
        },
      ],
      new Date(),
    );
  });

  after(async () => {
    worker?.shutdown();
    await running;
    await psp.stop();
  });

  /** A payment of the corpus's amount, its customer at IranKish's page: the form our page posts there, and the revertUri the token request named. */
  async function atIrankishPage(base: string): Promise<{ p: Payment; revertUri: string; token: string }> {
    const p = await createdPayment(base, key, { amount: AMOUNT });
    assert.equal(p.charged_amount, AMOUNT, "the corpus's amount is what the bank charges");
    const pay = await pressPay(base, p.id);
    assert.equal(pay.status, 200);
    const form = bankRedirectForm(await pay.text());
    const redirect = irankishCorpusMessage('page-redirect');
    assert.ok(form !== undefined, 'our page posts a form to the bank');
    assert.equal(new URL(form.url).pathname, redirect.http.path);
    const token = tokenOf.get(irankishOrderId(p.id))!;
    assert.deepEqual(form.fields, { ...corpusFields('page-redirect'), tokenIdentity: token });
    const sent = psp
      .to(TOKEN_PATH)
      .map((r) => (r.body as { request: Record<string, unknown> }).request)
      .find((r) => r.requestId === irankishOrderId(p.id))!;
    return { p, revertUri: String(sent.revertUri), token };
  }

  /** Posts `fields` to the revertUri, as IranKish's page does (a form). */
  const irankishReturns = (revertUri: string, fields: Record<string, string>) =>
    fetch(revertUri, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: psp.url },
      body: new URLSearchParams(fields).toString(),
    });

  /** The corpus's paid return of payment `p`: its order id, the token it was given, its own RRN. */
  const paidReturnOf = (p: Payment, token: string, n: number) => ({
    ...paidReturn,
    requestId: irankishOrderId(p.id),
    token,
    retrievalReferenceNumber: `${paidReturn.retrievalReferenceNumber!.slice(0, 10)}${String(n).padStart(2, '0')}`,
  });
  const callsFor = (path: string, token: string) =>
    psp.to(path).filter((r) => (r.body as Record<string, unknown>).tokenIdentity === token);

  it("the page's form as page-redirect.json, a return as return-paid.json, the confirmation as verify-answer-ok.json: paid; the merchant's verify: verified, nothing more asked", async () => {
    const { p, revertUri, token } = await atIrankishPage(api);
    const fields = paidReturnOf(p, token, 1);
    const back = await irankishReturns(revertUri, fields);
    assert.equal(back.status, 303);
    const paid = await waitForStatus(api, key, p.id, 'paid', 30_000);
    const reference = irankishReference({
      rrn: fields.retrievalReferenceNumber,
      stan: paidReturn.systemTraceAuditNumber!,
      token,
    });
    assert.equal(paid.reference_id, reference, "IranKish's RRN, STAN and token");
    assert.deepEqual(paid.psp, { name: 'irankish', terminal_id: TERMINAL });
    assert.deepEqual(
      [paid.rrn, paid.card_pan],
      [null, null],
      "the confirmation names no card; the return's are not taken",
    );
    const confirms = callsFor(CONFIRM_PATH, token);
    assert.equal(confirms.length, 1, 'one confirmation');
    assert.deepEqual(Object.keys(confirms[0]!.body as object), corpusRequest('verify-request').order);
    assert.deepEqual(confirms[0]!.body, {
      ...corpusRequest('verify-request').json,
      retrievalReferenceNumber: fields.retrievalReferenceNumber,
      tokenIdentity: token,
    });
    const verified = await client(api, key).post<{ payment: Payment }>(`/payments/${p.id}/verify`, {
      amount: p.amount,
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.payment.status, 'verified');
    assert.equal(callsFor(REVERSE_PATH, token).length, 0, 'nothing reversed');
    assert.deepEqual(
      [...new Set(psp.requests.map((r) => r.path))].sort(),
      [CONFIRM_PATH, TOKEN_PATH].sort(),
      'no call IranKish does not have',
    );
  });

  it('a cancel as return-canceled.json: IranKish is asked nothing, and the payment is canceled by the customer', async () => {
    const { p, revertUri, token } = await atIrankishPage(api);
    const before = psp.requests.length;
    const back = await irankishReturns(revertUri, {
      ...corpusFields('return-canceled'),
      requestId: irankishOrderId(p.id),
      token,
    });
    assert.equal(back.status, 303);
    const h = await getHarness();
    await waitFor(
      `the workflow to answer the cancel of ${p.id}`,
      async () => ((await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined),
      30_000,
    );
    assert.deepEqual(psp.requests.slice(before), [], 'no confirmation, no reversal: a cancel names nothing to confirm');
    const after = await waitForStatus(api, key, p.id, 'canceled', 30_000);
    assert.equal(after.failure?.code, 'canceled_by_customer');
    assert.equal(after.reference_id, null, 'nothing paid');
  });

  it('a paid payment nobody verifies: reversed at its deadline by reversePurchase as reverse-request.json, once', async () => {
    const { p, revertUri, token } = await atIrankishPage(shortApi);
    const fields = paidReturnOf(p, token, 2);
    await irankishReturns(revertUri, fields);
    await waitForStatus(shortApi, key, p.id, 'paid', 30_000);
    const reversed = await waitForStatus(shortApi, key, p.id, 'reversed', 60_000);
    assert.equal(reversed.refunded_amount, p.amount);
    // A moment more: a second reversal would have come by now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const reversals = callsFor(REVERSE_PATH, token);
    assert.equal(reversals.length, 1, 'one reversePurchase');
    assert.deepEqual(reversals[0]!.body, {
      ...corpusRequest('reverse-request').json,
      retrievalReferenceNumber: fields.retrievalReferenceNumber,
      tokenIdentity: token,
    });
  });
});
