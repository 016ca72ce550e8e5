/**
 * Where refunds are taken: the payment's refunds workflow (`refunds-<payment
 * id>`), started by the refund itself and closed once the bank has answered;
 * the payment's own workflow has ended at verify. Real API, MySQL, Temporal
 * and bank simulator.
 */
import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/client';
import { paymentWorkflowId, refundsWorkflowId } from '../../src/domain/payment-workflow.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import {
  approveTypedIban,
  REFUND_IBAN,
  refundsAtBank,
  verifiedPayment,
  waitForRefund,
  type RefundBody,
} from '../support/refunds.ts';
import type { ErrorBody } from '../../src/api/schemas.ts';
import { closedWorkflow, historyWork } from '../support/work.ts';

const DAY_MS = 24 * 3600 * 1000;

describe('the refunds workflow', () => {
  it("a refund starts the payment's refunds workflow, which closes once the bank has answered; the payment's own workflow closed at verify", async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 600_000 });
    assert.equal(await closedWorkflow(h.temporal.client, paymentWorkflowId(payment.id)), 'COMPLETED');
    await assert.rejects(
      h.temporal.client.workflow.getHandle(refundsWorkflowId(payment.id)).describe(),
      WorkflowNotFoundError,
      'no refunds workflow before a refund',
    );

    const res = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 200_000,
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.refund.status, res.body.refund.held_for], ['awaiting_approval', 'typed_iban']);
    const handle = h.temporal.client.workflow.getHandle(refundsWorkflowId(payment.id));
    // The run that took it closes with the refund held: nothing waits for the bank. Its work: the Update-with-Start's
    // task; the record's read and write and the PSP's capabilities local, under the patches refunds-by-capability
    // and refunds-to-payer (each marker upserts the change-version search attribute, besides the payment's status);
    // no activity, no bank.
    assert.equal(await closedWorkflow(h.temporal.client, refundsWorkflowId(payment.id)), 'COMPLETED');
    const taking = historyWork(await handle.fetchHistory());
    assert.deepEqual(
      { ...taking, events: undefined },
      {
        events: undefined,
        workflow_tasks: 1,
        activity_tasks: 0,
        local_activities: 3,
        upserts: 3,
        timers: 0,
        patches: 2,
      },
    );

    await approveTypedIban(res.body.refund);
    await waitForRefund(h.baseUrl, m.key, res.body.refund.id, 'succeeded');
    assert.equal(await closedWorkflow(h.temporal.client, refundsWorkflowId(payment.id)), 'COMPLETED');
    const recorded = await handle.result();
    assert.deepEqual(
      { status: recorded?.status, refunded_amount: recorded?.refunded_amount },
      { status: 'partially_refunded', refunded_amount: 200_000 },
    );
    // The approval's run, counted: the Update-with-Start's task, the bank's answer's task; the bank (here the transfer
    // to the IBAN: SEP has no refund operation) an activity; the record's reads and writes local; no patch is
    // asked on that path, and the payment's status is unchanged (no upsert).
    const work = historyWork(await handle.fetchHistory());
    assert.deepEqual(
      { ...work, events: undefined },
      {
        events: undefined,
        workflow_tasks: 2,
        activity_tasks: 1,
        local_activities: 3,
        upserts: 0,
        timers: 0,
        patches: 0,
      },
    );

    // The next refund starts another run, which reads the record as the first left it.
    const rest = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, { destination_iban: REFUND_IBAN });
    assert.equal(rest.status, 201, rest.text);
    assert.equal(rest.body.refund.amount, 400_000);
    await approveTypedIban(rest.body.refund);
    await waitForRefund(h.baseUrl, m.key, rest.body.refund.id, 'succeeded');
    assert.equal(await closedWorkflow(h.temporal.client, refundsWorkflowId(payment.id)), 'COMPLETED');
    const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.deepEqual(
      { status: after.body.payment.status, refunded_amount: after.body.payment.refunded_amount },
      { status: 'refunded', refunded_amount: 600_000 },
    );
    assert.deepEqual(
      (await refundsAtBank(payment.id)).map((op) => Number(op.amount)).sort((a, b) => a - b),
      [200_000, 400_000],
    );
    await assertLedgerBalanced(h.db, 'after the refunds', { merchantIds: [m.merchantId] });
  });

  it('two concurrent refunds are taken one at a time: one is taken, the other refused with refund_exceeds_amount, and never more than was paid', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 1_000_000 });
    const results = await Promise.all(
      ['first', 'second'].map((name) =>
        api.post<RefundBody & ErrorBody>(
          `/payments/${payment.id}/refunds`,
          { destination_iban: REFUND_IBAN, amount: 600_000 },
          { idempotencyKey: `${name}-${payment.id}` },
        ),
      ),
    );
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    assert.equal(accepted.length, 1, results.map((r) => `${r.status} ${r.text}`).join('\n'));
    assert.equal(refused[0]?.status, 422, refused[0]?.text);
    assert.equal(refused[0]?.body.code, 'refund_exceeds_amount');
    assert.equal(
      refused[0]?.body.message,
      'The refund amount is more than the 400000 rials left to refund on this payment.',
    );
    await approveTypedIban(accepted[0]!.body.refund);
    await waitForRefund(h.baseUrl, m.key, accepted[0]!.body.refund.id, 'succeeded');
    const rows = await h.db
      .selectFrom('refunds')
      .select(['id', 'amount'])
      .where('payment_id', '=', payment.id)
      .execute();
    assert.deepEqual(
      rows.map((r) => Number(r.amount)),
      [600_000],
    );
    const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(after.body.payment.refunded_amount, 600_000);
    assert.equal((await refundsAtBank(payment.id)).length, 1);
    await assertLedgerBalanced(h.db, 'after the race', { merchantIds: [m.merchantId] });
  });

  it('a refund 181 days after verify is refused by the rule on the record with 409 payment_not_refundable, and starts no workflow', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 300_000 });
    // The record as it reads 181 days on (REFUND_WINDOW_SECONDS is 180 days).
    await h.db
      .updateTable('payments')
      .set({ verified_at: new Date(Date.now() - 181 * DAY_MS) })
      .where('id', '=', payment.id)
      .execute();
    const late = await api.post<ErrorBody>(`/payments/${payment.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_000,
    });
    assert.equal(late.status, 409, late.text);
    assert.deepEqual(late.body.code, 'payment_not_refundable');
    assert.equal(late.body.message, "The payment's refund window has closed.");
    await assert.rejects(
      h.temporal.client.workflow.getHandle(refundsWorkflowId(payment.id)).describe(),
      WorkflowNotFoundError,
    );
    assert.deepEqual(await h.db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute(), []);

    // A day inside the window, the same record takes it.
    await h.db
      .updateTable('payments')
      .set({ verified_at: new Date(Date.now() - 179 * DAY_MS) })
      .where('id', '=', payment.id)
      .execute();
    const inTime = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_000,
    });
    assert.equal(inTime.status, 201, inTime.text);
    await approveTypedIban(inTime.body.refund);
    await waitForRefund(h.baseUrl, m.key, inTime.body.refund.id, 'succeeded');
  });
});
