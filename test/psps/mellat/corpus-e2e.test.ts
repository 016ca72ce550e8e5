/**
 * A Mellat payment end to end against Behpardakht as the conformance corpus shows it
 * (test/fixtures/psps/mellat/, docs/psps/mellat.md), not as our simulator writes it: a worker of this
 * test's own (real MySQL, real Temporal) whose test-mode Mellat terminal is a loopback server that
 * serves the published WSDL pair and answers every call with a corpus answer, its envelope byte for
 * byte (test/psps/mellat/corpus-bank.ts). The customer's return is posted with the corpus's fields
 * as a corpus file shows them (only SaleOrderId is the payment's own, as Behpardakht echoes the order id
 * it was given); the corpus's verify answer makes the payment `paid`; the merchant's verify settles
 * (bpSettleRequest) and makes it `verified`; and a partial refund through the API is made by
 * bpRefundRequest under the refund's own order id, for the refund's amount.
 */
import assert from 'node:assert/strict';
import type { Worker } from '@temporalio/worker';
import { pspClientsFromConfig, type PspClients } from '../../../src/psps/clients.ts';
import { MellatClient } from '../../../src/psps/mellat/client.ts';
import { mellatOrderId, mellatRefundOrderId } from '../../../src/psps/mellat/mapping.ts';
import { replaceMerchantRoute } from '../../../src/db/psp-routes.ts';
import type { Payment } from '../../../src/domain/payment-schemas.ts';
import { createPaymentWorker } from '../../../src/main/payment-worker.ts';
import { apiWith, getHarness, newMerchant, testConfig, type Harness } from '../../support/harness.ts';
import { client } from '../../support/http.ts';
import { CorpusBank } from './corpus-bank.ts';
import { bankRedirectForm, createdPayment, pressPay, waitForStatus } from '../../support/payments.ts';
import { mellatCorpusMessage, type SoapAnswerMessage, type SoapRequestMessage } from './corpus.ts';
import { waitForRefund, type RefundBody } from '../../support/refunds.ts';

describe('a Mellat payment against the corpus, end to end', function () {
  this.timeout(120_000);
  const bank = new CorpusBank();
  /** The terminal the corpus's requests name: its requests then carry the corpus's own values. */
  const terminal = (mellatCorpusMessage('token-request').message as SoapRequestMessage).parameters;
  const taskQueue = `mellat-corpus-${process.pid}`;
  let h: Harness;
  let api: string;
  let key: string;
  let worker: Worker;
  let running: Promise<void>;

  before(async () => {
    h = await getHarness();
    await bank.start();
    bank
      .answer('bpPayRequest', 'token-answer-ok')
      .answer('bpVerifyRequest', 'verify-answer-ok')
      .answer('bpSettleRequest', 'settle-answer-ok')
      .answer('bpRefundRequest', 'refund-answer-ok')
      .answer('bpInquiryRequest', 'inquiry-answer-ok')
      .answer('bpReversalRequest', 'reversal-answer-ok');
    const config = { ...testConfig({ TEMPORAL_TASK_QUEUE: taskQueue }), PUBLIC_BASE_URL: h.config.PUBLIC_BASE_URL };
    const psps: PspClients = {
      test: {
        ...pspClientsFromConfig(config).test,
        mellat: new MellatClient({
          baseUrl: bank.url,
          terminalId: terminal.terminalId!,
          userName: terminal.userName!,
          password: terminal.userPassword!,
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
    api = await apiWith({ TEMPORAL_TASK_QUEUE: taskQueue });
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
          psp: 'mellat',
          terminal_id: terminal.terminalId!,
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

  it("a return posted as return-paid.json, then verify-answer-ok.json: paid; the merchant's verify settles: verified; a partial refund goes through bpRefundRequest", async () => {
    const created = await createdPayment(api, key, { amount: 10_000 });
    const orderId = mellatOrderId(created.id);

    // Pay: our page posts the corpus's RefId to Mellat's page, as startpay-redirect.json does.
    const pay = await pressPay(api, created.id);
    assert.equal(pay.status, 200);
    const form = bankRedirectForm(await pay.text());
    const redirect = mellatCorpusMessage('startpay-redirect');
    assert.ok(
      form !== undefined && new URL(form.url).pathname === redirect.http.path,
      `the form posts to ${redirect.http.path}: ${form?.url}`,
    );
    assert.deepEqual(form.fields, redirect.message);
    const [token] = bank.callsOf('bpPayRequest');
    assert.equal(Object.fromEntries(token!.parameters).orderId, orderId);

    // The customer's return, as the corpus shows it (Behpardakht echoes our order id as SaleOrderId).
    const paidReturn: Record<string, string> = {
      ...(mellatCorpusMessage('return-paid').message as Record<string, string>),
      SaleOrderId: orderId,
    };
    const returned = await fetch(`${api}/pay/${created.id}/return`, {
      method: 'POST',
      body: new URLSearchParams(paidReturn).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: bank.url },
      redirect: 'manual',
    });
    assert.equal(returned.status, 303);
    const paid = await waitForStatus(api, key, created.id, 'paid');
    assert.equal(paid.reference_id, paidReturn.SaleReferenceId);
    assert.deepEqual(paid.psp, { name: 'mellat', terminal_id: terminal.terminalId });
    assert.deepEqual(
      [paid.rrn, paid.card_pan],
      [null, null],
      "Behpardakht's verify gives no RRN or card, and the return's are not taken",
    );
    const [verify] = bank.callsOf('bpVerifyRequest');
    assert.deepEqual(Object.fromEntries(verify!.parameters), {
      ...terminal3(),
      orderId,
      saleOrderId: orderId,
      saleReferenceId: paidReturn.SaleReferenceId,
    });

    // The merchant's verify: bpSettleRequest, answered as settle-answer-ok.json.
    const verified = await client(api, key).post<{ payment: Payment }>(`/payments/${created.id}/verify`, {
      amount: 10_000,
    });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.payment.status, 'verified');
    assert.equal(bank.callsOf('bpSettleRequest').length, 1);

    // A partial refund: bpRefundRequest under the refund's own order id, for its amount.
    const refund = await client(api, key).post<RefundBody>(`/payments/${created.id}/refunds`, { amount: 4_000 });
    assert.equal(refund.status, 201, refund.text);
    await waitForRefund(api, key, refund.body.refund.id, 'succeeded');
    const refunds = bank.callsOf('bpRefundRequest');
    assert.equal(refunds.length, 1);
    assert.deepEqual(Object.fromEntries(refunds[0]!.parameters), {
      ...terminal3(),
      orderId: mellatRefundOrderId(refund.body.refund.id),
      saleOrderId: orderId,
      saleReferenceId: paidReturn.SaleReferenceId,
      refundAmount: '4000',
    });
    assert.equal(refunds[0]!.operationKey, `refund:${refund.body.refund.id}`);
    const after = await client(api, key).get<{ payment: Payment }>(`/payments/${created.id}`);
    assert.deepEqual([after.body.payment.status, after.body.payment.refunded_amount], ['partially_refunded', 4_000]);
    assert.match((mellatCorpusMessage('refund-answer-ok').message as SoapAnswerMessage).return, /^0,/);
    // Nothing else was asked of Behpardakht: no reversal, no inquiry.
    assert.deepEqual(
      bank.calls.map((c) => c.operation),
      ['bpPayRequest', 'bpVerifyRequest', 'bpSettleRequest', 'bpRefundRequest'],
    );
  });

  /** The terminal's three parameters as the connector sends them. */
  function terminal3() {
    return { terminalId: terminal.terminalId, userName: terminal.userName, userPassword: terminal.userPassword };
  }
});
