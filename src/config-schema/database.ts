/**
 * The settings of the stores every process runs on (src/config-schema.ts): MySQL, its URLs, its pool
 * and the bounds on a query and on a wait for a connection; Temporal, its frontend, namespace, task
 * queue and the retention of closed histories; and the worker's cache of workflows. With the defaults
 * src/db/database.ts uses when it is given none, so the pool and the settings' table agree.
 */
import { Type } from '@sinclair/typebox';
import { Int } from './setting.ts';

/** Bounds on one MySQL query and on waiting for a pooled connection (src/db/database.ts uses them by default). */
export const DEFAULT_DATABASE_QUERY_TIMEOUT_MS = 5_000;
export const DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS = 3_000;
/** Payment workflows one worker keeps cached (WORKER_MAX_CACHED_WORKFLOWS): docs/OPERATIONS.md#a-workers-memory. */
// 2 000: a verify of a workflow evicted from the cache replays it first, and a worker with more payments in
// flight than it caches replays on nearly every step (docs/BENCHMARKS.md: verifies 25/s with 500 cached against
// 42/s with all cached, 3 000 payments in flight); 2 000 needs about 295 MiB of the deployments' 512 MiB heap.
export const DEFAULT_WORKER_MAX_CACHED_WORKFLOWS = 2_000;
/** Connections of one process's MySQL pool (DATABASE_POOL_SIZE); src/db/database.ts uses it by default. */
export const DEFAULT_DATABASE_POOL_SIZE = 20;

/** MySQL (its URLs, its pool, the bounds on a query and on a wait for a connection) and Temporal (its frontend, namespace, task queue, retention). */
export const databaseSettings = {
  DATABASE_URL: Type.String({
    default: 'mysql://root@127.0.0.1:3306/dargah',
    pattern: '^mysql://',
    description: 'MySQL/MariaDB connection URL, database included',
  }),
  MIGRATE_DATABASE_URL: Type.String({
    default: '',
    pattern: '^(mysql://.*)?$',
    description:
      "npm run migrate: the MySQL user that owns the schema (DDL and the ledger's triggers), so the DATABASE_URL user needs only SELECT, INSERT, UPDATE and DELETE (deploy/mysql-init/01-users.sh); the same database as DATABASE_URL. Empty: DATABASE_URL (development)",
  }),
  DATABASE_QUERY_TIMEOUT_MS: Int({
    default: DEFAULT_DATABASE_QUERY_TIMEOUT_MS,
    minimum: 0,
    maximum: 600_000,
    description:
      'longest a MySQL query may go unanswered before its connection is dropped and the request answers 503 (a hung server, a long lock wait); 0: no limit (npm run migrate uses none)',
  }),
  DATABASE_ACQUIRE_TIMEOUT_MS: Int({
    default: DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
    minimum: 0,
    maximum: 600_000,
    description:
      'longest a request waits for a connection of the MySQL pool (all busy, or the server does not complete new ones) before it answers 503; 0: no limit',
  }),
  DATABASE_POOL_SIZE: Int({
    default: DEFAULT_DATABASE_POOL_SIZE,
    minimum: 1,
    maximum: 1_000,
    description:
      'the most MySQL connections one API or worker process opens; more queries wait for one (up to DATABASE_ACQUIRE_TIMEOUT_MS). Each costs the process its buffers and MySQL a thread: with N processes, MySQL needs max_connections above N times this (docs/OPERATIONS.md#a-workers-memory)',
  }),
  TEMPORAL_ADDRESS: Type.String({
    default: '127.0.0.1:7233',
    pattern: '^[^\\s:/]+:[0-9]+$',
    description: 'host:port of the Temporal frontend',
  }),
  TEMPORAL_NAMESPACE: Type.String({ default: 'default', minLength: 1, description: 'Temporal namespace' }),
  TEMPORAL_TASK_QUEUE: Type.String({
    default: 'payments',
    minLength: 1,
    description: 'task queue of the payment worker',
  }),
  TEMPORAL_NAMESPACE_RETENTION_DAYS: Int({
    default: 7,
    minimum: 1,
    maximum: 3650,
    description:
      "how long Temporal keeps a closed workflow's history (docs/RETENTION.md#temporal): npm start's dev server and the cluster suite set their namespace to it, a deployment sets it where it creates the namespace (the Helm values, docker-compose.yml); a worker warns at start when its namespace keeps histories for another period",
  }),
};

/** The worker's sticky cache of payment workflows (docs/OPERATIONS.md#a-workers-memory). */
export const workerCacheSettings = {
  WORKER_MAX_CACHED_WORKFLOWS: Int({
    default: DEFAULT_WORKER_MAX_CACHED_WORKFLOWS,
    minimum: 0,
    maximum: 100_000,
    description:
      "worker: payment workflows kept in memory between their tasks (the Temporal SDK's sticky cache; one evicted is replayed from its short history at its next task). With the heap limit (NODE_OPTIONS=--max-old-space-size) it bounds the worker's memory: docs/OPERATIONS.md#a-workers-memory. 0: the SDK's own sizing from the heap limit (about 600 per GiB)",
  }),
};
