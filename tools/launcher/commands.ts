/**
 * `npm start` (tools/launcher/main.ts runs it), made of the stack's pieces (stack.ts), everything a fresh
 * machine needs, in order: Temporal CLI → MySQL database and migrations → Temporal dev server (unless
 * TEMPORAL_ADDRESS names a cluster) → worker and API processes → a demo merchant's test key, then the
 * addresses. From then on it supervises them: a process that dies is restarted with backoff
 * (supervisor.ts); one that keeps crashing stops everything. The test commands are test-command.ts's.
 */
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
import { PrerequisiteError } from './temporal-cli.ts';
import { spawnDevServer } from './dev-server.ts';
import { restartPolicyFromEnv, Supervisor } from './supervisor.ts';
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
import { cleanups, dataDir, prepareDatabase, provideTemporal, root, say, shutdown, waitReady } from './stack.ts';

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
