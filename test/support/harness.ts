/**
 * The suite's one set of real services: the test database and the Temporal
 * dev server that `npm test` started, one in-process payment worker, and an
 * API server per configuration a test asks for. Built lazily, once.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { Worker, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDatabase, type Db } from '../../src/db/database.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import { createApp } from '../../src/main/http-app.ts';
import { listen } from '../../src/http/server.ts';
import { connectTemporal, registerSearchAttributes, type TemporalClient } from '../../src/temporal/client.ts';
import { createWorkers, sourcesWorkflowBundle } from '../../src/main/payment-worker.ts';
import { createMerchant } from '../../src/merchants/merchants.ts';
import { tmpdir } from 'node:os';
import { createSimulator } from '../../src/bank-sim/server.ts';
import { createIdentitySimulator, JIBIT_IDENTITY_DEFAULTS } from '../../src/bank-sim/jibit-identity.ts';
import { identityProviders, type IdentityProvider } from '../../src/adapters/identity/identity-provider.ts';
import { freePort } from '../../src/main/ports.ts';
import { ARTIFACTS } from './artifacts.ts';
import { operatorNetworkSettings } from './operator-network.ts';
import { suiteSepUrl } from './suite-sep.ts';

export interface Harness {
  config: Config;
  db: Db;
  temporal: TemporalClient;
  logger: Logger;
  bundle: WorkflowBundleWithSourceMap;
  worker: Worker;
  /** Base URL of an API server with the default test configuration. */
  baseUrl: string;
}

export const SUITE_LOG = join(ARTIFACTS, 'suite.log');

let harness: Promise<Harness> | undefined;
const servers: Server[] = [];
const closers: (() => Promise<void>)[] = [];

/** Test configuration: the services of `npm test`, and windows short enough to wait for. */
export function testConfig(overrides: Partial<Record<keyof Config, string>> = {}): Config {
  // Webhook retries seconds apart (about 30 s in all) instead of over a day.
  // Receivers are local servers on random ports: loopback webhook URLs are allowed here, as `npm start` does (off by default).
  const { WEBHOOK_ALLOWED_NETWORKS: operatorNetwork, WEBHOOK_CA_FILE } = operatorNetworkSettings();
  const webhooks = {
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1,2,3,5,8,13',
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'true',
    WEBHOOK_CA_FILE,
  };
  // A bank call that hangs (a fault test's timeout) is given up after 3 s instead of 10.
  // A settlement run settles payments verified up to the moment it runs (no day's hold): a test settles what it just made.
  // Every test signs up from 127.0.0.1: the per-client sign-up limit is off here (its own test sets it),
  // and so is the per-client limit of the public pages' actions (test/pages/link-abuse.test.ts sets it).
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    DASHBOARD_SIGN_UPS_PER_CLIENT_PER_HOUR: '0',
    PAGE_ACTIONS_PER_CLIENT_PER_MINUTE: '0',
    BANK_RECONFIRM_AFTER_SECONDS: '1',
    BANK_TIMEOUT_MS: '3000',
    SETTLEMENT_HOLD_HOURS: '0',
    ...webhooks,
    ...overrides,
  });
  // One loopback address of this process's own stands for the operator's network, where the receivers of the merchants
  // the operator allowed there may be (operator-network.ts). loadConfig refuses any loopback network to an operator
  // (docs/WEBHOOKS.md#receivers-on-the-operators-network); a test machine has no other address that can receive, so
  // the suites set it after loading, where no deployment can, unless a test names its own networks.
  if (overrides.WEBHOOK_ALLOWED_NETWORKS === undefined) config.WEBHOOK_ALLOWED_NETWORKS = operatorNetwork;
  return config;
}

/** A live PSP for tests: the simulator under the live configuration. */
export const LIVE_BANK = () => ({ SEP_BASE_URL: suiteSepUrl() ?? '', SEP_TERMINAL_ID: '11223344' });

/** An API server with a live bank configured (the simulator standing in for a PSP). */
export async function liveBankApi(): Promise<string> {
  return apiWith(LIVE_BANK());
}

/** A port nobody listens on right now. */
/**
 * The bank simulator: the process `npm test` started (SANDBOX_SEP_URL), or, for a bare
 * mocha run, one in this process on a free port.
 */
async function provideBankSimulator(): Promise<void> {
  if (suiteSepUrl() !== undefined) return;
  process.env.BANK_SIM_ADMIN_TOKEN ??= randomBytes(24).toString('base64url');
  const { server } = createSimulator({
    stateFile: join(tmpdir(), `dargah-bank-sim-${process.pid}.jsonl`),
    terminalId: '11223344',
    password: '',
    delaySeconds: 1,
    adminToken: process.env.BANK_SIM_ADMIN_TOKEN,
    redirectOrigins: ['http://127.0.0.1:*', 'http://localhost:*'],
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.SANDBOX_SEP_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.unref();
}

/**
 * The identity provider's simulator (docs/identity.md): the process `npm test` started
 * (SANDBOX_IDENTITY_URL), or, for a bare mocha run, one in this process on a free port.
 */
async function provideIdentitySimulator(): Promise<void> {
  if (process.env.SANDBOX_IDENTITY_URL !== undefined && process.env.SANDBOX_IDENTITY_URL !== '') return;
  process.env.BANK_SIM_ADMIN_TOKEN ??= randomBytes(24).toString('base64url');
  const secretKey = randomBytes(24).toString('base64url');
  const { server } = createIdentitySimulator({
    apiKey: JIBIT_IDENTITY_DEFAULTS.apiKey,
    secretKey,
    adminToken: process.env.BANK_SIM_ADMIN_TOKEN,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.SANDBOX_IDENTITY_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ide`;
  process.env.SANDBOX_IDENTITY_API_KEY = JIBIT_IDENTITY_DEFAULTS.apiKey;
  process.env.SANDBOX_IDENTITY_SECRET_KEY = secretKey;
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.unref();
}

/**
 * The identity provider of test mode, as the API's configuration makes it (identityProviders of the
 * suite's configuration): the connector speaking to the suite's identity simulator.
 */
export async function testIdentityProvider(): Promise<IdentityProvider> {
  await provideIdentitySimulator();
  const provider = identityProviders(testConfig()).test;
  if (provider === undefined) throw new Error('test mode has no identity provider (SANDBOX_IDENTITY_URL is empty)');
  return provider;
}

/** The admin endpoint of the suite's identity simulator (its fault switch `identity`), with the suite's admin token. */
export async function identityFault(body: { fault: string; times?: number }): Promise<void> {
  await provideIdentitySimulator();
  const base = new URL(process.env.SANDBOX_IDENTITY_URL!).origin;
  const res = await fetch(`${base}/admin/faults`, {
    method: body.fault === 'clear' ? 'DELETE' : 'POST',
    headers: { authorization: `Bearer ${process.env.BANK_SIM_ADMIN_TOKEN ?? ''}`, 'content-type': 'application/json' },
    body: body.fault === 'clear' ? undefined : JSON.stringify({ operation: 'identity', ...body }),
  });
  if (res.status !== 200) throw new Error(`the identity simulator refused the fault switch: ${res.status}`);
}

/** The harness if a test has built it, without building it (a failed build: undefined). */
export function startedHarness(): Promise<Harness | undefined> {
  return harness?.catch(() => undefined) ?? Promise.resolve(undefined);
}

export function getHarness(): Promise<Harness> {
  harness ??= (async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await provideBankSimulator();
    await provideIdentitySimulator();
    const config = testConfig();
    const logger = createLogger(config.LOG_LEVEL, 'suite', createWriteStream(SUITE_LOG, { flags: 'a' }));
    const { db } = createDatabase(config.DATABASE_URL);
    const temporal = await connectTemporal(config);
    // A dev server whose SQLite file predates a search attribute lacks it: registered as the worker does.
    await registerSearchAttributes(temporal.connection, config.TEMPORAL_NAMESPACE);
    // With the tracing interceptors, as a traced deployment runs it: every workflow of the suite, and the
    // replay of the committed histories (recorded without them), runs with them installed.
    const bundle = await sourcesWorkflowBundle(true);
    // The worker's live bank is the simulator too (standing in for a PSP): live payments go to it
    // through API servers configured for a live bank (liveBankApi), never through the default one.
    const workers = await createWorkers({
      config: { ...config, ...LIVE_BANK() },
      db,
      temporal: temporal.client,
      logger,
      bundle,
    });
    const running = Promise.all([workers.payments.run(), workers.webhooks.run()]);
    closers.push(async () => {
      workers.payments.shutdown();
      workers.webhooks.shutdown();
      await running;
    });
    const h: Harness = { config, db, temporal, logger, bundle, worker: workers.payments, baseUrl: '' };
    h.baseUrl = await startApi({ ...h, temporalClient: temporal.client }, config);
    // The default API's own address is its public one (the bank sends customers back there).
    h.config = { ...config, PUBLIC_BASE_URL: h.baseUrl };
    closers.push(async () => {
      await temporal.connection.close();
      await db.destroy();
    });
    return h;
  })();
  return harness;
}

/** Starts one more API server over the same services, with its own configuration. */
export async function startApi(
  h: Pick<Harness, 'db' | 'logger'> & { temporalClient: Client },
  config: Config,
  /** Keep the config's PUBLIC_BASE_URL (a test of an https deployment) instead of this server's own address. */
  keepPublicBaseUrl = false,
): Promise<string> {
  // Listening on a port chosen first, so that PUBLIC_BASE_URL (where the bank returns customers) is this server.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const publicBaseUrl = keepPublicBaseUrl ? config.PUBLIC_BASE_URL : baseUrl;
  const app = createApp({
    config: { ...config, PORT: port, PUBLIC_BASE_URL: publicBaseUrl },
    db: h.db,
    temporal: h.temporalClient,
    logger: h.logger,
  });
  const server = await listen(app, port, '127.0.0.1');
  servers.push(server);
  return baseUrl;
}

/** An API server whose payments use these settings (the worker takes windows from each payment). */
export async function apiWith(overrides: Partial<Record<keyof Config, string>>): Promise<string> {
  const h = await getHarness();
  return startApi(
    { ...h, temporalClient: h.temporal.client },
    testConfig(overrides),
    overrides.PUBLIC_BASE_URL !== undefined,
  );
}

/** An API server whose Temporal is unreachable (a dead address), over the real MySQL. */
export async function apiWithDeadTemporal(): Promise<string> {
  const h = await getHarness();
  const connection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '1s' });
  return startApi({ ...h, temporalClient: new Client({ connection }) }, testConfig());
}

export async function closeHarness(): Promise<void> {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  for (const close of closers.splice(0).reverse()) await close();
  harness = undefined;
}

let merchantCounter = 0;
/** A fresh merchant with a test key; its domain is localhost so test callbacks can be local. */
export async function newMerchant(domain = 'localhost'): Promise<{ merchantId: string; key: string; keyId: string }> {
  const h = await getHarness();
  merchantCounter += 1;
  const m = await createMerchant(h.db, h.config, { name: `Test merchant ${merchantCounter}`, domain });
  return { merchantId: m.merchant_id, key: m.test_key, keyId: m.test_key_id };
}
