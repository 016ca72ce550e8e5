/**
 * The work a payment costs, counted in its workflow's history (never timed),
 * and the promise that a payment's workflow is open only while the payment is
 * in flight: it closes soon after every final state. Real API, MySQL, Temporal
 * and bank simulator.
 */
import assert from 'node:assert/strict';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { chooseOutcome, createdPayment, paidPayment, waitForStatus } from '../support/payments.ts';
import { closedWorkflow, historyWork } from '../support/work.ts';

describe('work per payment, counted', () => {
  it('a full flow (create → the bank → verify) takes at most half the workflow tasks it took before (10), no activity task but the bank confirm a slow bank needs, one upsert per transition, one for the PSP and one per patch (three), two timers, and its workflow closes at verify', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const api = client(h.baseUrl, key);
    const payment = await createdPayment(h.baseUrl, key);
    // The customer's trip through the bank simulator, as the benchmark's full flow takes it.
    const banked = await api.post<{ payment: Payment }>(`/test_helpers/payments/${payment.id}/bank_outcome`, {
      outcome: 'success',
    });
    assert.equal(banked.body.payment?.status, 'paid', banked.text);
    const verified = await api.post<{ payment: Payment }>(`/payments/${payment.id}/verify`, { amount: payment.amount });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(await closedWorkflow(h.temporal.client, paymentWorkflowId(payment.id)), 'COMPLETED');

    const work = historyWork(await h.temporal.client.workflow.getHandle(paymentWorkflowId(payment.id)).fetchHistory());
    // Start (payment.created and the expiry timer), the token, the callback (confirm and record paid), verify (the PSP's capabilities, and record verified):
    // four tasks at most (two of them share one when the callback arrives while the token's task is still being
    // answered, as on a busy machine); a bank that does not confirm at once is asked by an activity, one task more.
    assert.ok(work.activity_tasks <= 1, JSON.stringify(work));
    assert.ok(work.workflow_tasks >= 3 && work.workflow_tasks <= 4 + work.activity_tasks, JSON.stringify(work));
    // payment.created, the route's plan, the token, the PSP that gave it recorded, the confirm, paid, the PSP's capabilities
    // (SEP's verify at the return captured: no settlement), verified.
    if (work.activity_tasks === 0) assert.equal(work.local_activities, 8, JSON.stringify(work));
    // Paid, verified, the PSP that took the payment, and the change-version attribute Temporal sets for each of its three patches.
    assert.equal(work.upserts, 6, `paid, verified, the PSP, the three patches: ${JSON.stringify(work)}`);
    assert.equal(work.timers, 2, `expires_at, verify_deadline_at: ${JSON.stringify(work)}`);
    // The routing patch (psp-routing), in every payment started since routing (docs/psps/routing.md), the route
    // planned with the payment's verify window (route-verify-window, docs/psps/routing.md), and the
    // capabilities' (psp-capabilities), in every payment verified since (docs/PAYMENTS.md#capture-at-verify-or-at-settle).
    assert.equal(work.patches, 3, JSON.stringify(work));
  });

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
});
