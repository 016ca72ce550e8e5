/** The webhook delivery workflow, with a fake deliverWebhook activity. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import {
  webhookDeliveryWorkflowId,
  type DeliveryOutcome,
  type WebhookDeliveryInput,
} from '../../src/domain/webhook-delivery.ts';
import type { webhookDeliveryWorkflow, WebhookDeliveryResult } from '../../workflows/webhook.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities } from '../support/workflows/fakes.ts';
import { timersStarted } from '../support/workflows/history.ts';

interface Delivery {
  result: WebhookDeliveryResult;
  input: WebhookDeliveryInput;
  workflowId: string;
  timers: number[];
}

/** Runs one delivery to the end; `schedule_ms` zeros make attempts follow each other at once. */
async function deliver(fakes: FakeActivities, schedule_ms: number[]): Promise<Delivery> {
  return withWorker(fakes.activities, async ({ client, taskQueue }) => {
    const input: WebhookDeliveryInput = {
      event_id: randomUUID(),
      endpoint_id: randomUUID(),
      schedule_ms,
      timeout_ms: 5_000,
    };
    const workflowId = webhookDeliveryWorkflowId(input.event_id, input.endpoint_id);
    const handle = await client.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
      taskQueue,
      workflowId,
      args: [input],
    });
    const result = await handle.result();
    return { result, input, workflowId, timers: await timersStarted(handle) };
  });
}

const answering = (fakes: FakeActivities, ...outcomes: DeliveryOutcome[]) =>
  fakes.on('deliverWebhook', async (_, call) => {
    const outcome = outcomes[call - 1];
    if (outcome === undefined) throw new Error(`no answer for call ${call}`);
    return outcome;
  });

concurrently('the webhook delivery workflow', (it) => {
  before(async function () {
    this.timeout(600_000); // a first run may build the Temporal CLI
    await prepareWorkflowTests();
  });

  it('attempts again after a failed attempt, with the same delivery_id and the next attempt number, until one succeeds', async () => {
    const fakes = answering(new FakeActivities(), 'failed', 'failed', 'succeeded');
    const { result, input, workflowId } = await deliver(fakes, [0, 0, 0, 0, 0]);
    assert.equal(result, 'succeeded');
    assert.deepEqual(
      fakes.calls('deliverWebhook'),
      [1, 2, 3].map((attempt) => ({
        event_id: input.event_id,
        endpoint_id: input.endpoint_id,
        delivery_id: workflowId,
        attempt,
        timeout_ms: 5_000,
      })),
    );
  });

  it('waits each scheduled time, as a durable timer, before its attempt', async () => {
    const fakes = answering(new FakeActivities(), 'failed', 'succeeded');
    const { result, timers } = await deliver(fakes, [0, 250, 10_000]);
    assert.equal(result, 'succeeded');
    assert.deepEqual(timers, [250], 'none for the immediate first attempt, none after the success');
  });

  it('stops when the endpoint is gone', async () => {
    const fakes = answering(new FakeActivities(), 'failed', 'endpoint_gone');
    const { result } = await deliver(fakes, [0, 0, 0, 0, 0]);
    assert.equal(result, 'endpoint_gone');
    assert.deepEqual(
      fakes.calls('deliverWebhook').map((c) => c.attempt),
      [1, 2],
    );
  });

  it('ends exhausted when every scheduled attempt failed', async () => {
    const fakes = answering(new FakeActivities(), 'failed', 'failed', 'failed', 'failed');
    const { result } = await deliver(fakes, [0, 0, 0, 0]);
    assert.equal(result, 'exhausted');
    assert.deepEqual(
      fakes.calls('deliverWebhook').map((c) => c.attempt),
      [1, 2, 3, 4],
    );
  });

  it('moves on to the next scheduled attempt when an attempt could not run at all', async () => {
    const fakes = new FakeActivities().on('deliverWebhook', async (_, call) => {
      if (call === 1) throw ApplicationFailure.nonRetryable('the attempt could not be recorded', 'mysql_unavailable');
      return 'succeeded';
    });
    const { result } = await deliver(fakes, [0, 0, 0]);
    assert.equal(result, 'succeeded');
    assert.deepEqual(
      fakes.calls('deliverWebhook').map((c) => c.attempt),
      [1, 2],
    );
  });

  it('ends exhausted when the last scheduled attempt could not run', async () => {
    const fakes = new FakeActivities().on('deliverWebhook', async () => {
      throw ApplicationFailure.nonRetryable('the attempt could not be recorded', 'mysql_unavailable');
    });
    const { result } = await deliver(fakes, [0, 0]);
    assert.equal(result, 'exhausted');
    assert.deepEqual(
      fakes.calls('deliverWebhook').map((c) => c.attempt),
      [1, 2],
    );
  });

  it('retries an attempt whose activity failed for a passing reason, as the same attempt', async () => {
    const fakes = new FakeActivities().on('deliverWebhook', async (_, call) => {
      if (call === 1) throw new Error('connect ECONNREFUSED 127.0.0.1:3306');
      return 'succeeded';
    });
    const { result } = await deliver(fakes, [0, 0]);
    assert.equal(result, 'succeeded');
    assert.deepEqual(
      fakes.calls('deliverWebhook').map((c) => c.attempt),
      [1, 1],
    );
  });
});
