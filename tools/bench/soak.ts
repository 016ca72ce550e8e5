/**
 * The soak (`npm run bench -- --soak <minutes>`): sustained open-loop traffic
 * at a stated rate, mixed as the scale phase's days (tools/bench/day.ts), for
 * minutes to hours, sampled every interval: each process's memory and
 * event-loop delay, p50/p99 of each operation in the interval, errors, open
 * workflows and storage (tools/bench/sample.ts). What an operator needs to
 * know about a month: whether memory, latency and storage stay flat, and
 * what each payment leaves behind.
 *
 * Open loop: payment i arrives at start + i / rate whether or not earlier
 * ones are done, and walks its fate through the API as a customer and a
 * merchant would: create → payment page → the bank (the test helper's trip
 * through the simulator) → verify (→ refund); declined at the bank; canceled
 * by the merchant on the page; or abandoned on the page, which expires by
 * its own durable timer (the soak runs with a short PAYMENT_TTL_SECONDS).
 * The create's latency runs from its intended arrival time, so a stall
 * counts in every payment that was due during it.
 */
import { closedLoop } from './durable.ts';
import { dayFates, type DayMix } from './day.ts';
import type { Target } from './load.ts';
import { sampleSystem, type SampleSources, type SystemSample } from './sample.ts';
import { OPERATIONS, Recorder, Walker, type Fate, type Operation, type OperationStats } from './soak-walker.ts';

export { OPERATIONS, type Operation, type OperationStats } from './soak-walker.ts';

export interface SoakPlan {
  /** Minutes of open-loop traffic. */
  minutes: number;
  /** Seconds between samples. */
  intervalSeconds: number;
  /** Payments arriving per second; undefined: `capacityFraction` of the capacity measured by a calibration first. */
  rate?: number;
  capacityFraction: number;
  /** The calibration: the same mix in a closed loop of `calibrationConcurrency` for this long. */
  calibrationSeconds: number;
  calibrationConcurrency: number;
  mix: DayMix;
  /** How long after the bank's answer the merchant verifies (the customer's way back through the result page). */
  verifyDelayMs: number;
  /** The payment page's lifetime the gateway runs with (PAYMENT_TTL_SECONDS): after the traffic, the soak waits this long (plus a margin) for the abandoned pages to expire before its last sample. */
  paymentTtlSeconds: number;
}

export const DEFAULT_SOAK_PLAN: Omit<SoakPlan, 'minutes' | 'mix'> = {
  intervalSeconds: 300,
  capacityFraction: 0.4,
  calibrationSeconds: 60,
  calibrationConcurrency: 20,
  verifyDelayMs: 200,
  // The gateway's own default (PAYMENT_TTL_SECONDS): at r payments a second, about 135 r abandoned pages stay open, more than a worker caches at 4/s.
  paymentTtlSeconds: 900,
};

export interface SoakInterval extends SystemSample {
  /** Seconds since the traffic began, at the end of this interval. */
  t_s: number;
  arrivals: number;
  arrivals_total: number;
  /** Payments whose walk ended in this interval (their last request answered), and those still walking. */
  completed: number;
  in_flight: number;
  errors: number;
  operations: Record<Operation, OperationStats>;
  /** How far behind its schedule the load generator was at worst (its own event loop's lag, included in create's latency). */
  max_send_lag_ms: number;
}

export interface SoakReport {
  kind: 'soak';
  /** False in the checkpoints written while the soak runs: `final` is then the latest sample. */
  complete: boolean;
  started_at: string;
  rate: number;
  rate_source: 'configured' | 'calibrated';
  /** Payments walked before anything else, until one ended verified without an error (the gateway ready). */
  warm_up_payments: number;
  calibration?: {
    capacity_payments_per_s: number;
    payments: number;
    seconds: number;
    fraction: number;
    errors: number;
  };
  plan: SoakPlan;
  /** Before the traffic (after the calibration). */
  baseline: SystemSample;
  intervals: SoakInterval[];
  /** Samples after the traffic, every interval while the last abandoned pages expire; the last is `final`. */
  after: (SystemSample & { t_s: number })[];
  /** After the traffic, once the last abandoned page has expired. */
  final: SystemSample & { t_s: number };
  /**
   * The requests answered after the last interval's sample: the ends of the walks still going when the
   * traffic stopped (a late arrival's verify or refund). Absent until the run is complete.
   */
  after_traffic_operations?: Record<Operation, OperationStats>;
  totals: {
    arrivals: number;
    by_fate: Record<Fate, number>;
    completed: number;
    errors: number;
    early_verifies: number;
  };
  /**
   * CPU milliseconds each watched process spent per payment, from the sample before the
   * traffic to the traffic's last: the capacity model's input (docs/SCALING.md#a-capacity-model).
   */
  cpu_ms_per_payment: Record<string, number>;
  /** Growth from baseline to final, divided by the payments the soak made. */
  storage_per_payment: {
    mysql_bytes: number;
    mysql_rows: number;
    temporal_bytes: number;
    tables: Record<string, { rows: number; bytes: number }>;
  };
}

export interface SoakServices {
  target: Target;
  sources: SampleSources;
  log: (line: string) => void;
  /** Called with the report so far after every sample (`complete: false`), so a run cut short leaves its curve. */
  checkpoint?: (report: SoakReport) => void;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The fates of `count` arrivals, spread evenly as a day's (dayFates), none left in flight. */
function fatesFor(count: number, mix: DayMix): Fate[] {
  return dayFates(count, mix, 0) as Fate[];
}

/** Capacity: payments of the mix walked per second in a closed loop of `concurrency`, for `seconds`. */
async function calibrate(walker: Walker, plan: SoakPlan): Promise<{ rps: number; payments: number; seconds: number }> {
  const fates = fatesFor(1000, plan.mix);
  let next = 0;
  const result = await closedLoop(
    () => walker.walk(fates[next++ % fates.length]!, performance.now()),
    Number.MAX_SAFE_INTEGER,
    plan.calibrationConcurrency,
    plan.calibrationSeconds,
  );
  return { rps: result.rps, payments: result.operations, seconds: result.duration_s };
}

/** Each process's CPU time between two samples per payment made (processes sampled in both). */
export function cpuPerPayment(before: SystemSample, after: SystemSample, payments: number): Record<string, number> {
  const result: Record<string, number> = {};
  if (payments === 0) return result;
  for (const p of after.processes) {
    const start = before.processes.find((q) => q.name === p.name)?.cpu_ms;
    if (start !== undefined && p.cpu_ms !== undefined) result[p.name] = round((p.cpu_ms - start) / payments, 1);
  }
  return result;
}

/** Growth between two samples per payment made. */
function perPayment(before: SystemSample, after: SystemSample, payments: number): SoakReport['storage_per_payment'] {
  const per = (n: number) => (payments === 0 ? 0 : round(n / payments, 2));
  const tables: Record<string, { rows: number; bytes: number }> = {};
  for (const [name, t] of Object.entries(after.storage.mysql_tables)) {
    const b = before.storage.mysql_tables[name] ?? { rows: 0, data_bytes: 0, index_bytes: 0 };
    const rows = per(t.rows - b.rows);
    const bytes = per(t.data_bytes + t.index_bytes - b.data_bytes - b.index_bytes);
    if (rows !== 0 || bytes !== 0) tables[name] = { rows, bytes };
  }
  return {
    mysql_bytes: per(after.storage.mysql_bytes - before.storage.mysql_bytes),
    mysql_rows: per(after.storage.mysql_rows - before.storage.mysql_rows),
    temporal_bytes: per(after.storage.temporal_bytes - before.storage.temporal_bytes),
    tables,
  };
}

/** Memory, open workflows and storage of one sample, in a line. */
function describeSample(sample: SystemSample): string {
  const worker = sample.processes.find((p) => p.name === 'worker' || p.name === 'worker-a');
  const rss = sample.processes.map((p) => `${p.name} ${p.rss_mb ?? '-'}`).join(', ');
  const mbOf = (bytes: number) => Math.round(bytes / 1_048_576);
  return (
    `RSS MB ${rss}; worker heap ${worker?.heap_used_mb ?? '-'} MB + workflow thread ${worker?.threads_heap_used_mb ?? '-'} MB, ` +
    `${worker?.cached_workflows ?? '-'} cached; open workflows ${sample.open_workflows}; MySQL ${mbOf(sample.storage.mysql_bytes)} MB, Temporal ${mbOf(sample.storage.temporal_bytes)} MB`
  );
}

/** One line of progress per interval. */
export function describeInterval(i: SoakInterval, minutes: number): string {
  const ops = OPERATIONS.filter((op) => i.operations[op].count > 0)
    .map((op) => `${op} ${i.operations[op].p50_ms}/${i.operations[op].p99_ms}`)
    .join(', ');
  return `soak ${round(i.t_s / 60, 1)}/${minutes} min: ${i.arrivals_total} payments (${i.in_flight} walking), ${i.errors} errors; p50/p99 ms ${ops}; ${describeSample(i)}`;
}

/**
 * Waits (up to 3 min) until one payment walks to verified without an error: a worker that has
 * just started may still be bundling its workflows, and the API answers 503 to what needs it.
 */
async function warmUp(
  walker: Walker,
  setRecorder: (r: Recorder) => Recorder,
  log: (line: string) => void,
): Promise<number> {
  const deadline = Date.now() + 180_000;
  for (let payments = 1; ; payments++) {
    const attempt = setRecorder(new Recorder());
    await walker.walk('verified', performance.now());
    if ([...attempt.errors.values()].every((n) => n === 0)) return payments;
    if (Date.now() > deadline)
      throw new Error('soak: no payment could be verified within 3 minutes of the start: is the worker running?');
    log('soak: the gateway is not ready yet (a payment did not walk to verified); trying again');
    await pause(2_000);
  }
}

export async function runSoak(services: SoakServices, plan: SoakPlan): Promise<SoakReport> {
  const { log } = services;
  let recorder = new Recorder();
  const walker = new Walker(services.target, () => recorder, plan, log);
  const warmUpPayments = await warmUp(walker, (r) => (recorder = r), log);
  recorder = new Recorder();
  walker.errorsShown = 0;
  let rate: number | undefined = plan.rate;
  let calibration: SoakReport['calibration'];
  if (rate === undefined) {
    log(
      `soak: calibrating: the mix in a closed loop of ${plan.calibrationConcurrency} for ${plan.calibrationSeconds} s`,
    );
    const measured = await calibrate(walker, plan);
    rate = Math.max(0.1, round(measured.rps * plan.capacityFraction, 1));
    const calibrationOps = recorder.operations();
    const errors = OPERATIONS.reduce((sum, op) => sum + calibrationOps[op].errors, 0);
    calibration = {
      capacity_payments_per_s: measured.rps,
      payments: measured.payments,
      seconds: measured.seconds,
      fraction: plan.capacityFraction,
      errors,
    };
    log(
      `soak: capacity ${measured.rps} payments/s (${measured.payments} in ${measured.seconds} s, ${errors} errors); the soak runs at ${plan.capacityFraction} of it: ${rate}/s`,
    );
    recorder = new Recorder();
  }
  const soakRate = rate;
  const seconds = plan.minutes * 60;
  const count = Math.round(rate * seconds);
  const fates = fatesFor(count, plan.mix);
  const byFate = Object.fromEntries(Object.keys(plan.mix).map((fate) => [fate, 0])) as Record<Fate, number>;
  for (const fate of fates) byFate[fate] += 1;
  log(
    `soak: ${count} payments at ${rate}/s for ${plan.minutes} min, sampled every ${plan.intervalSeconds} s; fates ${JSON.stringify(byFate)}`,
  );

  const baseline = await sampleSystem(services.sources);
  const startedAt = new Date().toISOString();
  const start = performance.now();
  const intervals: SoakInterval[] = [];
  const after: (SystemSample & { t_s: number })[] = [];
  const walking = new Set<Promise<void>>();
  let arrived = 0;
  let totals = { completed: 0, errors: 0, early: 0 };

  // Each interval ends at a fixed offset from the start; its sample is taken beside the traffic, never holding it up.
  const intervalCount = Math.max(1, Math.ceil(seconds / plan.intervalSeconds));
  const sampler = (async () => {
    for (let k = 1; k <= intervalCount; k++) {
      const end = start + Math.min(k * plan.intervalSeconds, seconds) * 1000;
      await pause(Math.max(0, end - performance.now()));
      if (k === intervalCount) while (arrived < count) await pause(50); // the last arrival is due at its end
      const done = recorder;
      recorder = new Recorder();
      const operations = done.operations();
      const errors = OPERATIONS.reduce((sum, op) => sum + operations[op].errors, 0);
      totals = {
        completed: totals.completed + done.completed,
        errors: totals.errors + errors,
        early: totals.early + done.earlyVerifies,
      };
      const system = await sampleSystem(services.sources);
      const interval: SoakInterval = {
        t_s: round((performance.now() - start) / 1000, 1),
        arrivals: done.arrivals,
        arrivals_total: arrived,
        completed: done.completed,
        in_flight: walking.size,
        errors,
        operations,
        max_send_lag_ms: round(done.maxLag),
        ...system,
      };
      intervals.push(interval);
      log(describeInterval(interval, plan.minutes));
      services.checkpoint?.(reportSoFar(interval, false));
    }
  })();

  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await pause(wait);
    recorder.maxLag = Math.max(recorder.maxLag, performance.now() - due);
    recorder.arrivals += 1;
    arrived += 1;
    const walk: Promise<void> = walker.walk(fates[i]!, due).finally(() => {
      walking.delete(walk);
      recorder.completed += 1;
    });
    walking.add(walk);
  }
  await sampler;
  // The walks still going (bounded: each request by 30 s), then the abandoned pages' timers.
  const drainDeadline = Date.now() + 120_000;
  while (walking.size > 0 && Date.now() < drainDeadline) await pause(100);
  const tail = recorder;
  const tailOperations = tail.operations();
  const tailErrors = OPERATIONS.reduce((sum, op) => sum + tailOperations[op].errors, 0);
  totals = {
    completed: totals.completed + tail.completed,
    errors: totals.errors + tailErrors + walking.size,
    early: totals.early + tail.earlyVerifies,
  };
  const settle = plan.paymentTtlSeconds + Math.min(60, Math.max(5, plan.paymentTtlSeconds / 2));
  log(
    `soak: traffic done (${walking.size} walks unfinished); sampling every ${plan.intervalSeconds} s for ${settle} s while the last abandoned pages expire`,
  );
  const settled = performance.now() + settle * 1000;
  while (after.length === 0 || performance.now() < settled) {
    await pause(Math.min(plan.intervalSeconds * 1000, Math.max(0, settled - performance.now())));
    const sample = { ...(await sampleSystem(services.sources)), t_s: round((performance.now() - start) / 1000, 1) };
    after.push(sample);
    log(`soak: after the traffic, ${round(sample.t_s / 60, 1)} min: ${describeSample(sample)}`);
    if (performance.now() < settled) services.checkpoint?.(reportSoFar(sample, false));
  }
  const report = { ...reportSoFar(after.at(-1)!, true), after_traffic_operations: tailOperations };
  log(
    `soak: per payment: MySQL ${report.storage_per_payment.mysql_rows} rows, ${Math.round(report.storage_per_payment.mysql_bytes)} bytes; Temporal ${Math.round(report.storage_per_payment.temporal_bytes)} bytes`,
  );
  log(
    `soak: CPU ms per payment: ${Object.entries(report.cpu_ms_per_payment)
      .map(([name, ms]) => `${name} ${ms}`)
      .join(', ')}`,
  );
  return report;

  /** The report with `final` as its last sample. */
  function reportSoFar(final: SystemSample & { t_s: number }, complete: boolean): SoakReport {
    return {
      kind: 'soak',
      complete,
      started_at: startedAt,
      rate: soakRate,
      rate_source: calibration === undefined ? 'configured' : 'calibrated',
      warm_up_payments: warmUpPayments,
      ...(calibration === undefined ? {} : { calibration }),
      plan,
      baseline,
      intervals,
      after,
      final,
      totals: {
        arrivals: arrived,
        by_fate: byFate,
        completed: totals.completed,
        errors: totals.errors,
        early_verifies: totals.early,
      },
      cpu_ms_per_payment: cpuPerPayment(
        baseline,
        intervals.at(-1) ?? final,
        intervals.at(-1)?.arrivals_total ?? arrived,
      ),
      storage_per_payment: perPayment(baseline, final, arrived),
    };
  }
}
