/**
 * The mandate workflow (workflows/mandate.ts) with fake activities: once an active mandate ends, by
 * the merchant's cancel or at its expiry, it ends the mandate's subscriptions with the matching reason
 * (the patch mandate-ends-subscriptions), and the cancel answers only after that step. Their histories
 * are the mandate workflow's replay fixtures (RECORD_MANDATE_HISTORIES=v<n>, test/fixtures/histories/mandate/),
 * replayed by test/workflows/replay.test.ts: the patch's new path, committed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  MANDATE_CANCEL_UPDATE,
  MANDATE_RETURN_UPDATE,
  mandateWorkflowId,
  type MandateWorkflowInput,
} from '../../src/domain/mandate-workflow.ts';
import type { mandateWorkflow } from '../../workflows/mandate.ts';
import { recordFixture } from '../support/replay.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities } from '../support/workflows/fakes.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories', 'mandate');

const input = (id: string, expiresInMs: number): MandateWorkflowInput => ({
  mandate_id: id,
  expires_at_ms: Date.now() + expiresInMs,
  signing_window_ms: 3_600_000,
  provider_return_url: `https://gateway.example/mandates/${id}/return`,
});

concurrently('the mandate workflow', (it) => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  it("the merchant's cancel ends the mandate, then its subscriptions (mandate_canceled), then answers", async () => {
    let releaseSubscriptions!: () => void;
    const subscriptionsEnded = new Promise<void>((r) => (releaseSubscriptions = r));
    const fakes = new FakeActivities().on('endMandateSubscriptions', async () => {
      await subscriptionsEnded;
      return 2;
    });
    const id = randomUUID();
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<typeof mandateWorkflow>('mandateWorkflow', {
        taskQueue,
        workflowId: mandateWorkflowId(id),
        args: [input(id, 60 * 86_400_000)],
      });
      assert.equal(
        await handle.executeUpdate<string, [{ signed: boolean }]>(MANDATE_RETURN_UPDATE, { args: [{ signed: true }] }),
        'active',
      );
      let answered = false;
      const cancel = handle.executeUpdate<string, []>(MANDATE_CANCEL_UPDATE).then((status) => {
        answered = true;
        return status;
      });
      const deadline = Date.now() + 20_000;
      while (fakes.calls('endMandateSubscriptions').length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(fakes.calls('endMandateSubscriptions'), [{ mandate_id: id, reason: 'mandate_canceled' }]);
      assert.deepEqual(
        fakes.calls('endMandate').map((c) => c.to),
        ['canceled'],
        'the mandate was ended first',
      );
      assert.equal(answered, false, 'the cancel waits for the subscriptions');
      releaseSubscriptions();
      assert.equal(await cancel, 'canceled');
      assert.equal(await handle.result(), 'canceled');
      assert.equal(fakes.calls('cancelMandateAtProvider').length, 1);
      recordFixture(FIXTURES, 'RECORD_MANDATE_HISTORIES', 'canceled', await handle.fetchHistory());
    });
  });

  it('an expired mandate ends its subscriptions with mandate_expired', async () => {
    const fakes = new FakeActivities();
    const id = randomUUID();
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<typeof mandateWorkflow>('mandateWorkflow', {
        taskQueue,
        workflowId: mandateWorkflowId(id),
        args: [input(id, 3_000)],
      });
      assert.equal(
        await handle.executeUpdate<string, [{ signed: boolean }]>(MANDATE_RETURN_UPDATE, { args: [{ signed: true }] }),
        'active',
      );
      assert.equal(await handle.result(), 'expired');
      assert.deepEqual(fakes.calls('endMandateSubscriptions'), [{ mandate_id: id, reason: 'mandate_expired' }]);
      recordFixture(FIXTURES, 'RECORD_MANDATE_HISTORIES', 'expired', await handle.fetchHistory());
      assert.equal(fakes.calls('cancelMandateAtProvider').length, 0);
    });
  });
});
