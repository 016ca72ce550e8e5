/**
 * The services a suite's mocha process runs against (test-command.ts's `test`): one copy per shard of the
 * main suite (tools/launcher/shards.ts), each on its own database, Temporal dev server and simulators.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { PSP_NAMES } from '../../src/psps/profiles.ts';
import { databaseName } from '../../src/db/database.ts';
import { freePort } from '../../src/main/ports.ts';
import { PrerequisiteError } from './temporal-cli.ts';
import { describeExit } from './supervisor.ts';
import { CHROMIUM_PROBLEM_ENV } from './chromium.ts';
import { gatewaySettingsOf, suiteSimulators, type PspSimulator } from './psp-simulators.ts';
import { suiteIdentitySimulator } from './identity-simulator.ts';
import { directDebitSimulator } from './direct-debit-simulator.ts';
import {
  cleanups,
  dataDir,
  isStopping,
  prepareDatabase,
  provideTemporal,
  root,
  say,
  startChild,
  stopChild,
  waitReady,
} from './stack.ts';

/** A bank simulator process for the test suite, its ledger fresh: answers once it is ready. */
async function startSuiteSimulator(
  simulator: Pick<PspSimulator, 'name' | 'url' | 'simulatorEnv'> & { script?: string },
  shared: NodeJS.ProcessEnv,
): Promise<void> {
  const ledger = simulator.simulatorEnv.BANK_SIM_STATE_FILE;
  if (ledger !== undefined) rmSync(ledger, { force: true });
  const child = startChild(simulator.name, simulator.script ?? 'src/bank-sim/main.ts', {
    ...process.env,
    ...shared,
    ...simulator.simulatorEnv,
    SANDBOX_DELAY_SECONDS: '1',
  });
  cleanups.push(stopChild(child));
  await waitReady(`${simulator.url}/healthz`, 30);
}

/**
 * How many shards the main suite runs in (tools/launcher/shards.ts): TEST_SHARDS, else one. Each shard costs
 * a Temporal dev server, the simulators and a database. Alone, one process of the main suite keeps the
 * 2-core machine about two-thirds busy; but two shards beside the fault and cluster suites' lane
 * (test-command.ts) raised the load average to 15 and failed four fault scenarios and a timed main-suite
 * test in the one whole run tried: Chromium, run as root, raises its browser and GPU processes to niceness
 * -8, and the shared MariaDB serves the shards at normal priority, so the main suite's niceness does not hold
 * its whole weight back (docs/TESTING.md#the-main-suite-in-shards).
 */
export function mainSuiteShards(): number {
  const raw = process.env.TEST_SHARDS;
  if (raw === undefined || raw === '') return 1;
  if (!/^[1-8]$/.test(raw)) throw new PrerequisiteError(`TEST_SHARDS must be a number from 1 to 8, got "${raw}".`);
  return Number(raw);
}

/**
 * One copy of the suites' services, on its own database, ports and Temporal dev server (its own SQLite file),
 * with test mode's simulators (one process per PSP, each terminal's password a random value) and the identity
 * provider's simulator: the environment a mocha process of that shard runs with. Shard 1 is the suites'
 * classic copy (the database `<name>_test`, test-artifacts/); shard n uses `<name>_test_n` and test-artifacts/shard-n/.
 */
export async function suiteServices(
  shard: number,
  bankSimSettings: Record<string, string>,
  chromiumProblem: string | undefined,
): Promise<NodeJS.ProcessEnv> {
  const base = loadConfig();
  const testUrl = new URL(process.env.TEST_DATABASE_URL ?? base.DATABASE_URL);
  if (process.env.TEST_DATABASE_URL === undefined) testUrl.pathname = `/${databaseName(base.DATABASE_URL)}_test`;
  if (shard > 1) testUrl.pathname = `${testUrl.pathname}_${shard}`;
  const databaseUrl = testUrl.toString();
  const name = shard === 1 ? 'test' : `test-${shard}`;
  say(`Preparing the test database ${databaseName(databaseUrl)}…`);
  await prepareDatabase(databaseUrl, true);
  const port = await freePort();
  const temporal = await provideTemporal(process.env, port, undefined, name);
  // Not restarted: the suite runs its worker in-process, and a restart would hide the
  // crash from the test that caused it. Said once, so the failures that follow make sense.
  temporal.server?.process.once('exit', (code, signal) => {
    if (!isStopping()) {
      process.stderr.write(
        `The test suite's Temporal dev server (${name}) exited (${describeExit(code, signal)}) while the tests ran: tests that need Temporal fail from here on; see ${temporal.server?.options.logFile}.\n`,
      );
    }
  });
  const artifacts = shard === 1 ? join(root, 'test-artifacts') : join(root, 'test-artifacts', `shard-${shard}`);
  mkdirSync(artifacts, { recursive: true });
  // Test mode's banks: one simulator per PSP of the registry, each its own process on a free port with the
  // same admin token, its terminal's password a random value (suiteSimulators).
  const ports: number[] = [];
  for (let i = 0; i < PSP_NAMES.length; i++) ports.push(await freePort());
  const simulators = suiteSimulators(dataDir, ports, name);
  for (const simulator of simulators) await startSuiteSimulator(simulator, bankSimSettings);
  // The identity provider's simulator (docs/identity.md): test/support/harness.ts's testIdentityProvider reaches it.
  const identity = suiteIdentitySimulator(await freePort());
  await startSuiteSimulator(identity, bankSimSettings);
  // The direct debit provider's simulator (docs/SUBSCRIPTIONS.md), its state fresh for each run.
  const payman = directDebitSimulator(await freePort(), dataDir, `payman-sim-${name}`);
  await startSuiteSimulator(payman, bankSimSettings);
  return {
    ...process.env,
    ...gatewaySettingsOf(simulators),
    ...identity.gatewayEnv,
    ...payman.gatewayEnv,
    ...bankSimSettings,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_CLI: temporal.cli ?? '',
    TEMPORAL_DEV_DB: join(dataDir, `temporal-${name}.sqlite`),
    TEST_ARTIFACTS: artifacts,
    TEST_SHARD: String(shard),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    ...(chromiumProblem === undefined ? {} : { [CHROMIUM_PROBLEM_ENV]: chromiumProblem }),
  };
}
