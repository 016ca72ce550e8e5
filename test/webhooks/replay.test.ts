/**
 * Determinism guard of the webhook delivery workflow (workflows/webhook.ts),
 * like test/payments/replay.test.ts for payments: fresh histories of every
 * path, and the committed generations in test/fixtures/histories/webhook/
 * (recorded from earlier code with RECORD_WEBHOOK_HISTORIES=v<n>), are
 * replayed against the current workflow code. Deliveries run for days, so a
 * change that breaks one in flight fails here.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { recordEvent } from '../../src/db/events.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import { webhookTaskQueue, type WebhookDeliveryInput } from '../../src/domain/webhook-delivery.ts';
import type { WebhookEndpoint } from '../../src/domain/webhook-schemas.ts';
import { committedHistories, recordFixture, replayAll, type NamedHistory } from '../support/replay.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { startReceiver } from '../support/receiver.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories', 'webhook');

/** The receiver's answers of each path, by attempt (1-based). */
const PATHS: Record<string, (attempt: number) => number> = {
  succeeded: () => 200,
  retried: (attempt) => (attempt < 3 ? 500 : 200),
  gone: () => 410,
  exhausted: () => 500,
};

describe('webhook delivery workflow determinism (replay)', () => {
  const fresh: NamedHistory[] = [];

  before(async function () {
    this.timeout(120_000);
    const h = await getHarness();
    for (const [path, answer] of Object.entries(PATHS)) {
      const merchant = await newMerchant();
      const receiver = await startReceiver();
      try {
        receiver.respond = ({ count }) => answer(count);
        const created = await client(h.baseUrl, merchant.key).post<{
          webhook_endpoint: WebhookEndpoint;
          secret: string;
        }>('/webhook_endpoints', { url: receiver.url });
        assert.equal(created.status, 201, created.text);
        receiver.secrets.push(created.body.secret);
        const event = await h.db.transaction().execute((trx) =>
          recordEvent(trx, {
            sourceKey: `replay:${randomUUID()}`,
            owner: tenantOf(merchant.merchantId, 'test'),
            type: 'payment.paid',
            objectId: randomUUID(),
            data: {},
            at: new Date(),
          }),
        );
        const input: WebhookDeliveryInput = {
          event_id: event.id,
          endpoint_id: created.body.webhook_endpoint.id,
          schedule_ms: [0, 200, 200],
          timeout_ms: 2_000,
        };
        const workflowId = `webhook-replay-${path}-${randomUUID()}`;
        await h.temporal.client.workflow.execute('webhookDeliveryWorkflow', {
          taskQueue: webhookTaskQueue(h.config.TEMPORAL_TASK_QUEUE),
          workflowId,
          args: [input],
        });
        const history = await h.temporal.client.workflow.getHandle(workflowId).fetchHistory();
        fresh.push({ workflowId: path, history });
        recordFixture(FIXTURES, 'RECORD_WEBHOOK_HISTORIES', path, history);
      } finally {
        await receiver.close();
      }
    }
  });

  it('replays a fresh history of every path with the current code', async () => {
    const h = await getHarness();
    assert.equal(await replayAll(h.bundle, fresh), Object.keys(PATHS).length);
  });

  it('replays the committed histories recorded from earlier code', async () => {
    const h = await getHarness();
    const histories = committedHistories(FIXTURES);
    assert.ok(
      histories.length >= 2 * Object.keys(PATHS).length,
      'both generations are committed: v1 (payment task queue) and v2 (own queue, disabling)',
    );
    assert.equal(await replayAll(h.bundle, histories), histories.length);
  });
});
