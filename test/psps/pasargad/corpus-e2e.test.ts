/**
 * A Pasargad (PEP) payment end to end against PEP as the conformance corpus shows it
 * (test/fixtures/psps/pasargad/, docs/psps/pasargad.md), not as our simulator writes it: a worker of this
 * test's own (real MySQL, real Temporal) whose test-mode Pasargad terminal is a loopback server answering
 * every call with a corpus answer (test/psps/pasargad/corpus-bank.ts; only the invoice is the
 * payment's own, as PEP echoes the invoice it was given). The Pay button redirects to the purchase
 * answer's url (page-redirect.json); the customer's return is a GET with the corpus's query
 * (return-paid.json); the inquiry's answer makes the payment `paid` with PEP's reference, RRN and masked
 * card, nothing confirmed at PEP; the merchant's verify confirms it (confirm-transactions, with the
 * inquiry's urlId) and makes it `verified`. A canceled return (return-canceled.json) ends a payment
 * canceled by the customer with nothing asked of PEP.
 */
import assert from 'node:assert/strict';
import type { Worker } from '@temporalio/worker';
import { pspClientsFromConfig, type PspClients } from '../../../src/psps/clients.ts';
import { PasargadClient } from '../../../src/psps/pasargad/client.ts';
import { pasargadOrderId } from '../../../src/psps/pasargad/mapping.ts';
import { replaceMerchantRoute } from '../../../src/db/psp-routes.ts';
import type { Payment } from '../../../src/domain/payment-schemas.ts';
import { createPaymentWorker } from '../../../src/main/payment-worker.ts';
import { apiWith, getHarness, newMerchant, testConfig, type Harness } from '../../support/harness.ts';
import { client } from '../../support/http.ts';
import { PasargadCorpusBank } from './corpus-bank.ts';
import { createdPayment, pressPay, waitForStatus } from '../../support/payments.ts';
import { corpusAnswer, corpusData, corpusFields, corpusRequest, pasargadCorpusMessage } from './corpus.ts';

const path = (name: string) => pasargadCorpusMessage(name).http.path;

describe('a Pasargad payment against the corpus, end to end', function () {
  this.timeout(120_000);
  const bank = new PasargadCorpusBank();
  const auth = corpusRequest('auth-request');
  const TERMINAL = String(corpusRequest('token-request').json.terminalNumber);
  /** The corpus's amount: the inquiry's and the confirm's answers name it. */
  const AMOUNT = Number(corpusData('inquiry-answer-paid').amount);
  const taskQueue = `pasargad-corpus-${process.pid}`;
  /**
   * A verify window PEP takes (pspTakesVerifyWindow): it gives back an unconfirmed payment itself, so a
   * payment whose window outlasts that is never routed to it (docs/psps/pasargad.md).
   */
  const WINDOW = { TEMPORAL_TASK_QUEUE: taskQueue, VERIFY_WINDOW_SECONDS: '300' };
  let h: Harness;
  let api: string;
  let key: string;
  let worker: Worker;
  let running: Promise<void>;

  before(async () => {
    h = await getHarness();
    await bank.start();
    bank.answer(path('auth-request'), 'auth-answer-ok');
    const config = { ...testConfig(WINDOW), PUBLIC_BASE_URL: h.config.PUBLIC_BASE_URL };
    const psps: PspClients = {
      test: {
        ...pspClientsFromConfig(config).test,
        pasargad: new PasargadClient({
          baseUrl: bank.url,
          terminalId: TERMINAL,
          userName: String(auth.json.username),
          password: String(auth.json.password),
          timeoutMs: 5_000,
        }),
      },
      live: {},
    };
    worker = await createPaymentWorker({
      config,
      db: h.db,
      temporal: h.temporal.client,
      logger: h.logger,
      bundle: h.bundle,
      psps,
    });
    running = worker.run();
    api = await apiWith(WINDOW);
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
          psp: 'pasargad',
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
    await running?.catch(() => undefined);
    await bank.stop();
  });

  /** The corpus answer `name` naming the payment's own invoice. */
  const naming = (invoice: string) => (json: Record<string, unknown>) => ({
    ...json,
    data: { ...(json.data as Record<string, unknown>), invoice },
  });

  /** A created payment whose Pay button took the customer to PEP's page: the purchase asked, the redirect checked. */
  async function atPepPage(): Promise<{ payment: Payment; invoice: string; callbackApi: string }> {
    const payment = await createdPayment(api, key, { amount: AMOUNT });
    const invoice = pasargadOrderId(payment.id);
    bank.answer(path('token-request'), 'token-answer-ok');
    const pay = await pressPay(api, payment.id);
    assert.equal(pay.status, 303, await pay.text());
    assert.equal(pay.headers.get('location'), corpusData('token-answer-ok').url, "the purchase answer's url");
    assert.equal(new URL(pay.headers.get('location')!).pathname, path('page-redirect'));
    const purchase = bank.callsTo(path('token-request')).at(-1)!;
    assert.equal(purchase.json!.invoice, invoice);
    assert.equal(purchase.json!.amount, AMOUNT);
    assert.equal(purchase.headers.authorization, `Bearer ${String(corpusAnswer('auth-answer-ok').json!.token)}`);
    return { payment, invoice, callbackApi: String(purchase.json!.callbackApi) };
  }

  /**
   * PEP's return: a GET of the purchase's callbackApi (our return route, signed for the payment's bank
   * session) with the corpus return `name`'s query, naming `invoice`, at this test's API.
   */
  const pepReturns = (callbackApi: string, name: string, invoice: string) => {
    const at = new URL(callbackApi);
    const query = new URLSearchParams({ ...corpusFields(name), invoiceId: invoice }).toString();
    return fetch(`${api}${at.pathname}?${query}`, { redirect: 'manual' });
  };

  it("a return as return-paid.json and the inquiry's inquiry-answer-paid.json: paid, with PEP's references and nothing confirmed; the merchant's verify confirms it by confirm-transactions: verified", async () => {
    const { payment, invoice, callbackApi } = await atPepPage();
    bank.answer(path('inquiry-request'), 'inquiry-answer-paid', naming(invoice));
    const back = await pepReturns(callbackApi, 'return-paid', invoice);
    assert.equal(back.status, 303);
    assert.equal(back.headers.get('location'), `/pay/${payment.id}/result`);
    const paid = await waitForStatus(api, key, payment.id, 'paid', 30_000);
    const inquiry = corpusData('inquiry-answer-paid');
    assert.equal(
      paid.reference_id,
      corpusFields('return-paid').referenceNumber,
      "PEP's referenceNumber, as the return carried it",
    );
    assert.equal(paid.rrn, inquiry.referenceNumber);
    assert.equal(paid.card_pan, inquiry.cardNumber);
    assert.deepEqual(paid.psp, { name: 'pasargad', terminal_id: TERMINAL });
    const asked = bank.callsTo(path('inquiry-request'));
    assert.deepEqual(asked.at(-1)!.json, { invoiceId: invoice }, "the corpus's inquiry request");
    assert.equal(bank.callsTo(path('confirm-request')).length, 0, 'nothing confirmed at the return');

    bank.answer(path('confirm-request'), 'confirm-answer-ok', naming(invoice));
    const verified = await client(api, key).post<{ payment: Payment }>(`/payments/${payment.id}/verify`, {
      amount: AMOUNT,
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.payment.status, 'verified');
    const confirms = bank.callsTo(path('confirm-request'));
    assert.equal(confirms.length, 1);
    assert.deepEqual(confirms[0]!.json, { invoice, urlId: inquiry.url }, "the inquiry's url is the confirm's urlId");
    assert.equal(confirms[0]!.headers['x-operation-key'], `settle:${payment.id}`);
    assert.equal(bank.callsTo(path('reverse-request')).length, 0, 'nothing reversed');
  });

  it('a return as return-canceled.json: canceled by the customer, nothing asked of PEP after the purchase', async () => {
    const { payment, invoice, callbackApi } = await atPepPage();
    const before = bank.received.length;
    const back = await pepReturns(callbackApi, 'return-canceled', invoice);
    assert.equal(back.status, 303);
    const canceled = await waitForStatus(api, key, payment.id, 'canceled', 30_000);
    assert.equal(canceled.failure?.code, 'canceled_by_customer');
    assert.equal(bank.received.length, before, 'no call after the purchase');
  });
});
