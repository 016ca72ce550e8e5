/**
 * The CPU the benchmark's processes spend (docs/BENCHMARKS.md): snapshots of each process's CPU time,
 * summed over the stretches of a scenario, and shared out per operation.
 */
import { cpuMs } from './work.ts';

/** The processes whose CPU is read: the worker always; the API, Temporal and MySQL where they run here. */
export interface CpuSources {
  workerPid: number;
  apiPid?: number;
  temporalPid?: number;
  mysqlPid?: number;
}

/**
 * The CPU each process spent on one operation of a scenario, in milliseconds: from its start until the
 * worker has drained what it queued (the workflows it started included). `bench_ms` is the benchmark's own
 * process (the baseline's calls, the HTTP client's load); `all_ms` their sum. On a machine whose cores the
 * processes share, the rates of two scenarios stand about as the inverse of their `all_ms`.
 */
export interface CpuPerOperation {
  operations: number;
  bench_ms: number;
  api_ms?: number;
  worker_ms: number;
  temporal_ms?: number;
  mysql_ms?: number;
  all_ms: number;
}

export interface CpuSnapshot {
  bench: number;
  worker: number;
  api?: number;
  temporal?: number;
  mysql?: number;
}

/** CPU milliseconds of the processes the benchmark knows, so far. */
export function cpuSnapshot(services: CpuSources): CpuSnapshot {
  const own = process.cpuUsage();
  return {
    bench: (own.user + own.system) / 1000,
    worker: cpuMs(services.workerPid),
    ...(services.apiPid === undefined ? {} : { api: cpuMs(services.apiPid) }),
    ...(services.temporalPid === undefined ? {} : { temporal: cpuMs(services.temporalPid) }),
    ...(services.mysqlPid === undefined ? {} : { mysql: cpuMs(services.mysqlPid) }),
  };
}

/** `total` (undefined: none yet) plus the CPU between `before` and `after`. */
export function addedCpu(total: CpuSnapshot | undefined, before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot {
  const add = (key: keyof CpuSnapshot) => {
    const from = before[key];
    const to = after[key];
    return from === undefined || to === undefined ? undefined : (total?.[key] ?? 0) + (to - from);
  };
  const summed = { bench: add('bench') ?? 0, worker: add('worker') ?? 0 };
  const optional = { api: add('api'), temporal: add('temporal'), mysql: add('mysql') };
  return { ...summed, ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)) };
}

/** The CPU `spent` (summed by addedCpu), per operation. */
export function cpuPerOperation(spent: CpuSnapshot | undefined, operations: number): CpuPerOperation {
  const per = (ms: number | undefined) =>
    ms === undefined || operations === 0 ? undefined : Math.round((ms / operations) * 100) / 100;
  const split = {
    bench_ms: per(spent?.bench) ?? 0,
    api_ms: per(spent?.api),
    worker_ms: per(spent?.worker) ?? 0,
    temporal_ms: per(spent?.temporal),
    mysql_ms: per(spent?.mysql),
  };
  const present = Object.fromEntries(Object.entries(split).filter(([, v]) => v !== undefined)) as Omit<
    CpuPerOperation,
    'operations' | 'all_ms'
  >;
  const all = Object.values(present).reduce((sum, v) => sum + v, 0);
  return { operations, ...present, all_ms: Math.round(all * 100) / 100 };
}
