/**
 * What bounds a worker process's memory (docs/OPERATIONS.md#a-workers-memory),
 * said once when it starts: the V8 heap limit each of its isolates has (its main
 * thread and the Temporal SDK's workflow thread, which holds the cached
 * workflows), the workflows it caches, its MySQL pool, and whether the heap
 * can hold that cache.
 */
import { getHeapStatistics } from 'node:v8';
import type { Config } from '../config.ts';

/**
 * The workflow thread's heap per cached payment workflow, and its own before any (the bundle):
 * measured with 0 to 3 000 payment workflows cached (docs/OPERATIONS.md#a-workers-memory).
 */
export const WORKFLOW_HEAP_MB_PER_CACHED = 0.12;
export const WORKFLOW_HEAP_BASE_MB = 55;

export interface WorkerMemoryBounds {
  /** V8's heap limit of each isolate, in MiB. */
  heap_limit_mb: number;
  /** Whether an operator set it (--max-old-space-size), or V8 sized it from the machine's memory. */
  heap_limit_set: boolean;
  max_cached_workflows: number;
  database_pool_size: number;
  /** What the workflow thread's heap needs for a full cache. */
  cache_heap_mb: number;
  /** Said when the configuration leaves memory to the machine, or the cache does not fit the heap. */
  problems: string[];
}

/** The Temporal SDK's own cache size for a heap limit (reuseV8Context, its default): 600 per GiB above 200 MiB, at least 10. */
export function sdkDefaultCachedWorkflows(heapLimitMb: number): number {
  return Math.max(Math.floor((Math.max(heapLimitMb - 200, 0) * 600) / 1024), 10);
}

export function workerMemoryBounds(
  config: Pick<Config, 'WORKER_MAX_CACHED_WORKFLOWS' | 'DATABASE_POOL_SIZE'>,
  heapLimitMb = getHeapStatistics().heap_size_limit / 1_048_576,
  flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`,
): WorkerMemoryBounds {
  const heapSet = /--max-old-space-size/.test(flags);
  const cached =
    config.WORKER_MAX_CACHED_WORKFLOWS === 0
      ? sdkDefaultCachedWorkflows(heapLimitMb)
      : config.WORKER_MAX_CACHED_WORKFLOWS;
  const cacheHeap = Math.round(WORKFLOW_HEAP_BASE_MB + cached * WORKFLOW_HEAP_MB_PER_CACHED);
  const problems: string[] = [];
  if (!heapSet)
    problems.push(
      `no heap limit was set (NODE_OPTIONS=--max-old-space-size): V8 sized it from the machine's memory (${Math.round(heapLimitMb)} MiB) and collects lazily below it, so memory follows the machine, not the configuration`,
    );
  if (config.WORKER_MAX_CACHED_WORKFLOWS === 0)
    problems.push(`WORKER_MAX_CACHED_WORKFLOWS=0: the cache is sized from the heap limit (${cached} workflows)`);
  if (cacheHeap > heapLimitMb * 0.8)
    problems.push(
      `a full cache of ${cached} workflows needs about ${cacheHeap} MiB of the workflow thread's ${Math.round(heapLimitMb)} MiB heap: lower WORKER_MAX_CACHED_WORKFLOWS or raise --max-old-space-size`,
    );
  return {
    heap_limit_mb: Math.round(heapLimitMb),
    heap_limit_set: heapSet,
    max_cached_workflows: cached,
    database_pool_size: config.DATABASE_POOL_SIZE,
    cache_heap_mb: cacheHeap,
    problems,
  };
}
