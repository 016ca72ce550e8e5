/**
 * The history budget (tools/bench/budget.ts), held: one payment taken through the benchmark's
 * full flow against the real API, MySQL, Temporal and bank simulator, its workflow's history read
 * back from the server and counted by the benchmark's counter (tools/bench/work.ts). The counts
 * are exact, never timed: a change that adds an event, a task, an upsert or a local activity to a
 * payment fails here, naming the count and by how much.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { offTheBudgetedPath, overBudgetReport } from '../../tools/bench/budget.ts';
import { paymentHistoryCounts } from '../../tools/bench/work.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { createPayment } from '../support/payments.ts';
import { closedWorkflow } from '../support/work.ts';

/** Payments the test takes at most while the machine keeps pushing them off the budgeted path. */
const PAYMENTS_AT_MOST = 3;

/** One payment through the benchmark's full flow (tools/bench/load.ts), the same requests step by step, so the budget here and the benchmark's per_payment figures count the same path. */
async function fullFlowPayment(baseUrl: string, key: string): Promise<string> {
  const api = client(baseUrl, key);
  const created = await createPayment(baseUrl, key, {}, randomUUID());
  assert.equal(created.status, 201, created.text);
  const payment = created.body.payment;
  const page = await request(baseUrl, 'GET', `/pay/${payment.id}?lang=en`);
  assert.equal(page.status, 200, page.text);
  // The customer's trip through the bank simulator: the token, the bank's page, its form back to our return.
  const banked = await api.post<{ payment: Payment }>(`/test_helpers/payments/${payment.id}/bank_outcome`, {
    outcome: 'success',
  });
  assert.equal(banked.body.payment?.status, 'paid', banked.text);
  const verified = await api.post<{ payment: Payment }>(`/payments/${payment.id}/verify`, { amount: payment.amount });
  assert.equal(verified.body.payment?.status, 'verified', verified.text);
  return payment.id;
}

describe('history budget', () => {
  it('a payment through the full flow (create → its page → the bank simulator and back → verify) costs no more than its budget', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const offPath: string[] = [];
    for (;;) {
      const id = await fullFlowPayment(h.baseUrl, key);
      // Counted once the workflow has closed: every event of the payment is in.
      assert.equal(await closedWorkflow(h.temporal.client, paymentWorkflowId(id)), 'COMPLETED');
      const counts = await paymentHistoryCounts(h.temporal.client, id);
      const off = offTheBudgetedPath(counts);
      if (off !== undefined && offPath.length + 1 < PAYMENTS_AT_MOST) {
        offPath.push(`${id}: ${off}`);
        continue;
      }
      const over = overBudgetReport(counts);
      if (over !== undefined)
        assert.fail(
          `the payment's history is ${over}\n` +
            (offPath.length === 0
              ? ''
              : `after ${offPath.length} payment(s) off the budgeted path: ${offPath.join('; ')}\n`) +
            `counted: ${JSON.stringify(counts)}`,
        );
      return;
    }
  });
});
