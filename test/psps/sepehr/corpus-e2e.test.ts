/**
 * Sepehr end to end from its conformance corpus (test/fixtures/psps/sepehr/, docs/psps/sepehr.md),
 * against the real stack (MySQL, the Temporal dev server, the API and a payment worker of this test's
 * own task queue) with no simulator: a loopback PSP answers the gateway's Sepehr client with the
 * corpus's answers as their files show them (the token, Advice, Rollback), and the customer's return is
 * posted to the callback address the token request carried, with the corpus's fields. Only what binds a
 * message to this payment is the payment's: the return's invoiceid is the payment's order id (Sepehr
 * echoes the invoiceID it was given), its digitalreceipt one of the corpus's shape for each payment,
 * and Advice's ReturnId the corpus's amount, which is the payment's.
 *
 * - the token request as the corpus's, the customer's form to the page as pay-redirect.json's, the
 *   return as return-paid.json's, Advice as verify-request.json's and its Ok: `paid` on Sepehr's receipt,
 *   with no RRN and no card (Advice names neither); the merchant's verify: `verified`, nothing asked;
 * - a cancel as return-canceled.json's: nothing asked of Sepehr, the payment canceled by the customer;
 * - a paid payment nobody verifies: given back at its deadline by one Rollback as the corpus's;
 * - a refund of a verified payment: the whole of it, by Rollback.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { sepehrOrderId } from '../../../src/psps/sepehr/mapping.ts';
import { replaceMerchantRoute } from '../../../src/db/psp-routes.ts';
import type { Payment } from '../../../src/domain/payment-schemas.ts';
import { createPaymentWorker } from '../../../src/main/payment-worker.ts';
import { CorpusPsp, type RecordedRequest } from '../../support/corpus-psp.ts';
import { apiWith, getHarness, newMerchant, testConfig } from '../../support/harness.ts';
import { client, waitFor } from '../../support/http.ts';
import { bankRedirectForm, createdPayment, pressPay, returnsAnswered, waitForStatus } from '../../support/payments.ts';
import { corpusAnswer, corpusFields, corpusRequest, sepehrCorpusMessage } from './corpus.ts';
import { waitForRefund, type RefundBody } from '../../support/refunds.ts';

const tokenRequest = corpusRequest('token-request');
const TERMINAL = String(tokenRequest.json.terminalID);
const AMOUNT = Number(tokenRequest.json.Amount);
const TOKEN = sepehrCorpusMessage('token-request').http.path;
const ADVICE = sepehrCorpusMessage('verify-request').http.path;
const ROLLBACK = sepehrCorpusMessage('reversal-request').http.path;
const returnPaid = corpusFields('return-paid');

/** Another digital receipt of the corpus's shape for each payment: the corpus's, its tail replaced. */
const receiptOf = (n: number) => `${returnPaid.digitalreceipt!.slice(0, 14)}${String(n).padStart(6, '0')}`;

describe('Sepehr end to end from its conformance corpus: real MySQL and Temporal, the PSP answering from the corpus', function () {
  this.timeout(180_000);
  const psp = new CorpusPsp();
  const queue = `sepehr-corpus-${randomUUID()}`;
  let worker: Worker;
  let running: Promise<void>;
  let api: string;
  let shortApi: string;
  let key: string;
  let payments = 0;

  before(async () => {
    const h = await getHarness();
    await psp.start();
    psp.answers.set(TOKEN, () => ({ json: corpusAnswer('token-answer-ok').json }));
    psp.answers.set(ADVICE, () => ({ json: corpusAnswer('verify-answer-ok').json }));
    psp.answers.set(ROLLBACK, () => ({ json: corpusAnswer('reversal-answer-ok').json }));
    const own = {
      SANDBOX_SEPEHR_URL: psp.url,
      SANDBOX_SEPEHR_PAGE_URL: psp.url,
      SANDBOX_SEPEHR_TERMINAL_ID: TERMINAL,
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
          psp: 'sepehr',
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

  const body = (r: RecordedRequest) => r.body as Record<string, unknown>;
  const tokenOf = (p: Payment) => psp.to(TOKEN).find((r) => body(r).invoiceID === sepehrOrderId(p.id));
  const calls = (path: string, receipt: string) => psp.to(path).filter((r) => body(r).digitalreceipt === receipt);

  /**
   * A payment of the corpus's amount, its customer sent to Sepehr's page by our page's form (the token
   * asked of the corpus PSP); the form, and the callback address the token request carried.
   */
  async function atSepehrPage(base: string): Promise<{ p: Payment; callback: URL }> {
    const p = await createdPayment(base, key, { amount: AMOUNT });
    assert.equal(p.charged_amount, AMOUNT, "the corpus's amount is what the bank charges");
    const pay = await pressPay(base, p.id);
    assert.equal(pay.status, 200);
    const form = bankRedirectForm(await pay.text());
    const redirect = sepehrCorpusMessage('pay-redirect');
    assert.ok(form !== undefined, 'a form to the bank');
    assert.equal(form.url, `${psp.url}${redirect.http.path}`);
    assert.deepEqual(
      form.fields,
      corpusFields('pay-redirect'),
      "pay-redirect.json's form: the corpus's token and terminal",
    );
    const asked = tokenOf(p);
    assert.ok(asked !== undefined, 'one GetToken for the payment');
    assert.deepEqual(Object.keys(body(asked)), tokenRequest.order);
    const { callbackURL, ...rest } = body(asked);
    assert.deepEqual(rest, { Amount: AMOUNT, invoiceID: sepehrOrderId(p.id), terminalID: Number(TERMINAL) });
    const callback = new URL(String(callbackURL));
    assert.ok(callback.pathname.startsWith(`/pay/${p.id}/return/`), `our signed return address: ${callback.pathname}`);
    return { p, callback };
  }

  /** Sepehr's page posts `fields` back to the callback address, to `base`'s API. */
  const sepehrReturns = (base: string, callback: URL, fields: Record<string, string>) =>
    fetch(`${base}${callback.pathname}${callback.search}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: psp.url },
      body: new URLSearchParams(fields).toString(),
    });

  it("the corpus's token, page form, paid return and Ok Advice: paid on Sepehr's receipt; the merchant's verify asks nothing more", async () => {
    const { p, callback } = await atSepehrPage(api);
    const receipt = receiptOf(payments++);
    const back = await sepehrReturns(api, callback, {
      ...returnPaid,
      invoiceid: sepehrOrderId(p.id),
      digitalreceipt: receipt,
    });
    assert.equal(back.status, 303);
    const paid = await waitForStatus(api, key, p.id, 'paid', 30_000);
    assert.equal(paid.reference_id, receipt, "Sepehr's digital receipt, as the return carried it");
    assert.deepEqual(paid.psp, { name: 'sepehr', terminal_id: TERMINAL });
    assert.deepEqual(
      [paid.rrn, paid.card_pan],
      [null, null],
      "Advice names no RRN or card, and the return's are not taken",
    );
    assert.equal(calls(ADVICE, receipt).length, 1, 'one Advice');
    assert.deepEqual(Object.keys(body(calls(ADVICE, receipt)[0]!)), corpusRequest('verify-request').order);
    assert.deepEqual(body(calls(ADVICE, receipt)[0]!), { digitalreceipt: receipt, Tid: Number(TERMINAL) });
    const verified = await client(api, key).post<{ payment: Payment }>(`/payments/${p.id}/verify`, { amount: AMOUNT });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.payment.status, 'verified');
    assert.deepEqual(
      [...new Set(psp.requests.map((r) => r.path))].sort(),
      [ADVICE, TOKEN].sort(),
      'nothing else asked',
    );
  });

  it("a cancel as return-canceled.json's: Sepehr is asked nothing, and the payment is canceled by the customer", async () => {
    const { p, callback } = await atSepehrPage(api);
    const before = psp.requests.length;
    const back = await sepehrReturns(api, callback, {
      ...corpusFields('return-canceled'),
      invoiceid: sepehrOrderId(p.id),
    });
    assert.equal(back.status, 303);
    const h = await getHarness();
    await waitFor(
      `the workflow to answer the cancel of ${p.id}`,
      async () => ((await returnsAnswered(h.temporal.client, p.id)) >= 1 ? true : undefined),
      30_000,
    );
    const after = await waitForStatus(api, key, p.id, 'canceled', 30_000);
    assert.equal(after.failure?.code, 'canceled_by_customer');
    assert.equal(after.reference_id, null, 'nothing paid');
    assert.deepEqual(psp.requests.slice(before), [], 'no Advice, no Rollback');
  });

  it("a paid payment nobody verifies: given back at its deadline by one Rollback as the corpus's", async () => {
    const { p, callback } = await atSepehrPage(shortApi);
    const receipt = receiptOf(payments++);
    await sepehrReturns(shortApi, callback, { ...returnPaid, invoiceid: sepehrOrderId(p.id), digitalreceipt: receipt });
    await waitForStatus(shortApi, key, p.id, 'paid', 30_000);
    const reversed = await waitForStatus(shortApi, key, p.id, 'reversed', 60_000);
    assert.equal(reversed.refunded_amount, AMOUNT);
    // A moment more: a second Rollback would have come by now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal(calls(ROLLBACK, receipt).length, 1, 'one Rollback');
    assert.deepEqual(Object.keys(body(calls(ROLLBACK, receipt)[0]!)), corpusRequest('reversal-request').order);
    assert.deepEqual(body(calls(ROLLBACK, receipt)[0]!), { digitalreceipt: receipt, Tid: Number(TERMINAL) });
  });

  it('a refund of a verified payment: the whole payment, by one Rollback', async () => {
    const { p, callback } = await atSepehrPage(api);
    const receipt = receiptOf(payments++);
    await sepehrReturns(api, callback, { ...returnPaid, invoiceid: sepehrOrderId(p.id), digitalreceipt: receipt });
    await waitForStatus(api, key, p.id, 'paid', 30_000);
    const merchant = client(api, key);
    assert.equal((await merchant.post(`/payments/${p.id}/verify`, { amount: AMOUNT })).status, 200);
    const asked = await merchant.post<RefundBody>(`/payments/${p.id}/refunds`, {});
    assert.equal(asked.status, 201, asked.text);
    assert.equal(asked.body.refund.method, 'reversal');
    const done = await waitForRefund(api, key, asked.body.refund.id, 'succeeded');
    assert.equal(done.amount, AMOUNT);
    assert.equal(calls(ROLLBACK, receipt).length, 1, 'one Rollback');
    assert.equal((await merchant.get<{ payment: Payment }>(`/payments/${p.id}`)).body.payment.refunded_amount, AMOUNT);
  });
});
