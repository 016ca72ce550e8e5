/**
 * Determinism guard: recorded payment workflow histories are replayed
 * against the current workflow code. A change that would break running
 * payments (reordered or removed commands) fails here. Histories come from
 * two places: fresh runs of each path in this suite, and the committed
 * fixtures in test/fixtures/histories (binary protobuf History messages, recorded from earlier code with
 * RECORD_HISTORIES=v<n>), which catch changes that break payments already in flight. v7 is the baseline of
 * the one payment workflow type (paymentLifecycleWorkflow) and the refunds workflow without patches: every
 * path of each (verified, declined and canceled by the customer (those two retired since: see below), canceled by
 * the merchant, expired, reversed at the
 * deadline and by the merchant, in progress then confirmed, unconfirmed, the advanced clock; refunds partial,
 * the rest, declined). v8 adds the patch bank-return-failure-asks-bank's path: a forged failed return the
 * bank's inquiry contradicts, then the customer's genuine cancel. v11 adds the patch customer-pays-fee's paths: a
 * customer-pays payment (charged amount + fee) verified, and one reversed (fee-payer.test.ts). v9 and v10 are PSP
 * routing's (psp-failover.test.ts). v12 adds the patch card-restriction's paths (card-restriction.test.ts): a payment
 * restricted to a card, paid with another (reversed, failed card_not_allowed), and one paid with the allowed card
 * then verified. v13 adds the patch payment-link-auto-verify's path (payment-links.test.ts): a payment link's payment
 * paid at the bank and verified by its own workflow. v14 adds the patches psp-capabilities and
 * refused-confirmation-reversed (issue 41: SEP's verify at the return captures, and it has no inquiry): a SEP
 * payment verified without a settle (v14-verified: the capabilities read once, in the verify), one reversed at
 * its deadline (v14-reversed), a cancel and a failed return recorded without an inquiry (v14-cancel,
 * v14-sep-failed-return), and a confirmation the gateway refuses (the PSP names another amount) reversed at once
 * and failed confirmation_mismatch (v14-refused-confirmation). v14 also adds the patch refunds-by-capability's paths
 * (refunds of a SEP payment, a PSP without a refund operation): a part and the rest paid by transfer to the IBAN the
 * merchant gave, one such transfer declined, and a refund of the whole payment inside SEP's reversal window (its
 * reversal; v14-refunds-whole was recorded before SEP's capture moved to its verify, when the simulator refused the
 * reversal of a settled sale, so it holds the fall back to the IBAN given). v15 adds the patch link-auto-verify-bound's paths, recorded
 * by the workflow tests with fake activities (test/workflows/payment-link.test.ts, RECORD_HISTORIES=v15), since a
 * payment link's payment at the test-mode PSP (SEP) asks no settle: v15-link-settled-bounded, a link's payment settled
 * at a PSP that captures at settle, within the bound, and verified; v15-link-settle-given-up, one whose bank never
 * answered the settle, given up on at the bound, left paid and reversed at its deadline. v17 is the baseline of the
 * payment flow workflow (paymentFlowWorkflow), the type every new payment starts since: every path above again, with
 * no patch markers, recorded by this file, card-restriction.test.ts, payment-links.test.ts, psp-failover.test.ts and
 * the workflow tests (capabilities.test.ts, payment-link.test.ts) with RECORD_HISTORIES=v17; the generations before
 * it are the lifecycle type's, which the payments started on it still run. The generations before v7 were of retired
 * workflow types and are no longer kept. A patch's deprecation retires the fixtures of its old path
 * (docs/ARCHITECTURE.md#the-patch-policy): v7-failure and v7-cancel went with bank-return-failure-asks-bank's.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { bankFault, bankOperations } from '../support/bank.ts';
import {
  bankPageOf,
  chooseOutcome,
  createdPayment,
  forgeBankReturn,
  paidPayment,
  returnsAnswered,
  waitForStatus,
} from '../support/payments.ts';
import { REFUND_IBAN, verifiedPayment, waitForRefund } from '../support/refunds.ts';
import { committedHistories, recordFixture, replayAll, type NamedHistory } from '../support/replay.ts';
import { decideHeldRefund } from '../../src/refunds/approvals.ts';
import { paymentWorkflowId, refundsWorkflowId } from '../../src/domain/payment-workflow.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories');

describe('workflow determinism (replay)', () => {
  const fresh: NamedHistory[] = [];

  before(async function () {
    this.timeout(120_000);
    const h = await getHarness();
    const { key } = await newMerchant();
    const short = await apiWith({ PAYMENT_TTL_SECONDS: '2', VERIFY_WINDOW_SECONDS: '2' });
    const paths: Record<string, string> = {};

    const verified = await paidPayment(h.baseUrl, key);
    await client(h.baseUrl, key).post(`/payments/${verified.id}/verify`, { amount: verified.amount });
    await client(h.baseUrl, key).post(`/payments/${verified.id}/verify`, { amount: verified.amount + 1 });
    // SEP's verify at the return captured: the merchant's verify asked the bank nothing.
    assert.deepEqual(
      (await bankOperations(verified.id)).map((o) => o.kind),
      ['confirm'],
    );
    paths.verified = verified.id;
    for (const outcome of ['failure', 'cancel', 'delay'] as const) {
      const p = await createdPayment(h.baseUrl, key);
      await chooseOutcome(h.baseUrl, p.id, outcome);
      await waitForStatus(
        h.baseUrl,
        key,
        p.id,
        outcome === 'failure' ? 'failed' : outcome === 'cancel' ? 'canceled' : 'paid',
      );
      paths[outcome] = p.id;
    }
    const expired = await createdPayment(short, key);
    await waitForStatus(short, key, expired.id, 'expired');
    paths.expired = expired.id;
    const reversed = await paidPayment(short, key);
    await waitForStatus(short, key, reversed.id, 'reversed');
    paths.reversed = reversed.id;
    // Refunds: each in a run of the refunds workflow; the payment's own workflow ended at verify.
    const runs: Record<string, { workflowId: string; runId: string }> = {};
    const refundRun = async (
      path: string,
      paymentId: string,
      body: Record<string, unknown>,
      status: 'succeeded' | 'failed',
    ) => {
      const taken = await client(h.baseUrl, key).post<{ refund: { id: string; status: string } }>(
        `/payments/${paymentId}/refunds`,
        body,
      );
      assert.equal(taken.status, 201, JSON.stringify(taken.body));
      // A typed IBAN waits for the operator (the patch refunds-to-payer): approved as the CLI does, in a run of its own.
      if (taken.body.refund.status === 'awaiting_approval') {
        await h.temporal.client.workflow.getHandle(refundsWorkflowId(paymentId)).result();
        await decideHeldRefund(h.db, h.temporal.client, h.config, taken.body.refund.id, { decision: 'approve' });
      }
      await waitForRefund(h.baseUrl, key, taken.body.refund.id, status);
      const handle = h.temporal.client.workflow.getHandle(refundsWorkflowId(paymentId));
      await handle.result();
      runs[path] = { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
    };
    const refunded = await verifiedPayment(h.baseUrl, key, { amount: 1_000_000 });
    // Under the patches refunds-by-capability and refunds-to-payer: SEP has no refund operation, so a part is a
    // transfer to the IBAN given, once the operator approves it.
    await refundRun('refunds-partial', refunded.id, { amount: 400_000, destination_iban: REFUND_IBAN }, 'succeeded');
    await refundRun('refunds-rest', refunded.id, { destination_iban: REFUND_IBAN }, 'succeeded');
    await waitForStatus(h.baseUrl, key, refunded.id, 'refunded');
    paths.refunded = refunded.id;
    const declined = await verifiedPayment(h.baseUrl, key, { amount: 500_000 });
    await bankFault({ operation: 'payout', fault: 'unknown', times: 1 });
    await refundRun('refunds-declined', declined.id, { amount: 200_000, destination_iban: REFUND_IBAN }, 'failed');
    // The whole payment inside SEP's reversal window: its reversal, paid to the IBAN given if the PSP refuses it.
    const whole = await verifiedPayment(h.baseUrl, key, { amount: 600_000 });
    await refundRun('refunds-whole', whole.id, { destination_iban: REFUND_IBAN }, 'succeeded');

    // The merchant's own actions and the test helpers.
    const api = client(h.baseUrl, key);
    const canceled = await createdPayment(h.baseUrl, key, { metadata: { order: 'replay' } });
    await api.post(`/payments/${canceled.id}/cancel`);
    paths['merchant-canceled'] = canceled.id;
    const early = await paidPayment(h.baseUrl, key);
    await api.post(`/payments/${early.id}/reverse`);
    paths['merchant-reversed'] = early.id;
    const advanced = await createdPayment(h.baseUrl, key);
    await api.post(`/test_helpers/payments/${advanced.id}/bank_outcome`, { outcome: 'delay' });
    // The bank keeps a delayed payment "in progress" for a second of real time: advance until it is paid, then past its deadline.
    await waitFor('the delayed payment to be paid', async () => {
      const res = await api.post<{ payment: { status: string } }>(`/test_helpers/payments/${advanced.id}/advance`, {
        seconds: 3600,
      });
      return res.body.payment.status === 'paid' ? true : undefined;
    });
    await api.post(`/test_helpers/payments/${advanced.id}/advance`, { seconds: 3600 });
    await waitForStatus(h.baseUrl, key, advanced.id, 'reversed');
    paths.advanced = advanced.id;

    // A Failed return of the payment's own SEP session: SEP has no inquiry, so it is recorded as it says.
    const failedReturn = await createdPayment(h.baseUrl, key);
    const failedBankPage = await bankPageOf(h.baseUrl, failedReturn.id);
    await forgeBankReturn(h.baseUrl, failedReturn.id, failedBankPage, 'Failed');
    await waitFor('the failed return to be answered', async () =>
      (await returnsAnswered(h.temporal.client, failedReturn.id)) >= 1 ? true : undefined,
    );
    await waitForStatus(h.baseUrl, key, failedReturn.id, 'failed');
    paths['sep-failed-return'] = failedReturn.id;

    // SEP confirms another amount than the sale's: reversed at once, failed confirmation_mismatch.
    await bankFault({ operation: 'confirm', fault: 'other_amount', times: 1 });
    const refusedConfirmation = await createdPayment(h.baseUrl, key);
    await chooseOutcome(h.baseUrl, refusedConfirmation.id, 'success');
    assert.equal(
      (await waitForStatus(h.baseUrl, key, refusedConfirmation.id, 'failed')).failure?.code,
      'confirmation_mismatch',
    );
    await bankFault(null);
    paths['refused-confirmation'] = refusedConfirmation.id;

    // The bank keeps a paid payment "in progress" past the pending limit: failed bank_unconfirmed.
    const patient = await apiWith({ BANK_PENDING_LIMIT_SECONDS: '2' });
    await bankFault({ operation: 'confirm', fault: 'in_progress', times: 1_000 });
    try {
      const unconfirmed = await createdPayment(patient, key);
      await chooseOutcome(patient, unconfirmed.id, 'success');
      await waitForStatus(patient, key, unconfirmed.id, 'failed', 30_000);
      paths.unconfirmed = unconfirmed.id;
    } finally {
      await bankFault(null);
    }

    // Who pays the fee (the patch customer-pays-fee): a customer-pays payment charged amount + fee, verified; and one reversed.
    const customerPays = await paidPayment(h.baseUrl, key, { fee_payer: 'customer' });
    await api.post(`/payments/${customerPays.id}/verify`, { amount: customerPays.amount });
    await waitForStatus(h.baseUrl, key, customerPays.id, 'verified');
    paths['customer-pays-verified'] = customerPays.id;
    const customerPaysReversed = await paidPayment(h.baseUrl, key, { fee_payer: 'customer' });
    await api.post(`/payments/${customerPaysReversed.id}/reverse`);
    await waitForStatus(h.baseUrl, key, customerPaysReversed.id, 'reversed');
    paths['customer-pays-reversed'] = customerPaysReversed.id;

    for (const [path, id] of Object.entries(paths)) runs[path] = { workflowId: paymentWorkflowId(id), runId: '' };
    for (const [path, { workflowId, runId }] of Object.entries(runs)) {
      const history = await h.temporal.client.workflow
        .getHandle(workflowId, runId === '' ? undefined : runId)
        .fetchHistory();
      fresh.push({ workflowId, history });
      recordFixture(FIXTURES, 'RECORD_HISTORIES', path, history);
    }
  });

  it('replays a fresh history of every path with the current code', async () => {
    const h = await getHarness();
    assert.equal(await replayAll(h.bundle, fresh), 19);
  });

  it('replays the committed histories recorded from earlier code', async () => {
    const h = await getHarness();
    const histories = committedHistories(FIXTURES);
    // v7-failure and v7-cancel (a failed and a canceled return believed without asking the bank) were retired when
    // bank-return-failure-asks-bank was deprecated (workflows/patches.ts, docs/ARCHITECTURE.md#the-patch-policy).
    const paths = [
      'verified',
      'delay',
      'expired',
      'reversed',
      'refunded',
      'merchant-canceled',
      'merchant-reversed',
      'advanced',
      'unconfirmed',
    ];
    for (const path of [...paths, 'refunds-partial', 'refunds-rest', 'refunds-declined']) {
      assert.ok(
        histories.some((f) => f.workflowId === `v7-${path}.history.bin`),
        `the v7 fixture of ${path} is committed`,
      );
    }
    // v8: the patch bank-return-failure-asks-bank, a forged return the bank contradicts, then a genuine cancel.
    assert.ok(
      histories.some((f) => f.workflowId === 'v8-forged-failure.history.bin'),
      'the v8 fixture of the forged failure is committed',
    );
    // v11: the patch customer-pays-fee, a customer-pays payment verified, and one reversed.
    for (const path of ['customer-pays-verified', 'customer-pays-reversed']) {
      assert.ok(
        histories.some((f) => f.workflowId === `v11-${path}.history.bin`),
        `the v11 fixture of ${path} is committed`,
      );
    }
    // v12: the patch card-restriction, a confirmation by a card not allowed (reversed), and one by the allowed card.
    for (const path of ['card-not-allowed', 'card-allowed'])
      assert.ok(
        histories.some((f) => f.workflowId === `v12-${path}.history.bin`),
        `the v12 fixture of ${path} is committed`,
      );
    // v13: the patch payment-link-auto-verify, a payment link's payment verified by its own workflow.
    assert.ok(
      histories.some((f) => f.workflowId === 'v13-link-verified.history.bin'),
      'the v13 fixture of the link payment is committed',
    );
    // v14: the patches psp-capabilities and refused-confirmation-reversed, and refunds-by-capability's refunds of a SEP payment.
    for (const path of [
      'verified',
      'reversed',
      'cancel',
      'sep-failed-return',
      'refused-confirmation',
      'refunds-partial',
      'refunds-rest',
      'refunds-declined',
      'refunds-whole',
    ]) {
      assert.ok(
        histories.some((f) => f.workflowId === `v14-${path}.history.bin`),
        `the v14 fixture of ${path} is committed`,
      );
    }
    assert.equal(await replayAll(h.bundle, histories), histories.length);
  });
});
