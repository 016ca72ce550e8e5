/**
 * A workflow checks its record (docs/SECURITY.md, "Threats and their tests"): whoever reaches
 * Temporal can terminate a payment's workflow and start another with the same id and a forged
 * input (a live payment claimed as `test`, another amount, another merchant). The record
 * activities and the bank activities refuse every such call for good (`record_mismatch`, never
 * retried), the refusal is counted for the alert, and the payment's row is left as it was.
 */
import assert from 'node:assert/strict';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { createBankActivities } from '../../activities/bank.ts';
import { RECORD_MISMATCH } from '../../activities/payment-record.ts';
import { pspClientsFromConfig } from '../../src/psps/clients.ts';
import { PspHealthStore } from '../../src/db/psp-health.ts';
import { breakerSettings } from '../../src/domain/psp-breaker.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { PAYMENT_WORKFLOW, paymentWorkflowId, type PaymentWorkflowInput } from '../../src/domain/payment-workflow.ts';
import { recordMismatchRefusals } from '../../src/observability/metrics.ts';
import { bankOperations } from '../support/bank.ts';
import { getHarness, LIVE_BANK, liveBankApi, newMerchant } from '../support/harness.ts';
import { createdLivePayment, liveMerchant } from '../support/live.ts';
import { createdPayment } from '../support/payments.ts';

/** The input the API started the payment's workflow with, read from its history. */
async function startedInput(handle: WorkflowHandle): Promise<PaymentWorkflowInput> {
  const history = await handle.fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  assert.ok(payload, 'the workflow was started with an input');
  return defaultPayloadConverter.fromPayload<PaymentWorkflowInput>(payload);
}

/** The row's columns a forged workflow would change. */
async function recordOf(paymentId: string) {
  const h = await getHarness();
  return h.db
    .selectFrom('payments')
    .select(['status', 'version', 'mode', 'amount', 'reference_id', 'updated_at'])
    .where('id', '=', paymentId)
    .executeTakeFirstOrThrow();
}

async function refusals(activity: string): Promise<number> {
  const metric = await recordMismatchRefusals.get();
  return metric.values.find((v) => v.labels.activity === activity)?.value ?? 0;
}

/**
 * Terminates the payment's workflow and starts one with the same id and `forge(input)`, as an
 * intruder with Temporal's write actions would; answers the failure the new workflow ends with.
 */
async function restartForged(
  payment: Payment,
  forge: (input: PaymentWorkflowInput) => PaymentWorkflowInput,
): Promise<unknown> {
  const h = await getHarness();
  const handle = h.temporal.client.workflow.getHandle(paymentWorkflowId(payment.id));
  const input = await startedInput(handle);
  await handle.terminate('replaced by a forged input');
  const forged = await h.temporal.client.workflow.start(PAYMENT_WORKFLOW, {
    taskQueue: h.config.TEMPORAL_TASK_QUEUE,
    workflowId: paymentWorkflowId(payment.id),
    args: [forge(input)],
  });
  return forged.result().then(
    () => assert.fail('the forged workflow ran to its end'),
    (error: unknown) => error,
  );
}

/** The workflow failed because an activity was refused for good with `record_mismatch`. */
function assertRefusedForGood(error: unknown): void {
  assert.ok(error instanceof WorkflowFailedError, `the forged workflow failed (${String(error)})`);
  assert.ok(error.cause instanceof ActivityFailure, 'by an activity');
  const cause = error.cause.cause;
  assert.ok(cause instanceof ApplicationFailure, 'with an application failure');
  assert.equal(cause.type, RECORD_MISMATCH);
  assert.equal(cause.nonRetryable, true);
}

describe('a payment workflow checks its record', function () {
  this.timeout(90_000);

  it('a live payment restarted with "mode":"test" in its input: refused for good, counted, the row untouched', async () => {
    const { liveKey } = await liveMerchant();
    const payment = await createdLivePayment(await liveBankApi(), liveKey, 125_000);
    const before = await recordOf(payment.id);
    const counted = await refusals('announcePayment');

    const error = await restartForged(payment, (input) => ({ ...input, payment: { ...input.payment, mode: 'test' } }));

    assertRefusedForGood(error);
    // Once per attempt: the local attempt, then the activity it falls back to, each refused.
    assert.ok((await refusals('announcePayment')) > counted, 'the refusal is counted for the alert');
    assert.deepEqual(await recordOf(payment.id), before);
    assert.equal(before.mode, 'live');
    assert.deepEqual(
      [...(await bankOperations(payment.id)), ...(await bankOperations(payment.id, 'token'))],
      [],
      'no bank was asked for anything',
    );
  });

  it('a test payment restarted with another amount or another merchant: refused for good, the row untouched', async () => {
    const { key } = await newMerchant();
    const { merchantId: otherMerchant } = await newMerchant();
    const h = await getHarness();
    for (const forge of [
      (input: PaymentWorkflowInput) => ({ ...input, payment: { ...input.payment, amount: input.payment.amount * 10 } }),
      (input: PaymentWorkflowInput) => ({ ...input, merchant_id: otherMerchant }),
    ]) {
      const payment = await createdPayment(h.baseUrl, key, { amount: 50_000 });
      const before = await recordOf(payment.id);
      assertRefusedForGood(await restartForged(payment, forge));
      assert.deepEqual(await recordOf(payment.id), before);
    }
  });

  it('the bank activities choose the bank by the record: a call claiming another mode or amount reaches no bank', async () => {
    const h = await getHarness();
    const { liveKey } = await liveMerchant();
    const payment = await createdLivePayment(await liveBankApi(), liveKey, 80_000);
    const bank = createBankActivities({
      psps: pspClientsFromConfig({ ...h.config, ...LIVE_BANK() }),
      db: h.db,
      health: new PspHealthStore(h.db, breakerSettings(h.config)),
      logger: h.logger,
      config: h.config,
    });
    const counted = await refusals('requestBankToken');
    for (const claim of [
      { mode: 'test' as const, amount: 80_000 },
      { mode: 'live' as const, amount: 8_000 },
    ]) {
      await assert.rejects(
        bank.requestBankToken({
          payment_id: payment.id,
          ...claim,
          redirect_url: `${h.baseUrl}/pay/${payment.id}/return`,
        }),
        (error: unknown) => error instanceof ApplicationFailure && error.type === RECORD_MISMATCH && error.nonRetryable,
      );
    }
    await assert.rejects(
      bank.settleAtBank({ payment_id: payment.id, mode: 'test', ref_num: 'forged' }),
      (error: unknown) => error instanceof ApplicationFailure && error.type === RECORD_MISMATCH,
    );
    assert.equal(await refusals('requestBankToken'), counted + 2);
    assert.deepEqual(
      [...(await bankOperations(payment.id)), ...(await bankOperations(payment.id, 'token'))],
      [],
      'no bank was asked for anything',
    );
    // The record's own claim still reaches its bank.
    const token = await bank.requestBankToken({
      payment_id: payment.id,
      mode: 'live',
      amount: 80_000,
      redirect_url: `${h.baseUrl}/pay/${payment.id}/return`,
    });
    assert.ok(token.token.length > 0);
  });
});
