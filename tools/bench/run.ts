/**
 * The benchmark's measurements, over services someone else started: the
 * stack of `npm run bench` (tools/bench/main.ts), or the test suite's harness
 * on tiny numbers. Scenarios, the durable baseline in the same run, the work
 * per payment (counted from the full flow's histories), fixed-rate latency,
 * and scale: open workflows, memory and create latency after simulated days
 * of mixed traffic.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { Config } from '../../src/config.ts';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import { DEFAULT_DAY_MIX, endPreviousDay, paymentsByStage, simulateDay, type DayMix } from './day.ts';
import {
  closedLoop,
  durableCreate,
  mergeBaselines,
  timedClosedLoop,
  type BaselineResult,
  type DurableCreateDeps,
} from './durable.ts';
import { addedCpu, cpuPerOperation, cpuSnapshot, type CpuPerOperation, type CpuSnapshot } from './cpu.ts';
import { fixedRateScenario, type FixedRateResult, type FixedRates } from './fixed-rate.ts';
import {
  createScenario,
  fullFlowScenario,
  mergeScenarios,
  prepareCall,
  verifyScenario,
  type LoadBounds,
  type ScenarioResult,
  type Target,
} from './load.ts';
import { meanHistoryCounts, openWorkflows, otherWorkflowsStarted, type HistoryCounts } from './work.ts';

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
  /**
   * Payments the scale phase has made by each checkpoint; the payments since
   * the last one are a simulated day of mixed traffic, after which open
   * workflows, memory and create latency are sampled.
   */
  scaleCheckpoints: number[];
  /** How the day's payments end. */
  scaleMix: DayMix;
  /** Payments of each day left on the payment page when it ends (the payments in flight). */
  scaleInFlight: number;
  /** Creates per scale checkpoint. */
  scaleProbe: number;
  /** Payments in progress at once while a day is simulated (and paid payments prepared). */
  fillConcurrency: number;
  /** The fixed-rate scenario's rates, run side by side. */
  fixedRates: FixedRates;
  fixedRateSeconds: number;
}

export const QUICK_PLAN: BenchPlan = {
  connections: 10,
  warmup: 300,
  create: 2_000,
  verify: 1_000,
  fullFlow: 500,
  maxSeconds: 60,
  scaleCheckpoints: [1_000, 2_000, 3_000],
  scaleMix: DEFAULT_DAY_MIX,
  scaleInFlight: 100,
  scaleProbe: 500,
  fillConcurrency: 20,
  fixedRates: { create: 50, verify: 25 },
  fixedRateSeconds: 20,
};

export const FULL_PLAN: BenchPlan = {
  ...QUICK_PLAN,
  create: 10_000,
  verify: 3_000,
  fullFlow: 2_000,
  maxSeconds: 120,
  scaleCheckpoints: [2_000, 5_000, 10_000, 20_000, 40_000],
  scaleProbe: 1_000,
  fixedRateSeconds: 60,
};

export interface ScalePoint {
  /** Payments the scale phase has made so far (the days' mixed traffic; not the probes). */
  payments: number;
  /** The merchant's payments ever verified (verified, partially refunded, refunded): what accumulates day by day. */
  verified_payments: number;
  /** The merchant's payments still in flight (created, pending, paid). */
  in_flight: number;
  /** Running workflows on the Temporal server (visibility), all types. */
  open_workflows: number;
  open_workflows_by_type: Record<string, number>;
  worker_rss_mb: number;
  /** The Temporal dev server's memory, when the benchmark started it. */
  temporal_rss_mb?: number;
  create_rps: number;
  create_p50_ms: number;
  create_p99_ms: number;
  create_errors: number;
  /** Payments of the day per second (each taken to its end). */
  fill_rps: number;
}

/** The work of one payment through the full flow: counts from its durable history, CPU per verified payment. */
export interface PerPayment extends HistoryCounts {
  /** Payments whose histories were counted: every payment full_flow verified. */
  payments_counted: number;
  /** Worker process CPU (user + system) during full_flow, per verified payment. */
  worker_cpu_ms: number;
  api_cpu_ms?: number;
  temporal_cpu_ms?: number;
  mysql_cpu_ms?: number;
  /** The benchmark's own process: the simulated customers' and merchants' HTTP. */
  bench_cpu_ms?: number;
  /** Workflows of other types started during full_flow, per verified payment, by type (webhook deliveries, …). */
  other_workflows: Record<string, number>;
}

export interface BenchReport {
  scenarios: ScenarioResult[];
  baseline: BaselineResult;
  /** Where the baseline's and the create's CPU goes: what the gap between their rates is made of. */
  cpu_per_operation: { baseline: CpuPerOperation; create: CpuPerOperation };
  /** create rps / baseline rps. */
  create_to_baseline: number;
  /** full_flow rps (verified payments a second) / baseline rps. */
  full_flow_to_baseline: number;
  scale: ScalePoint[];
  per_payment: PerPayment;
  fixed_rate: FixedRateResult[];
}

export interface BenchServices extends DurableCreateDeps {
  target: Target;
  /** The worker process whose memory the scale phase and whose CPU per_payment report. */
  workerPid: number;
  apiPid?: number;
  temporalPid?: number;
  /** The records' MySQL server, when it runs on this machine. */
  mysqlPid?: number;
  log: (line: string) => void;
}

/** Resident memory of a process in MiB (Linux /proc). */
export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? 0 : Math.round(Number(match[1]) / 1024);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { TaskQueueType } = proto.temporal.api.enums.v1;

/** Waits (bounded) until the worker has taken every workflow and activity task queued so far. */
async function waitForDrainedQueue(temporal: Client, config: Config, maxSeconds: number): Promise<void> {
  const deadline = Date.now() + maxSeconds * 1000;
  const backlog = async (taskQueueType: proto.temporal.api.enums.v1.TaskQueueType) => {
    const description = await temporal.workflowService.describeTaskQueue({
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: { name: config.TEMPORAL_TASK_QUEUE },
      taskQueueType,
      reportStats: true,
    });
    return Number(description.stats?.approximateBacklogCount ?? 0);
  };
  while (Date.now() < deadline) {
    if (
      (await backlog(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW)) === 0 &&
      (await backlog(TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY)) === 0
    )
      return;
    await pause(500);
  }
}

/**
 * Preparation (not measured) is bounded by its count: this bound only stops a
 * runaway, at a rate far below any machine's (two payments a second).
 */
const preparationSeconds = (plan: BenchPlan, count: number) => Math.max(plan.maxSeconds * 2, count / 2);

/** Paid payments for verify: opened on the durable path, paid through the bank simulator (the test helper's real path), waited for in MySQL. */
async function paidPayments(services: BenchServices, count: number, plan: BenchPlan): Promise<string[]> {
  const ids: string[] = [];
  await closedLoop(
    async () => {
      const id = await durableCreate(services);
      await prepareCall(services.target, `/test_helpers/payments/${id}/bank_outcome`, { outcome: 'success' }, 200);
      ids.push(id);
    },
    count,
    plan.fillConcurrency,
    preparationSeconds(plan, count),
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
    if (Date.now() > deadline)
      throw new Error(`only ${String(row.n)} of ${ids.length} payments became paid within the time bound`);
    await pause(250);
  }
}

/**
 * Scale, from an empty server: simulated days of mixed traffic up to each
 * checkpoint, then what is open and how much memory it takes, and a probe of
 * creates. Each day begins by expiring what the day before left on the page.
 */
async function scalePhase(
  services: BenchServices,
  plan: BenchPlan,
  bounds: (amount: number) => LoadBounds,
): Promise<ScalePoint[]> {
  const { log } = services;
  const scale: ScalePoint[] = [];
  let made = 0;
  for (const checkpoint of plan.scaleCheckpoints) {
    const abandoned = await endPreviousDay(services, plan.fillConcurrency, (n) => preparationSeconds(plan, n));
    const count = Math.max(0, checkpoint - made);
    log(
      `scale: ${abandoned} payments left on the page expired; a day of ${count} payments (${plan.scaleInFlight} left in flight) to reach ${checkpoint}`,
    );
    const day = await simulateDay(
      services,
      count,
      plan.scaleMix,
      plan.scaleInFlight,
      plan.fillConcurrency,
      preparationSeconds(plan, count),
    );
    made += day.operations;
    await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds * 2);
    const open = await openWorkflows(services.temporal);
    const stages = await paymentsByStage(services.db, services.merchant.id);
    const workerRss = rssMb(services.workerPid);
    const temporalRss = services.temporalPid === undefined ? undefined : rssMb(services.temporalPid);
    const probe = await createScenario(services.target, bounds(plan.scaleProbe), 'scale_probe');
    scale.push({
      payments: made,
      verified_payments: stages.verified,
      in_flight: stages.in_flight,
      open_workflows: open.total,
      open_workflows_by_type: open.by_type,
      worker_rss_mb: workerRss,
      ...(temporalRss === undefined ? {} : { temporal_rss_mb: temporalRss }),
      create_rps: probe.rps,
      create_p50_ms: probe.p50_ms,
      create_p99_ms: probe.p99_ms,
      create_errors: probe.errors,
      fill_rps: day.rps,
    });
    log(`scale: ${JSON.stringify(scale.at(-1))}`);
  }
  return scale;
}

/** The full flow's work per verified payment: its histories counted, and the CPU the processes spent meanwhile. */
async function perPayment(
  services: BenchServices,
  verifiedIds: string[],
  window: { from: Date; to: Date },
  cpu: { before: CpuSnapshot; after: CpuSnapshot },
): Promise<PerPayment> {
  const n = verifiedIds.length;
  const counts = await meanHistoryCounts(services.temporal, verifiedIds);
  const paymentType =
    n === 0
      ? undefined
      : (await services.temporal.workflow.getHandle(paymentWorkflowId(verifiedIds[0]!)).describe()).type;
  const spent = cpuPerOperation(addedCpu(undefined, cpu.before, cpu.after), n);
  return {
    ...counts,
    worker_cpu_ms: spent.worker_ms,
    ...(spent.api_ms === undefined ? {} : { api_cpu_ms: spent.api_ms }),
    ...(spent.temporal_ms === undefined ? {} : { temporal_cpu_ms: spent.temporal_ms }),
    ...(spent.mysql_ms === undefined ? {} : { mysql_cpu_ms: spent.mysql_ms }),
    ...(n === 0 ? {} : { bench_cpu_ms: spent.bench_ms }),
    other_workflows:
      paymentType === undefined
        ? {}
        : await otherWorkflowsStarted(services.temporal, paymentType, window.from, window.to, n),
  };
}

/** A rate as a share of the bare durable work's in the same run, to two decimals (0 without a baseline). */
const ofBaseline = (rps: number, baseline: BaselineResult) =>
  baseline.rps === 0 ? 0 : Math.round((rps / baseline.rps) * 100) / 100;

export async function runBenchmark(services: BenchServices, plan: BenchPlan): Promise<BenchReport> {
  const { target, log } = services;
  const bounds = (amount: number): LoadBounds => ({
    connections: plan.connections,
    amount,
    maxSeconds: plan.maxSeconds,
  });

  log(`warm-up: ${plan.warmup} creates`);
  await createScenario(target, bounds(plan.warmup), 'warmup');

  // Scale first, from an empty server: the scenarios then run on top of what it leaves open.
  const scale = await scalePhase(services, plan, bounds);

  // The baseline and the create in alternating halves, baseline, create, create, baseline: the machine drifts
  // during a run (the Temporal server's store grows, the worker drains, the machine's own services wake), and
  // in this order both see its drift alike, so their ratio is of the code, not of the minute each ran in.
  const halves = [Math.ceil(plan.create / 2), Math.floor(plan.create / 2)] as const;
  const baselineRuns: Awaited<ReturnType<typeof timedClosedLoop>>[] = [];
  const createRuns: ScenarioResult[] = [];
  const spent: Record<'baseline' | 'create', CpuSnapshot | undefined> = { baseline: undefined, create: undefined };
  for (const [i, kind] of (['baseline', 'create', 'create', 'baseline'] as const).entries()) {
    const count = halves[i === 0 || i === 1 ? 0 : 1];
    if (count === 0) continue;
    const before = cpuSnapshot(services);
    if (kind === 'baseline') {
      log(`baseline: ${count} durable creates (MySQL insert + workflow start), ${plan.connections} in flight`);
      baselineRuns.push(await timedClosedLoop(() => durableCreate(services), count, plan.connections, plan.maxSeconds));
    } else {
      log(`create: ${count} POST /api/v1/payments over ${plan.connections} connections`);
      createRuns.push(await createScenario(target, bounds(count)));
    }
    await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);
    spent[kind] = addedCpu(spent[kind], before, cpuSnapshot(services));
  }
  const baseline = mergeBaselines(baselineRuns);
  const create = mergeScenarios(createRuns);
  const cpu_per_operation = {
    baseline: cpuPerOperation(spent.baseline, baseline.operations),
    create: cpuPerOperation(spent.create, create.requests),
  };
  log(`cpu_per_operation: ${JSON.stringify(cpu_per_operation)}`);

  log(`verify: preparing ${plan.verify} paid payments`);
  const paid = await paidPayments(services, plan.verify + plan.connections, plan);
  log(`verify: ${plan.verify} POST /api/v1/payments/{id}/verify`);
  const verify = await verifyScenario(target, paid, bounds(plan.verify));
  await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);

  log(`full_flow: ${plan.fullFlow} payments through create, payment page, test bank and verify`);
  const cpuBefore = cpuSnapshot(services);
  // Visibility keeps start times to the millisecond; a second of margin each side loses none of the flow's.
  const from = new Date(Date.now() - 1000);
  const fullFlow = await fullFlowScenario(target, bounds(plan.fullFlow));
  await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);
  const cpuAfter = cpuSnapshot(services);
  const to = new Date(Date.now() + 1000);
  log(`per_payment: counting the histories of ${fullFlow.verifiedIds.length} verified payments`);
  const per_payment = await perPayment(
    services,
    fullFlow.verifiedIds,
    { from, to },
    { before: cpuBefore, after: cpuAfter },
  );
  log(`per_payment: ${JSON.stringify(per_payment)}`);

  const { create: createRate, verify: verifyRate } = plan.fixedRates;
  log(`fixed_rate: preparing ${Math.ceil(verifyRate * plan.fixedRateSeconds)} paid payments`);
  const paidForFixed =
    verifyRate > 0 ? await paidPayments(services, Math.ceil(verifyRate * plan.fixedRateSeconds), plan) : [];
  await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);
  log(
    `fixed_rate: ${createRate} creates/s and ${verifyRate} verifies/s side by side for ${plan.fixedRateSeconds} s (open loop)`,
  );
  const fixed_rate = await fixedRateScenario(target, paidForFixed, plan.fixedRates, plan.fixedRateSeconds, log);
  await waitForDrainedQueue(services.temporal, services.config, plan.maxSeconds);

  return {
    scenarios: [create, verify, fullFlow.scenario],
    baseline,
    cpu_per_operation,
    create_to_baseline: ofBaseline(create.rps, baseline),
    full_flow_to_baseline: ofBaseline(fullFlow.scenario.rps, baseline),
    scale,
    per_payment,
    fixed_rate,
  };
}
