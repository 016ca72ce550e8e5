/**
 * The retention workflow with fake activities: each table of the plan in turn, batch after batch
 * until one comes back short or the run's most batches, counted per table. Its histories are the
 * retention replay fixtures (RECORD_RETENTION_HISTORIES=v<n>), replayed by replay.test.ts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  PRUNE_ORDER,
  RETENTION_WORKFLOW,
  type RetentionInput,
  type RetentionResult,
} from '../../src/domain/retention.ts';
import { recordFixture } from '../support/replay.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities, mysqlAway } from '../support/workflows/fakes.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories', 'retention');

describe('the retention workflow', () => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  it('prunes each table of the plan in batches until one comes back short, at most max_batches, and counts them', async () => {
    // Events have 2.5 batches waiting, sessions 1; rate-limit counters more than a run takes; the rest none.
    const waiting: Record<string, number> = { events: 25, user_sessions: 10, rate_limit_counters: 1_000 };
    const fakes = new FakeActivities().on('pruneRetentionBatch', async ({ table, batch_size }) => {
      const deleted = Math.min(batch_size, waiting[table] ?? 0);
      waiting[table] = (waiting[table] ?? 0) - deleted;
      return deleted;
    });
    const input: RetentionInput = { batch_size: 10, max_batches: 4 };
    const result = await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<(i: RetentionInput) => Promise<RetentionResult>>(RETENTION_WORKFLOW, {
        workflowId: 'retention-test',
        taskQueue,
        args: [input],
      });
      const outcome = await handle.result();
      recordFixture(FIXTURES, 'RECORD_RETENTION_HISTORIES', 'pruned', await handle.fetchHistory());
      return outcome;
    });
    assert.deepEqual(
      result,
      Object.fromEntries(
        PRUNE_ORDER.map((t) => [t, { events: 25, user_sessions: 10, rate_limit_counters: 40 }[t as string] ?? 0]),
      ),
    );
    const batches = fakes.calls('pruneRetentionBatch').map((c) => c.table);
    assert.deepEqual([...new Set(batches)], [...PRUNE_ORDER], "one table after another, in the plan's order");
    assert.equal(batches.filter((t) => t === 'events').length, 3, 'two full batches, then a short one');
    assert.equal(batches.filter((t) => t === 'user_sessions').length, 2, 'a full batch, then an empty one');
    assert.equal(batches.filter((t) => t === 'rate_limit_counters').length, 4, 'max_batches, the rest next run');
    assert.ok(fakes.calls('pruneRetentionBatch').every((c) => c.batch_size === 10));
  });

  it('a batch that keeps failing fails the run, after the tables before it were pruned; the next run starts over', async function () {
    this.timeout(120_000);
    const fakes = new FakeActivities().on('pruneRetentionBatch', async ({ table }) => {
      if (table === 'events') throw mysqlAway();
      return 0;
    });
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<(i: RetentionInput) => Promise<RetentionResult>>(RETENTION_WORKFLOW, {
        workflowId: 'retention-failing',
        taskQueue,
        args: [{ batch_size: 10, max_batches: 4 }],
      });
      await assert.rejects(handle.result());
      recordFixture(FIXTURES, 'RECORD_RETENTION_HISTORIES', 'failed', await handle.fetchHistory());
    });
    const tables = fakes.calls('pruneRetentionBatch').map((c) => c.table);
    assert.deepEqual(tables.slice(0, 2), ['idempotency_keys', 'webhook_attempts']);
    assert.equal(tables.filter((t) => t === 'events').length, 5, 'retried a few times, then left to the next run');
    assert.ok(!tables.includes('user_sessions'));
  });
});
