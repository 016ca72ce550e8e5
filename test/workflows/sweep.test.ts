/**
 * The stuck-records sweep's workflow with fake activities: each kind of record is sent on once per
 * run, with the run's bound and batch, and one kind's failure does not stop the next run. Its
 * history is the sweep's replay fixture (RECORD_SWEEP_HISTORIES=v<n>), replayed by replay.test.ts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { STUCK_SWEEP_WORKFLOW, type StuckSweepInput, type StuckSweepResult } from '../../src/domain/waiting-states.ts';
import { recordFixture } from '../support/replay.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities, mysqlAway } from '../support/workflows/fakes.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories', 'sweep');
const INPUT: StuckSweepInput = { after_ms: 600_000, batch_size: 100 };

describe('the stuck-records sweep workflow', () => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  it('sends each kind of stuck record on once, with the bound and the batch, and counts them', async () => {
    const fakes = new FakeActivities()
      .on('sendOnPendingRefunds', async () => 3)
      .on('startMissingDeliveries', async () => 2)
      .on('askUnansweredPayouts', async () => 1);
    const result = await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<(i: StuckSweepInput) => Promise<StuckSweepResult>>(
        STUCK_SWEEP_WORKFLOW,
        { workflowId: 'stuck-records-sweep-test', taskQueue, args: [INPUT] },
      );
      const outcome = await handle.result();
      recordFixture(FIXTURES, 'RECORD_SWEEP_HISTORIES', 'swept', await handle.fetchHistory());
      return outcome;
    });
    assert.deepEqual(result, { refunds: 3, events: 2, payouts: 1 });
    for (const name of ['sendOnPendingRefunds', 'startMissingDeliveries', 'askUnansweredPayouts'] as const)
      assert.deepEqual(fakes.calls(name), [INPUT], name);
  });

  it('a kind whose activity keeps failing fails the run, after the kinds before it were sent on', async function () {
    this.timeout(120_000);
    const fakes = new FakeActivities().on('startMissingDeliveries', async () => {
      throw mysqlAway();
    });
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<(i: StuckSweepInput) => Promise<StuckSweepResult>>(
        STUCK_SWEEP_WORKFLOW,
        { workflowId: 'stuck-records-sweep-failing', taskQueue, args: [INPUT] },
      );
      await assert.rejects(handle.result());
      recordFixture(FIXTURES, 'RECORD_SWEEP_HISTORIES', 'failed', await handle.fetchHistory());
    });
    assert.equal(fakes.calls('sendOnPendingRefunds').length, 1);
    assert.equal(fakes.calls('startMissingDeliveries').length, 5, 'retried a few times, then left to the next run');
    assert.equal(fakes.calls('askUnansweredPayouts').length, 0);
  });
});
