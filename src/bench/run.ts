/**
 * The benchmark's measurements, over services someone else started: the
 * stack of `npm run bench` (src/bench/main.ts), or the test suite's harness
 * on tiny numbers. Scenarios, the durable baseline in the same run, and
 * scale: open payment workflows against worker memory and create latency.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { closedLoop, durableCreate, type BaselineResult, type DurableCreateDeps } from './durable.ts';
import { createScenario, fullFlowScenario, verifyScenario, type ScenarioResult, type Target } from './load.ts';

export interface BenchPlan {
  /** Concurrent HTTP connections (and in-flight baseline operations). */
  connections: number;
  /** Creates sent before measuring, so JIT and pools are warm; not reported. */
  warmup: number;
  create: number;
  verify: number;
  /** Payments taken through the whole flow. */
  fullFlow: number;
  /** Upper bound on any one scenario. */
  maxSeconds: number;
  /** Open payment workflows at which worker memory and create latency are sampled. */
  scaleCheckpoints: number[];
  /** Creates per scale checkpoint. */
  scaleProbe: number;
  /** In-flight durable creates while opening payments between checkpoints. */
  fillConcurrency: number;
}

export const QUICK_PLAN: BenchPlan = {
  connections: 10,
  warmup: 300,
  create: 2_000,
  verify: 1_000,
  fullFlow: 500,
  maxSeconds: 60,
  scaleCheckpoints: [1_000, 5_000, 10_000],
  scaleProbe: 500,
  fillConcurrency: 20,
};

export const FULL_PLAN: BenchPlan = {
  ...QUICK_PLAN,
  create: 10_000,
  verify: 3_000,
  fullFlow: 2_000,
  maxSeconds: 120,
  scaleCheckpoints: [1_000, 5_000, 10_000, 25_000, 50_000, 100_000],
  scaleProbe: 1_000,
};

export interface ScalePoint {
  open_payments: number;
  worker_rss_mb: number;
  /** The Temporal dev server's memory, when the benchmark started it. */
  temporal_rss_mb?: number;
  create_rps: number;
  create_p50_ms: number;
  create_p99_ms: number;
  create_errors: number;
  /** How fast the durable path opened the payments since the last checkpoint. */
  fill_rps: number;
}

export interface BenchReport {
  scenarios: ScenarioResult[];
  baseline: BaselineResult;
  /** create rps / baseline rps. */
  create_to_baseline: number;
  scale: ScalePoint[];
}

export interface BenchServices extends DurableCreateDeps {
  target: Target;
  /** The worker process whose memory the scale phase reports. */
  workerPid: number;
  temporalPid?: number;
  log: (line: string) => void;
}

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? 0 : Math.round(Number(match[1]) / 1024);
}

const OPEN_STATUSES = ['created', 'pending', 'paid', 'verified', 'partially_refunded'];

/** Payments whose workflow is still running: waiting on the page, deadline or refund-window timer. */
export async function openPayments(db: Db): Promise<number> {
  const row = await db.selectFrom('payments').select(sql<number>`count(*)`.as('n')).where('status', 'in', OPEN_STATUSES).executeTakeFirstOrThrow();
  return Number(row.n);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until the worker has taken every workflow task queued so far. */
async function waitForDrainedQueue(temporal: Client, config: Config, maxSeconds: number): Promise<void> {
  const deadline = Date.now() + maxSeconds * 1000;
  while (Date.now() < deadline) {
    const description = await temporal.workflowService.describeTaskQueue({
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: { name: config.TEMPORAL_TASK_QUEUE },
      taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      reportStats: true,
    });
    const backlog = Number(description.stats?.approximateBacklogCount ?? 0);
    if (backlog === 0) return;
    await pause(500);
  }
}

/** Paid payments for verify: opened on the durable path, paid through the bank simulator (the test helper's real path), waited for in MySQL. */
async function paidPayments(services: BenchServices, count: number, plan: BenchPlan): Promise<string[]> {
  const ids: string[] = [];
  await closedLoop(
    async () => {
      const id = await durableCreate(services);
      // Preparation, not a measured scenario: a 503 (a busy machine past the gateway's bound on
      // a Temporal call) is retried after Retry-After, as any client would.
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(`${services.target.baseUrl}/api/v1/test_helpers/payments/${id}/bank_outcome`, {
          method: 'POST',
          headers: { authorization: `Bearer ${services.target.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ outcome: 'success' }),
        });
        if (res.status === 200) break;
        const text = await res.text();
        if (res.status !== 503 || attempt === 60) throw new Error(`bank_outcome answered ${res.status}: ${text}`);
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
      }
      ids.push(id);
    },
    count,
    plan.fillConcurrency,
    plan.maxSeconds * 2,
  );
  const deadline = Date.now() + plan.maxSeconds * 2000;
  for (;;) {
    const row = await services.db
      .selectFrom('payments')
      .select(sql<number>`count(*)`.as('n'))
      .where('id', 'in', ids)
      .where('status', '=', 'paid')
      .executeTakeFirstOrThrow();
    if (Number(row.n) === ids.length) return ids;
    if (Date.now() > deadline) throw new Error(`only ${String(row.n)} of ${ids.length} payments became paid within the time bound`);
    await pause(250);
  }
}

export async function runBenchmark(services: BenchServices, plan: BenchPlan): Promise<BenchReport> {
  const { target, log } = services;
  const bounds = (amount: number) => ({ connections: plan.connections, amount, maxSeconds: plan.maxSeconds });

  log(`warm-up: ${plan.warmup} creates`);
  await createScenario(target, bounds(plan.warmup), 'warmup');

  // Scale first, from an empty server: the scenarios then run on top of the open payments it leaves.
  const scale: ScalePoint[] = [];
  for (const checkpoint of plan.scaleCheckpoints) {
    const open = await openPayments(services.db);
    const missing = Math.max(0, checkpoint - open);
    log(`scale: opening ${missing} more payments to reach ${checkpoint} open`);
    // Filling is bounded by count; at a few hundred a second even 100k takes minutes, not hours.
    const fill = await closedLoop(() => durableCreate(services), missing, plan.fillConcurrency, Math.max(plan.maxSeconds, missing / 20));
    await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds * 2);
    const workerRss = rssMb(services.workerPid);
    const probe = await createScenario(target, bounds(plan.scaleProbe), 'scale_probe');
    scale.push({
      open_payments: await openPayments(services.db),
      worker_rss_mb: workerRss,
      ...(services.temporalPid === undefined ? {} : { temporal_rss_mb: rssMb(services.temporalPid) }),
      create_rps: probe.rps,
      create_p50_ms: probe.p50_ms,
      create_p99_ms: probe.p99_ms,
      create_errors: probe.errors,
      fill_rps: fill.rps,
    });
    log(`scale: ${JSON.stringify(scale.at(-1))}`);
  }

  log(`baseline: ${plan.create} durable creates (MySQL insert + workflow start), ${plan.connections} in flight`);
  const baseline = await closedLoop(() => durableCreate(services), plan.create, plan.connections, plan.maxSeconds);
  await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);

  log(`create: ${plan.create} POST /api/v1/payments over ${plan.connections} connections`);
  const create = await createScenario(target, bounds(plan.create));
  await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);

  log(`verify: preparing ${plan.verify} paid payments`);
  const paid = await paidPayments(services, plan.verify + plan.connections, plan);
  log(`verify: ${plan.verify} POST /api/v1/payments/{id}/verify`);
  const verify = await verifyScenario(target, paid, bounds(plan.verify));
  await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);

  log(`full_flow: ${plan.fullFlow} payments through create, payment page, test bank and verify`);
  const fullFlow = await fullFlowScenario(target, bounds(plan.fullFlow));
  await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);

  return {
    scenarios: [create, verify, fullFlow],
    baseline,
    create_to_baseline: baseline.rps === 0 ? 0 : Math.round((create.rps / baseline.rps) * 100) / 100,
    scale,
  };
}
