/**
 * The promise that a payment's workflow is open only while the payment is in
 * flight: it closes soon after every final state. Real API, MySQL, Temporal
 * and bank simulator. The work a payment costs, counted in its history, is
 * held by test/payments/history-budget.test.ts to the one budget of
 * tools/bench/budget.ts.
 */
import assert from 'node:assert/strict';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { chooseOutcome, createdPayment, paidPayment, waitForStatus } from '../support/payments.ts';
import { closedWorkflow } from '../support/work.ts';

describe("a payment's workflow closes soon after the payment's final state", () => {
  it('verified, failed, canceled by the customer and by the merchant, expired, reversed by the merchant and at the deadline', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const api = client(h.baseUrl, key);
    const short = await apiWith({ VERIFY_WINDOW_SECONDS: '2' });
    const finals: Record<string, string> = {};

    const verified = await paidPayment(h.baseUrl, key);
    await api.post(`/payments/${verified.id}/verify`, { amount: verified.amount });
    finals.verified = verified.id;
    for (const outcome of ['failure', 'cancel'] as const) {
      const p = await createdPayment(h.baseUrl, key);
      assert.equal((await chooseOutcome(h.baseUrl, p.id, outcome)).status, 303);
      await waitForStatus(h.baseUrl, key, p.id, outcome === 'failure' ? 'failed' : 'canceled');
      finals[outcome] = p.id;
    }
    const canceled = await createdPayment(h.baseUrl, key);
    await api.post(`/payments/${canceled.id}/cancel`);
    finals['merchant-canceled'] = canceled.id;
    const expired = await createdPayment(h.baseUrl, key);
    await api.post(`/test_helpers/payments/${expired.id}/advance`, { seconds: 24 * 3600 });
    finals.expired = expired.id;
    const reversed = await paidPayment(h.baseUrl, key);
    await api.post(`/payments/${reversed.id}/reverse`);
    finals['merchant-reversed'] = reversed.id;
    const late = await paidPayment(short, key);
    await waitForStatus(short, key, late.id, 'reversed');
    finals['deadline-reversed'] = late.id;

    const statuses = await h.db
      .selectFrom('payments')
      .select(['id', 'status'])
      .where('id', 'in', Object.values(finals))
      .execute();
    const expected = {
      verified: 'verified',
      failure: 'failed',
      cancel: 'canceled',
      'merchant-canceled': 'canceled',
      expired: 'expired',
      'merchant-reversed': 'reversed',
      'deadline-reversed': 'reversed',
    };
    for (const [path, id] of Object.entries(finals)) {
      assert.equal(statuses.find((r) => r.id === id)?.status, expected[path as keyof typeof expected], path);
      assert.equal(await closedWorkflow(h.temporal.client, paymentWorkflowId(id)), 'COMPLETED', path);
    }
  });
});
