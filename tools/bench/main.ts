/**
 * `npm run bench [-- --quick] [-- --json] [-- --topology cluster]`: brings up the
 * stack as `npm start` does, but on its own free ports, its own MySQL database
 * and its own Temporal SQLite file (both recreated, so runs compare), starts one
 * worker and one API process, and measures them (tools/bench/run.ts). With
 * `--topology cluster` Temporal is the cluster of tools/launcher/temporal-cluster.ts
 * (fresh PostgreSQL, five processes) and the API two replicas behind HAProxy,
 * with two workers: the same scenarios, measured through the balancer. With --json the last line on
 * stdout is the report as one JSON object; progress goes to stderr. `--soak <minutes>` runs the
 * soak (tools/bench/soak.ts) on the same stack instead of the scenarios, and writes soak.json and
 * soak.svg into `--out <dir>` (default .data/soak). With `--check` (a `--quick` run on the dev
 * server) it compares the run's ratios with the floors of tools/bench/budget.ts and exits 1 when one
 * is below its floor.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync, rmSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config.ts';
import { createDatabase, databaseName } from '../../src/db/database.ts';
import { connectTemporal } from '../../src/temporal/client.ts';
import { createMerchant } from '../../src/merchants/merchants.ts';
import type { DevServer } from '../launcher/dev-server.ts';
import { startClusterInfrastructure } from '../launcher/temporal-cluster.ts';
import { withHeapLimit } from '../launcher/memory.ts';
import { gatewaySettingsOf, suiteSimulators } from '../launcher/psp-simulators.ts';
import { PSP_NAMES } from '../../src/psps/profiles.ts';
import { FULL_PLAN, QUICK_PLAN, runBenchmark, type BenchPlan, type BenchReport } from './run.ts';
import { localProcessPid, sqliteBytes, type WatchedProcess } from './sample.ts';
import { checkRatios } from './budget.ts';
import { runSoak, type SoakReport } from './soak.ts';
import { formatSoakReport, parseSoakArgs, writeSoakOutputs } from './soak-cli.ts';

/** The pieces of the bootstrap's stack (tools/launcher/stack.ts) the benchmark reuses. */
export interface StackPieces {
  dataDir: string;
  prepareDatabase(url: string, fresh: boolean): Promise<void>;
  freePort(): Promise<number>;
  provideTemporal(
    env: NodeJS.ProcessEnv,
    port: number,
    uiPort: number | undefined,
    name: string,
  ): Promise<{ address: string; server?: DevServer }>;
  startChild(name: string, script: string, env: NodeJS.ProcessEnv, output?: number): ChildProcess;
  stopChild(child: ChildProcess): () => Promise<void>;
  waitReady(url: string, seconds: number): Promise<void>;
  cleanups: (() => Promise<void>)[];
}

export interface BenchOutput extends BenchReport {
  mode: 'quick' | 'full';
  topology: 'dev-server' | 'cluster';
  machine: { cpus: number; loadavg_before: number[]; loadavg_after: number[] };
}

/** Runs the benchmark (or the soak) as `args` say; answers the exit code: 1 when `--check` found a ratio below its floor. */
export async function runBenchStack(args: string[], stack: StackPieces): Promise<number> {
  const quick = args.includes('--quick');
  const topologyAt = args.indexOf('--topology');
  const topology = topologyAt < 0 ? 'dev-server' : args[topologyAt + 1];
  if (topology !== 'dev-server' && topology !== 'cluster')
    throw new Error(`--topology must be dev-server or cluster, got ${topology ?? 'nothing'}`);
  const cluster = topology === 'cluster';
  const json = args.includes('--json');
  // --soak <minutes>: the soak instead of the benchmark's scenarios (tools/bench/soak.ts).
  const soak = parseSoakArgs(args, stack.dataDir);
  // The floors were measured on the quick plan on the dev server: another plan or topology has ratios of its own.
  const check = args.includes('--check');
  if (check && (!quick || cluster || soak !== undefined))
    throw new Error("--check goes with --quick on the dev server (the floors are that run's), without --soak");
  // BENCH_PLAN (JSON) overrides single numbers of the plan, e.g. {"create":5000} or {"fixedRates":{"create":100}}.
  const base = quick ? QUICK_PLAN : FULL_PLAN;
  const overrides = JSON.parse(process.env.BENCH_PLAN ?? '{}') as Partial<BenchPlan>;
  const plan: BenchPlan = {
    ...base,
    ...overrides,
    fixedRates: { ...base.fixedRates, ...overrides.fixedRates },
    scaleMix: { ...base.scaleMix, ...overrides.scaleMix },
  };
  const progress = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);

  const baseConfig = loadConfig();
  const databaseUrl =
    process.env.BENCH_DATABASE_URL ??
    (() => {
      const url = new URL(baseConfig.DATABASE_URL);
      url.pathname = cluster ? '/cluster_bench' : `/${databaseName(baseConfig.DATABASE_URL)}_bench`;
      return url.toString();
    })();
  progress(`Preparing the benchmark database ${databaseName(databaseUrl)} (recreated)…`);
  await stack.prepareDatabase(databaseUrl, true);

  // A fresh Temporal history each run, so every run starts from the same empty server.
  let temporal: { address: string; pid?: number };
  // What the soak watches of Temporal: its processes, and its storage in bytes.
  let temporalProcesses: WatchedProcess[] = [];
  let temporalBytes: () => number = () => 0;
  let apiPorts: number[];
  let baseUrl: string;
  if (cluster) {
    // The production topology (tools/launcher/temporal-cluster.ts): a fresh PostgreSQL, five Temporal processes, HAProxy.
    progress('Bringing up the Temporal cluster (PostgreSQL, two frontends, history, matching, worker) and HAProxy…');
    const infra = await startClusterInfrastructure({
      logDir: join(stack.dataDir, 'bench-cluster'),
      namespace: baseConfig.TEMPORAL_NAMESPACE,
      freePort: () => stack.freePort(),
      log: progress,
    });
    stack.cleanups.push(() => infra.stop());
    progress(
      `Cluster up in ${Math.round((infra.timings.total_ms ?? 0) / 1000)} s; its logs in ${join(stack.dataDir, 'bench-cluster')}`,
    );
    temporal = {
      address: infra.temporalAddress,
      ...(infra.temporal.children.get('history')?.pid === undefined
        ? {}
        : { pid: infra.temporal.children.get('history')!.pid! }),
    };
    apiPorts = infra.apiPorts;
    baseUrl = infra.apiUrl;
    temporalProcesses = [...infra.temporal.children.entries()].map(([name, child]) => ({
      name: `temporal ${name}`,
      ...(child.pid === undefined ? {} : { pid: child.pid }),
    }));
    temporalProcesses.push({
      name: 'postgresql',
      ...(infra.pg.process?.pid === undefined ? {} : { pid: infra.pg.process.pid }),
    });
    temporalBytes = () =>
      Number(
        infra.pg
          .psql("SELECT pg_database_size('cluster_temporal') + pg_database_size('cluster_temporal_visibility')")
          .trim(),
      );
  } else {
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(join(stack.dataDir, `temporal-bench.sqlite${suffix}`), { force: true });
    const dev = await stack.provideTemporal(process.env, await stack.freePort(), undefined, 'bench');
    temporal = {
      address: dev.address,
      ...(dev.server?.process.pid === undefined ? {} : { pid: dev.server.process.pid }),
    };
    apiPorts = [await stack.freePort()];
    baseUrl = `http://127.0.0.1:${apiPorts[0]}`;
    temporalProcesses = [{ name: 'temporal', ...(temporal.pid === undefined ? {} : { pid: temporal.pid }) }];
    const file = join(stack.dataDir, 'temporal-bench.sqlite');
    temporalBytes = () => sqliteBytes(file);
  }
  // The bank simulators, one per PSP of the registry (tools/launcher/psp-simulators.ts), each on its own
  // port and ledger file: the banks behind every test payment, whichever PSP its route names.
  const bankPorts: number[] = [];
  for (let i = 0; i < PSP_NAMES.length; i++) bankPorts.push(await stack.freePort());
  const simulators = suiteSimulators(stack.dataDir, bankPorts, 'bench');
  const bankSims: { name: string; child: ChildProcess }[] = [];
  for (const simulator of simulators) {
    rmSync(simulator.simulatorEnv.BANK_SIM_STATE_FILE!, { force: true });
    // Customers go back to the bench's API servers, on this machine at ports of their own.
    const bankSim = stack.startChild(simulator.name, 'src/bank-sim/main.ts', {
      BANK_SIM_REDIRECT_ORIGINS: 'http://127.0.0.1:*,http://localhost:*',
      ...process.env,
      ...simulator.simulatorEnv,
    });
    stack.cleanups.push(stack.stopChild(bankSim));
    bankSims.push({ name: simulator.name, child: bankSim });
    await stack.waitReady(`${simulator.url}/healthz`, 30);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...gatewaySettingsOf(simulators),
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    PAGES_CSRF_SECRET: randomBytes(32).toString('base64url'),
    // Free metrics ports, never a running `npm start`'s.
    API_METRICS_PORT: '0',
    WORKER_METRICS_PORT: '0',
    TEMPORAL_SDK_METRICS_PORT: '0',
    // A page never expires by itself during a run: the scale phase decides which payments are
    // abandoned (it expires them with the test clock), and what it leaves in flight stays in flight.
    // The soak's abandoned pages expire by their own timers, within its short lifetime.
    PAYMENT_TTL_SECONDS: soak === undefined ? '86400' : String(soak.plan.paymentTtlSeconds),
    // The benchmark's own, higher limits: the limiter still runs (its cost is measured), it never refuses.
    RATE_LIMIT_REQUESTS: process.env.RATE_LIMIT_REQUESTS ?? '100000000',
    TEST_PAYMENTS_PER_MINUTE: process.env.TEST_PAYMENTS_PER_MINUTE ?? '100000000',
    // Every simulated customer presses Pay from this machine's one address.
    PAGE_ACTIONS_PER_CLIENT_PER_MINUTE: process.env.PAGE_ACTIONS_PER_CLIENT_PER_MINUTE ?? '100000000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  const config = loadConfig({ ...env, PORT: String(apiPorts[0]) });

  mkdirSync(stack.dataDir, { recursive: true });
  // One worker and one API on the dev server; two of each (the replicas behind HAProxy) on the cluster.
  const start = (name: string, script: string, processEnv: NodeJS.ProcessEnv): ChildProcess => {
    const log = openSync(join(stack.dataDir, `bench-${name}.log`), 'w');
    const child = stack.startChild(name, script, processEnv, log);
    closeSync(log);
    stack.cleanups.push(stack.stopChild(child));
    return child;
  };
  const suffixes = cluster ? ['-a', '-b'] : [''];
  // Metrics ports of their own, so the soak can read each process's heap and event-loop delay.
  const metricsPorts = {
    worker: await Promise.all(suffixes.map(() => stack.freePort())),
    api: await Promise.all(suffixes.map(() => stack.freePort())),
  };
  // With the heap limits the deployments set (tools/launcher/memory.ts), unless NODE_OPTIONS names one.
  const workers = suffixes.map((suffix, i) =>
    start(
      `worker${suffix}`,
      'src/main/worker.ts',
      withHeapLimit({ ...env, WORKER_METRICS_PORT: String(metricsPorts.worker[i]) }, 'worker'),
    ),
  );
  const apis = suffixes.map((suffix, i) =>
    start(
      `api${suffix}`,
      'src/main/api.ts',
      withHeapLimit({ ...env, PORT: String(apiPorts[i]), API_METRICS_PORT: String(metricsPorts.api[i]) }, 'api'),
    ),
  );
  for (const port of apiPorts) await stack.waitReady(`http://127.0.0.1:${port}/readyz`, 120);
  await stack.waitReady(`${baseUrl}/readyz`, 120);
  progress(
    `Stack up: API ${baseUrl}, Temporal ${temporal.address}; logs in ${join(stack.dataDir, 'bench-{api,worker}*.log')}`,
  );

  const { db } = createDatabase(databaseUrl, { poolSize: plan.fillConcurrency + plan.connections });
  const client = await connectTemporal(config);
  stack.cleanups.push(async () => {
    await client.connection.close();
    await db.destroy();
  });
  const merchant = await createMerchant(db, config, { name: 'Benchmark Shop', domain: 'localhost' });

  // The records' MySQL server, when it runs on this machine: its CPU per payment is the capacity model's MySQL input.
  const mysqlPid = localProcessPid(['mariadbd', 'mysqld']);
  const loadBefore = loadavg().map((n) => Math.round(n * 100) / 100);
  const machine = () => ({
    cpus: cpus().length,
    loadavg_before: loadBefore,
    loadavg_after: loadavg().map((n) => Math.round(n * 100) / 100),
  });
  if (soak !== undefined) {
    const metricsUrl = (port: number | undefined) => `http://127.0.0.1:${port}/metrics`;
    const processes: WatchedProcess[] = [
      ...workers.map((w, i) => ({
        name: `worker${suffixes[i]}`,
        ...(w.pid === undefined ? {} : { pid: w.pid }),
        metricsUrl: metricsUrl(metricsPorts.worker[i]),
      })),
      ...apis.map((a, i) => ({
        name: `api${suffixes[i]}`,
        ...(a.pid === undefined ? {} : { pid: a.pid }),
        metricsUrl: metricsUrl(metricsPorts.api[i]),
      })),
      ...bankSims.map(({ name, child }) => ({ name, ...(child.pid === undefined ? {} : { pid: child.pid }) })),
      ...temporalProcesses,
    ];
    if (mysqlPid !== undefined) processes.push({ name: 'mysql', pid: mysqlPid });
    // What bounds the processes' memory in this run (docs/OPERATIONS.md#a-workers-memory).
    const bounds = {
      worker_node_options: withHeapLimit(env, 'worker').NODE_OPTIONS,
      api_node_options: withHeapLimit(env, 'api').NODE_OPTIONS,
      WORKER_MAX_CACHED_WORKFLOWS: config.WORKER_MAX_CACHED_WORKFLOWS,
      DATABASE_POOL_SIZE: config.DATABASE_POOL_SIZE,
      PAYMENT_TTL_SECONDS: config.PAYMENT_TTL_SECONDS,
    };
    const withRun = (report: SoakReport) => ({
      ...report,
      topology: cluster ? 'cluster' : 'dev-server',
      machine: machine(),
      bounds,
    });
    // The files are written after every sample too (complete: false), so a run cut short leaves its curve.
    const checkpoint = (report: SoakReport) => void writeSoakOutputs(withRun(report), soak.outDir);
    const report = await runSoak(
      {
        target: { baseUrl, key: merchant.test_key },
        sources: { processes, db, temporal: client.client, temporalBytes },
        log: progress,
        checkpoint,
      },
      soak.plan,
    );
    const output = withRun(report);
    const files = writeSoakOutputs(output, soak.outDir);
    progress(`soak: wrote ${files.json} and ${files.svg}`);
    if (json) process.stdout.write(`${JSON.stringify(output)}\n`);
    else process.stdout.write(`${formatSoakReport(output)}\n`);
    return 0;
  }
  const report = await runBenchmark(
    {
      target: { baseUrl, key: merchant.test_key },
      db,
      temporal: client.client,
      config,
      merchant: {
        id: merchant.merchant_id,
        fee_plan: { bps: config.FEE_BPS, min: config.FEE_MIN, max: config.FEE_MAX },
      },
      workerPid: workers[0]?.pid ?? 0,
      ...(apis[0]?.pid === undefined ? {} : { apiPid: apis[0].pid }),
      ...(temporal.pid === undefined ? {} : { temporalPid: temporal.pid }),
      ...(mysqlPid === undefined ? {} : { mysqlPid }),
      log: progress,
    },
    plan,
  );
  const output: BenchOutput = {
    mode: quick ? 'quick' : 'full',
    topology: cluster ? 'cluster' : 'dev-server',
    machine: machine(),
    ...report,
  };
  if (json) process.stdout.write(`${JSON.stringify(output)}\n`);
  else process.stdout.write(`${formatReport(output)}\n`);
  if (!check) return 0;
  // After the report, on stderr with --json, so the JSON stays the last line on stdout.
  const { lines, below } = checkRatios(output);
  progress(`--check: the ratios against their floors (tools/bench/budget.ts)`);
  for (const line of lines) progress(line);
  progress(below.length === 0 ? '--check: passed' : `--check: failed, below the floor: ${below.join(', ')}`);
  return below.length === 0 ? 0 : 1;
}

/** The report as the tables of docs/BENCHMARKS.md. */
export function formatReport(r: BenchOutput): string {
  const lines = [
    `Benchmark (${r.mode}, ${r.topology}) on ${r.machine.cpus} CPUs; load average before ${r.machine.loadavg_before.join(' ')}, after ${r.machine.loadavg_after.join(' ')}`,
    '',
    '| scenario | rps | p50 ms | p90 ms | p99 ms | errors | requests |',
    '|---|---|---|---|---|---|---|',
    ...r.scenarios.map(
      (s) => `| ${s.name} | ${s.rps} | ${s.p50_ms} | ${s.p90_ms} | ${s.p99_ms} | ${s.errors} | ${s.requests} |`,
    ),
    `| baseline (insert + workflow start) | ${r.baseline.rps} | ${r.baseline.p50_ms} | ${r.baseline.p90_ms} | ${r.baseline.p99_ms} | 0 | ${r.baseline.operations} |`,
    '',
    `create / baseline = ${r.create_to_baseline}, full flow / baseline = ${r.full_flow_to_baseline}`,
    '',
    '| CPU ms per operation | operations | benchmark (client) | API | worker | Temporal | MySQL | all |',
    '|---|---|---|---|---|---|---|---|',
    ...Object.entries(r.cpu_per_operation).map(
      ([name, c]) =>
        `| ${name} | ${c.operations} | ${c.bench_ms} | ${c.api_ms ?? '-'} | ${c.worker_ms} | ${c.temporal_ms ?? '-'} | ${c.mysql_ms ?? '-'} | ${c.all_ms} |`,
    ),
    '',
    '| payments | verified | in flight | open workflows | by type | worker RSS MB | Temporal RSS MB | create rps | create p50 ms | create p99 ms | errors | day payments/s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.scale.map(
      (p) =>
        `| ${p.payments} | ${p.verified_payments} | ${p.in_flight} | ${p.open_workflows} | ${Object.entries(
          p.open_workflows_by_type,
        )
          .map(([type, n]) => `${type} ${n}`)
          .join(
            ', ',
          )} | ${p.worker_rss_mb} | ${p.temporal_rss_mb ?? ''} | ${p.create_rps} | ${p.create_p50_ms} | ${p.create_p99_ms} | ${p.create_errors} | ${p.fill_rps} |`,
    ),
    '',
    `Per verified payment (full_flow, ${r.per_payment.payments_counted} histories): ${r.per_payment.history_events} history events, ${r.per_payment.workflow_tasks} workflow tasks, ${r.per_payment.activity_tasks} activity tasks, ${r.per_payment.local_activities} local activities, ${r.per_payment.search_attribute_upserts} search-attribute upserts, ${r.per_payment.timers} timers, ${r.per_payment.updates} updates; CPU ms: worker ${r.per_payment.worker_cpu_ms}, API ${r.per_payment.api_cpu_ms ?? '-'}, Temporal ${r.per_payment.temporal_cpu_ms ?? '-'}, MySQL ${r.per_payment.mysql_cpu_ms ?? '-'}, benchmark client ${r.per_payment.bench_cpu_ms ?? '-'}; other workflows ${JSON.stringify(r.per_payment.other_workflows)}`,
    '',
    '| fixed rate (open loop) | rate/s | p50 ms | p90 ms | p99 ms | max ms | errors | requests |',
    '|---|---|---|---|---|---|---|---|',
    ...r.fixed_rate.map(
      (f) =>
        `| ${f.name} | ${f.rate} | ${f.p50_ms} | ${f.p90_ms} | ${f.p99_ms} | ${f.max_ms} | ${f.errors} | ${f.requests} |`,
    ),
  ];
  return lines.join('\n');
}
