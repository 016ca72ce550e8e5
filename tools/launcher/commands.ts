/**
 * The commands of `npm start` and `npm test` (tools/launcher/main.ts runs them), made of the
 * stack's pieces (stack.ts), everything a fresh machine needs, in order.
 *   start: Temporal CLI → MySQL database and migrations → Temporal dev server
 *          (unless TEMPORAL_ADDRESS names a cluster) → worker and API processes
 *          → a demo merchant's test key, then the addresses. From then on it
 *          supervises them: a process that dies is restarted with backoff
 *          (supervisor.ts); one that keeps crashing stops everything.
 *   test:  the unit tier, static checks, then the same on its own database
 *          and ports, then the mocha suite, then the fault suite.
 *   faults: the fault suite alone, bootstrapped the same way.
 *   cluster: the cluster suite (test/cluster) alone: the production topology
 *          on one machine, brought up by the suite itself; it runs after the fault suite in `test`.
 *   image: the image suite (test/image) alone: the production image built with
 *          buildah and run with podman; last in `test` where buildah is installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { PSP_NAMES } from '../../src/psps/profiles.ts';
import { createDatabase, databaseName } from '../../src/db/database.ts';
import { unrevokedApiKeyByPrefix } from '../../src/db/api-keys.ts';
import { connectTemporal } from '../../src/temporal/client.ts';
import { retiredWorkflowsNotice } from '../../src/temporal/retired-workflows.ts';
import { createMerchant } from '../../src/merchants/merchants.ts';
import { parseKey } from '../../src/merchants/keys.ts';
import { portInUse } from '../../src/main/ports.ts';
import { PrerequisiteError, provideTemporalCli } from './temporal-cli.ts';
import { staticChecks, suiteArgs, unitConfig, unitTier } from './suites.ts';
import {
  readWeights,
  runLabelledMocha,
  runShards,
  slowestFiles,
  splitByWeight,
  suiteFiles,
  type ShardResult,
} from './shards.ts';
import { mainSuiteShards, suiteServices } from './suite-services.ts';
import { spawnDevServer } from './dev-server.ts';
import { restartPolicyFromEnv, Supervisor } from './supervisor.ts';
import { provideChromium } from './chromium.ts';
import { provideClusterBinaries, providePostgres } from './temporal-cluster.ts';
import { provideHaproxy } from './balancer.ts';
import { provideHelm, provideK8sCheck } from './kubernetes-tools.ts';
import { withHeapLimit } from './memory.ts';
import { gatewaySettingsOf, simulatorPortSetting, startSimulators, type PspSimulator } from './psp-simulators.ts';
import {
  IDENTITY_SIMULATOR_DEFAULT_PORT,
  IDENTITY_SIMULATOR_PORT_SETTING,
  startIdentitySimulator,
  type IdentitySimulator,
} from './identity-simulator.ts';
import {
  DIRECT_DEBIT_SIMULATOR_DEFAULT_PORT,
  DIRECT_DEBIT_SIMULATOR_PORT_SETTING,
  directDebitSimulator,
  type DirectDebitSimulator,
} from './direct-debit-simulator.ts';
import {
  cleanups,
  dataDir,
  prepareDatabase,
  provideTemporal,
  root,
  say,
  shutdown,
  stopChild,
  waitReady,
} from './stack.ts';

/** A port of the launcher's own environment. */
function portFromEnv(name: string, fallback: number, zeroMeans?: string): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!/^[0-9]{1,5}$/.test(raw) || port > 65_535 || (port === 0 && zeroMeans === undefined)) {
    throw new PrerequisiteError(
      `${name} must be a port number (1–65535${zeroMeans === undefined ? '' : `, or 0 for ${zeroMeans}`}), got "${raw}".`,
    );
  }
  return port;
}

/**
 * A secret of the local stack, unless the environment gives it: drawn once, kept in .data (owner-only),
 * so it survives restarts: the payment pages' CSRF secret, the simulators' admin token (which the
 * operator's `cli bank-sim fault` reads from there, docs/OPERATIONS.md#rehearse-a-psp-outage).
 */
function localSecret(name: 'PAGES_CSRF_SECRET' | 'BANK_SIM_ADMIN_TOKEN', fileName: string): string {
  const given = process.env[name];
  if (given !== undefined && given !== '') return given;
  const file = join(dataDir, fileName);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/** The demo merchant's test key, kept in .data so every `npm start` prints the same working key. */
async function demoKey(databaseUrl: string): Promise<string> {
  const file = join(dataDir, `demo-merchant-${databaseName(databaseUrl)}.json`);
  const { db } = createDatabase(databaseUrl, { poolSize: 1 });
  try {
    if (existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { test_key: string };
      const parsed = parseKey(saved.test_key);
      const row = parsed === undefined ? undefined : await unrevokedApiKeyByPrefix(db, parsed.prefix);
      if (row !== undefined) return saved.test_key;
    }
    const created = await createMerchant(db, loadConfig(), { name: 'Demo Shop', domain: 'localhost' });
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(created, null, 2), { mode: 0o600 });
    return created.test_key;
  } finally {
    await db.destroy();
  }
}

/** One sentence when Temporal still holds executions of workflow types this version retired (src/temporal/retired-workflows.ts). */
async function sayRetiredWorkflows(config: Config, devServerFile: string | undefined): Promise<void> {
  const { client, connection } = await connectTemporal(config);
  try {
    const notice = await retiredWorkflowsNotice(
      client,
      devServerFile === undefined ? {} : { devServerFile: relative(process.cwd(), devServerFile) || devServerFile },
    );
    if (notice !== undefined) say(notice);
  } finally {
    await connection.close();
  }
}

/** The launcher's own settings (only `npm start` reads them, so they are not gateway config). */
interface StartSettings {
  temporalPort: number;
  /** 0: no Web UI. */
  uiPort: number;
  policy: ReturnType<typeof restartPolicyFromEnv>;
}

function startSettings(): StartSettings {
  return {
    temporalPort: portFromEnv('TEMPORAL_DEV_PORT', 7233),
    uiPort: portFromEnv('TEMPORAL_UI_PORT', 8233, 'no Web UI'),
    policy: restartPolicyFromEnv(process.env),
  };
}

/**
 * Refuses to start over a port another process holds: the API's (else it would crash-loop on
 * EADDRINUSE while /readyz answers from the other process), each simulator's, each metrics endpoint's.
 */
async function checkPortsFree(
  config: Config,
  simulators: PspSimulator[],
  identity: IdentitySimulator,
  payman: DirectDebitSimulator,
): Promise<void> {
  if (await portInUse(payman.port))
    throw new PrerequisiteError(
      `port ${payman.port} is in use (another npm start?): stop it, or set ${DIRECT_DEBIT_SIMULATOR_PORT_SETTING}.`,
    );
  if (await portInUse(identity.port))
    throw new PrerequisiteError(
      `port ${identity.port} is in use (another npm start?): stop it, or set ${IDENTITY_SIMULATOR_PORT_SETTING}.`,
    );
  if (config.PORT !== 0 && (await portInUse(config.PORT, config.HOST))) {
    throw new PrerequisiteError(`port ${config.PORT} is in use (another npm start?): stop it, or set PORT.`);
  }
  for (const simulator of simulators) {
    if (await portInUse(simulator.port))
      throw new PrerequisiteError(
        `port ${simulator.port} is in use (another npm start?): stop it, or set ${simulatorPortSetting(simulator.psp)}.`,
      );
  }
  // The metrics endpoints of the API and the worker, and the Temporal SDK's exporter the worker reads (docs/OPERATIONS.md).
  for (const name of ['API_METRICS_PORT', 'WORKER_METRICS_PORT', 'TEMPORAL_SDK_METRICS_PORT'] as const) {
    if (config[name] !== 0 && (await portInUse(config[name], config.METRICS_HOST)))
      throw new PrerequisiteError(`port ${config[name]} is in use (another npm start?): stop it, or set ${name}.`);
  }
}

/** The environment of the worker, the API and the simulators of this stack. */
function stackEnv(
  temporalAddress: string,
  simulators: PspSimulator[],
  identity: IdentitySimulator,
  payman: DirectDebitSimulator,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TEMPORAL_ADDRESS: temporalAddress,
    PAGES_CSRF_SECRET: localSecret('PAGES_CSRF_SECRET', 'pages-csrf-secret'),
    // Always this stack's own simulators (a test suite's SANDBOX_<PSP>_URL must not leak in).
    ...gatewaySettingsOf(simulators),
    ...identity.gatewayEnv,
    ...payman.gatewayEnv,
    // Local development receives webhooks on localhost; a shared server must never (docs/SECURITY.md).
    WEBHOOK_ALLOW_LOOPBACK_IN_TEST: process.env.WEBHOOK_ALLOW_LOOPBACK_IN_TEST ?? 'true',
  };
}

/**
 * From here on every process is supervised: restarted when it dies, everything stopped when one keeps
 * crashing (supervisor.ts). The dev server (started and awaited by provideTemporal) restarts on the same
 * port and SQLite file; the simulators, the worker and the API start here.
 */
function superviseStack(
  config: Config,
  policy: StartSettings['policy'],
  temporal: Awaited<ReturnType<typeof provideTemporal>>,
  simulators: PspSimulator[],
  identity: IdentitySimulator,
  payman: DirectDebitSimulator,
  env: NodeJS.ProcessEnv,
): void {
  const supervisor = new Supervisor({
    root,
    policy,
    say,
    warn: (line) => process.stderr.write(`${line}\n`),
    onGiveUp: (sentence) => {
      process.stderr.write(`${sentence}\n`);
      void shutdown(1);
    },
  });
  cleanups.push(() => supervisor.stop());
  if (temporal.server !== undefined) {
    const { options } = temporal.server;
    supervisor.add(
      {
        name: 'Temporal dev server',
        layer: 0,
        hint: relative(process.cwd(), options.logFile) || options.logFile,
        start: () => spawnDevServer(options),
      },
      temporal.server.process,
    );
  }
  // Customers go back to this API (its public origin, and its port on this machine) and nowhere else.
  const redirectOrigins = [
    new URL(config.PUBLIC_BASE_URL).origin,
    `http://localhost:${config.PORT}`,
    `http://127.0.0.1:${config.PORT}`,
  ].join(',');
  // Their admin endpoints (the outage rehearsal's fault switches) answer only this stack's token.
  const simulatorAdmin = { BANK_SIM_ADMIN_TOKEN: localSecret('BANK_SIM_ADMIN_TOKEN', 'bank-sim-admin-token') };
  for (const simulator of simulators) {
    supervisor.add({
      name: simulator.name,
      layer: 1,
      script: 'src/bank-sim/main.ts',
      env: { BANK_SIM_REDIRECT_ORIGINS: redirectOrigins, ...env, ...simulatorAdmin, ...simulator.simulatorEnv },
    });
  }
  // The identity provider's simulator (docs/identity.md), under the same admin token.
  supervisor.add({
    name: identity.name,
    layer: 1,
    script: 'src/bank-sim/main.ts',
    env: { ...env, ...simulatorAdmin, ...identity.simulatorEnv },
  });
  // The direct debit provider's simulator (docs/psps/zarinpal-payman.md), under the same admin token.
  supervisor.add({
    name: payman.name,
    layer: 1,
    script: payman.script,
    env: { BANK_SIM_REDIRECT_ORIGINS: redirectOrigins, ...env, ...simulatorAdmin, ...payman.simulatorEnv },
  });
  // Each with the heap limit the deployments give it (tools/launcher/memory.ts).
  supervisor.add({ name: 'worker', layer: 1, script: 'src/main/worker.ts', env: withHeapLimit(env, 'worker') });
  supervisor.add({ name: 'api', layer: 1, script: 'src/main/api.ts', env: withHeapLimit(env, 'api') });
}

/** What a newcomer reads once the stack answers: its addresses, the test banks and a request to try. */
function sayRunning(
  config: Config,
  simulators: PspSimulator[],
  identity: IdentitySimulator,
  payman: DirectDebitSimulator,
  temporalUi: string | undefined,
  key: string,
): void {
  say('');
  say('Dargah payment gateway is running.');
  say(`  API:          ${config.PUBLIC_BASE_URL}/api/v1`);
  say(`  API docs:     ${config.PUBLIC_BASE_URL}/docs`);
  say(`  Readiness:    ${config.PUBLIC_BASE_URL}/readyz`);
  say('  Test banks:   the PSP simulators of test mode (docs/BANK.md):');
  const width = Math.max(...PSP_NAMES.map((psp) => psp.length));
  for (const simulator of simulators) say(`    ${simulator.psp.padEnd(width)}  ${simulator.url}  ${simulator.title}`);
  say(`  Identity:     ${identity.gatewayEnv.SANDBOX_IDENTITY_URL}  ${identity.title} (docs/identity.md)`);
  say(`  Direct debit: ${payman.url}  ${payman.title} (docs/SUBSCRIPTIONS.md)`);
  if (temporalUi !== undefined) say(`  Temporal UI:  ${temporalUi}`);
  if (config.API_METRICS_PORT !== 0)
    say(
      `  Metrics:      http://${config.METRICS_HOST}:${config.API_METRICS_PORT}/metrics (API), port ${config.WORKER_METRICS_PORT} (worker)`,
    );
  say(`  Demo test key (merchant "Demo Shop", domain localhost): ${key}`);
  say('');
  say(
    `Try: curl -s ${config.PUBLIC_BASE_URL}/api/v1/payments -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\`,
  );
  say(`       -d '{"amount":150000,"callback_url":"http://localhost:8000/return","merchant_reference":"order-1"}'`);
  say('Press Ctrl-C to stop.');
}

/** `npm start`: the steps of the header above, each named. */
export async function start(): Promise<void> {
  const config = loadConfig();
  const { temporalPort, uiPort, policy } = startSettings();
  say(`Preparing MySQL database ${databaseName(config.DATABASE_URL)}…`);
  await prepareDatabase(config.DATABASE_URL, false);
  const temporal = await provideTemporal(process.env, temporalPort, uiPort === 0 ? undefined : uiPort, 'start');
  await sayRetiredWorkflows({ ...config, TEMPORAL_ADDRESS: temporal.address }, temporal.server?.options.dbFile);
  // The bank simulators (test mode's banks, docs/BANK.md), one per PSP of the registry, each on its
  // profile's port (test mode's default address) with its own ledger in .data.
  const simulators = startSimulators(process.env, dataDir, (psp, fallback) =>
    portFromEnv(simulatorPortSetting(psp), fallback),
  );
  // The identity provider's simulator (docs/identity.md) on its port, 3120 unless BANK_SIM_IDENTITY_PORT moves it.
  const identity = startIdentitySimulator(
    process.env,
    portFromEnv(IDENTITY_SIMULATOR_PORT_SETTING, IDENTITY_SIMULATOR_DEFAULT_PORT),
  );
  // The direct debit provider's simulator (docs/SUBSCRIPTIONS.md) on its port, 3130 unless BANK_SIM_PAYMAN_PORT moves it.
  const payman = directDebitSimulator(
    portFromEnv(DIRECT_DEBIT_SIMULATOR_PORT_SETTING, DIRECT_DEBIT_SIMULATOR_DEFAULT_PORT),
    dataDir,
    'payman-sim',
  );
  await checkPortsFree(config, simulators, identity, payman);
  superviseStack(
    config,
    policy,
    temporal,
    simulators,
    identity,
    payman,
    stackEnv(temporal.address, simulators, identity, payman),
  );
  const apiBase = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
  await waitReady(`${apiBase}/readyz`, 120);
  const key = await demoKey(config.DATABASE_URL);
  sayRunning(
    config,
    simulators,
    identity,
    payman,
    temporal.server !== undefined && uiPort !== 0 ? `http://localhost:${uiPort}` : undefined,
    key,
  );
}

/**
 * Whether a whole `npm test` runs the fault suite beside the main suite rather than after it
 * (FAULTS_BESIDE_MAIN=1). The fault suite mostly waits (outages of 15 to 25 s, payments' windows of 30
 * to 45 s, a worker's restart): alone on the two cores it used 0.69 of a core on average over its
 * 11 min 52 s, so side by side nearly all of its time would leave the run. It is not the default: on
 * the 2-core machine, beside the main suite (load average 6 to 9), scenario 06 (MySQL frozen under load)
 * failed in both runs tried, its requests' bound being a bound on time (docs/TESTING.md).
 */
function faultsBesideMain(suites: readonly string[], mainOnly: boolean): boolean {
  return !mainOnly && suites.includes('main') && suites.includes('faults') && process.env.FAULTS_BESIDE_MAIN === '1';
}

/**
 * The main suite, then (on a whole run that passed) the fault suite of
 * test/faults, which starts and breaks its own MariaDB, Temporal server and
 * workers, then the cluster suite of test/cluster (a Temporal cluster,
 * HAProxy, replicas). `faults` and `cluster` run one suite alone.
 */
export async function test(args: string[], suites: ('main' | 'faults' | 'cluster' | 'image')[]): Promise<void> {
  const mainOnly = suites[0] === 'main' && args.length > 0; // a filtered run runs the main suite alone
  // Each part's wall time, printed at the end of a run that passed (a failed one ends with mocha's failures).
  const times: [string, number][] = [];
  // A part's process, stopped with everything else on Ctrl-C or a failure.
  const stoppedWithEverything = (child: ChildProcess) => {
    const stop = stopChild(child);
    cleanups.push(stop);
    child.once('exit', () => cleanups.splice(cleanups.indexOf(stop), 1));
  };
  // The static checks start first and run beside the unit tier (suites.ts says why).
  const checks =
    process.env.SKIP_STATIC_CHECKS !== '1' && suites.includes('main')
      ? staticChecks(root, say, stoppedWithEverything)
      : undefined;
  if (suites.includes('main') && !mainOnly) {
    const unit = await unitTier(root, say);
    times.push(['unit tier', unit.ms]);
    if (!unit.passed) throw new PrerequisiteError('the unit tier failed (see above)');
  }
  // Before the suites, so a first build (minutes) counts against no test's timeout.
  if (suites.includes('main') && !mainOnly) {
    // The chart test's Helm and tools/k8s-check (test/foundation/helm-chart.test.ts).
    provideHelm();
    provideK8sCheck(say);
  }
  if (suites.includes('cluster') && !mainOnly) {
    provideClusterBinaries();
    providePostgres(say);
    provideHaproxy(say);
  }
  if (checks !== undefined) {
    const result = await checks;
    times.push(['static checks (beside the unit tier)', result.ms]);
    if (!result.passed) throw new PrerequisiteError('the static checks failed (see above)');
  }
  const configs = {
    main: join(root, 'test', '.mocharc.json'),
    faults: join(root, 'test', 'faults', '.mocharc.json'),
    cluster: join(root, 'test', 'cluster', '.mocharc.json'),
    image: join(root, 'test', 'image', '.mocharc.json'),
  };
  const chromiumProblem = provideChromium(say);
  if (chromiumProblem !== undefined) say(`${chromiumProblem} The browser tests will fail.`);
  // The simulators' admin endpoints need a token, which the tests hold (test/support/bank.ts); the
  // gateway's test API servers listen on 127.0.0.1 at ports of their own, and some stand for a gateway
  // behind TLS at https://pay.example (test/security/response-headers.test.ts).
  const bankSimSettings = {
    BANK_SIM_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
    BANK_SIM_REDIRECT_ORIGINS: 'http://127.0.0.1:*,http://localhost:*,https://pay.example',
  };
  // Files named on the command line run in one process; a whole or filtered (--grep) main suite in shards.
  const filesNamed = suiteArgs(root, configs.main, args)[1] !== configs.main;
  const shardCount = filesNamed || !suites.includes('main') ? 1 : mainSuiteShards();
  const envs: NodeJS.ProcessEnv[] = [];
  for (let shard = 1; shard <= shardCount; shard++)
    envs.push(await suiteServices(shard, bankSimSettings, chromiumProblem));
  const env = envs[0]!;
  let code = 0;
  // The closing list of failures, printed last: CI keeps only the end of the log.
  let failures: string[] = [];
  // The fault suite beside the main suite (faultsBesideMain says why), on services of its own: its scenarios
  // switch faults on at their simulators, which no main-suite test may meet.
  const faultsBeside = faultsBesideMain(suites, mainOnly);
  let faultRun: Promise<ShardResult & { ms: number }> | undefined;
  if (faultsBeside) {
    const faultEnv = await suiteServices(shardCount + 1, bankSimSettings, chromiumProblem);
    say(
      'Running the fault suite (test/faults) beside the main suite: it starts its own MariaDB, Temporal server and workers; its lines are prefixed [faults]…',
    );
    const started = Date.now();
    faultRun = runLabelledMocha(root, 'faults', ['--config', configs.faults], {
      ...faultEnv,
      // Where a fault suite run alone keeps its logs and figures (test-artifacts/faults, reliability.json).
      TEST_ARTIFACTS: env.TEST_ARTIFACTS,
      DARGAH_SUITE: 'faults',
    }).then((result) => ({ ...result, ms: Date.now() - started }));
  }
  // The fault suite's end, awaited once: in its turn, or when the main suite failed (its failures are listed too).
  const faultsEnded = async () => {
    if (faultRun === undefined) return;
    const result = await faultRun;
    faultRun = undefined;
    times.push(['fault suite (beside the main suite)', result.ms]);
    say(`Fault suite: ${result.counts.join(', ') || `no counts (mocha exited ${result.code})`}.`);
    failures.push(...result.failures);
    if (code === 0) code = result.code;
  };
  for (const suite of suites) {
    if (suite !== 'main' && mainOnly) break;
    if (suite === 'faults' && faultsBeside) {
      await faultsEnded();
      if (code !== 0) break;
      continue;
    }
    if (suite === 'faults')
      say('Running the fault suite (test/faults): it starts its own MariaDB, Temporal server and workers…');
    if (suite === 'cluster')
      say(
        'Running the cluster suite (test/cluster): a Temporal cluster on its own PostgreSQL, HAProxy, API replicas and workers…',
      );
    if (suite === 'image')
      say('Running the image suite (test/image): the production image built with buildah and run with podman…');
    const started = Date.now();
    if (suite === 'main' && envs.length > 1) {
      const groups = splitByWeight(suiteFiles(root, configs.main), readWeights(root), envs.length);
      say(
        `Running the main suite in ${envs.length} shards side by side (${groups.map((g) => `${g.length} files`).join(', ')}), each on services of its own; their lines are prefixed [1], [2]…`,
      );
      const results = await runShards(
        root,
        configs.main,
        groups,
        envs.map((e) => ({ ...e, DARGAH_SUITE: 'main' })),
        args,
      );
      times.push([`main suite (${envs.length} shards)`, Date.now() - started]);
      say('\nSlowest files of the main suite:');
      for (const line of slowestFiles(
        root,
        envs.map((e) => e.TEST_ARTIFACTS ?? ''),
        12,
      ))
        say(line);
      for (const r of results) say(`Shard ${r.shard}: ${r.counts.join(', ') || `no counts (mocha exited ${r.code})`}.`);
      failures = results.flatMap((r) => r.failures);
      code = results.find((r) => r.code !== 0)?.code ?? 0;
    } else if (suite === 'main' && faultsBeside) {
      // Labelled, as the fault suite's lines are: the two print at once.
      const result = await runLabelledMocha(root, 'main', suiteArgs(root, configs.main, args), {
        ...env,
        DARGAH_SUITE: 'main',
      });
      times.push(['main suite', Date.now() - started]);
      say(`Main suite: ${result.counts.join(', ') || `no counts (mocha exited ${result.code})`}.`);
      failures = result.failures;
      code = result.code;
    } else {
      const mocha = spawn(
        process.execPath,
        [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...suiteArgs(root, configs[suite], args)],
        { cwd: root, stdio: 'inherit', env: { ...env, DARGAH_SUITE: suite } },
      );
      const stop = stopChild(mocha);
      cleanups.push(stop);
      code = await new Promise<number>((resolve) =>
        mocha.once('exit', (c, signal) => resolve(c ?? (signal === null ? 1 : 130))),
      );
      times.push([`${suite} suite`, Date.now() - started]);
      cleanups.splice(cleanups.indexOf(stop), 1);
    }
    if (code !== 0) {
      await faultsEnded();
      break;
    }
  }
  if (times.length > 1) say(`Times: ${times.map(([part, ms]) => `${part} ${minutesAndSeconds(ms)}`).join(', ')}.`);
  if (failures.length > 0) {
    say(`\nFailing tests (${failures.length}), the first line of each error:`);
    for (const line of failures) say(line);
  }
  await shutdown(code);
}

/**
 * `npm run test:unit`: the unit tier alone, in processes side by side (suites.ts); unit test files named on
 * the command line, or mocha's options (`--grep`), run in one process.
 */
export async function unit(args: string[]): Promise<void> {
  if (args.length === 0) {
    const result = await unitTier(root, say);
    say(`Times: unit tier ${minutesAndSeconds(result.ms)}.`);
    return shutdown(result.passed ? 0 : 1);
  }
  const mocha = spawn(
    process.execPath,
    [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...suiteArgs(root, unitConfig(root), args)],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TEMPORAL_CLI: provideTemporalCli(), DARGAH_SUITE: 'unit' } },
  );
  cleanups.push(stopChild(mocha));
  const code = await new Promise<number>((resolve) =>
    mocha.once('exit', (c, signal) => resolve(c ?? (signal === null ? 1 : 130))),
  );
  return shutdown(code);
}

/** `ms` as "12 min 05 s" (or "45 s"). */
function minutesAndSeconds(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds} s` : `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
}
