import assert from 'node:assert/strict';
import { sdkDefaultCachedWorkflows, workerMemoryBounds } from '../../src/main/memory-bounds.ts';

describe("a worker's memory bounds, said at its start", () => {
  it('takes the cache from WORKER_MAX_CACHED_WORKFLOWS and the heap limit from --max-old-space-size, and says nothing more when both are set and fit', () => {
    const bounds = workerMemoryBounds(
      { WORKER_MAX_CACHED_WORKFLOWS: 500, DATABASE_POOL_SIZE: 20 },
      560,
      '--max-old-space-size=512',
    );
    assert.deepEqual(
      [bounds.heap_limit_mb, bounds.heap_limit_set, bounds.max_cached_workflows, bounds.database_pool_size],
      [560, true, 500, 20],
    );
    assert.deepEqual(bounds.problems, []);
  });

  it('says when memory is left to the machine: no heap limit set, or the cache sized by the SDK from the heap', () => {
    const bounds = workerMemoryBounds({ WORKER_MAX_CACHED_WORKFLOWS: 0, DATABASE_POOL_SIZE: 20 }, 4144, '');
    assert.equal(bounds.max_cached_workflows, sdkDefaultCachedWorkflows(4144));
    assert.equal(sdkDefaultCachedWorkflows(4144), 2310);
    assert.equal(bounds.problems.length, 2);
    assert.match(bounds.problems[0]!, /no heap limit was set/);
    assert.match(bounds.problems[1]!, /WORKER_MAX_CACHED_WORKFLOWS=0/);
  });

  it('says when a full cache would not fit the heap', () => {
    const bounds = workerMemoryBounds(
      { WORKER_MAX_CACHED_WORKFLOWS: 20_000, DATABASE_POOL_SIZE: 20 },
      560,
      '--max-old-space-size=512',
    );
    assert.equal(bounds.problems.length, 1);
    assert.match(bounds.problems[0]!, /lower WORKER_MAX_CACHED_WORKFLOWS or raise --max-old-space-size/);
  });
});
