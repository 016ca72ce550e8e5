/**
 * The suite's one set of real services: the test database and the Temporal
 * dev server that `npm test` started, one in-process payment worker, and an
 * API server per configuration a test asks for. Built lazily, once.
 */
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
import { connectTemporal, type TemporalClient } from '../../src/temporal/client.ts';
import { bundleWorkflows, createWorkers } from '../../src/main/payment-worker.ts';
import { createMerchant } from '../../src/merchants/merchants.ts';

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

const artifacts = process.env.TEST_ARTIFACTS ?? join(process.cwd(), 'test-artifacts');
export const SUITE_LOG = join(artifacts, 'suite.log');

let harness: Promise<Harness> | undefined;
const servers: Server[] = [];
const closers: (() => Promise<void>)[] = [];

/** Test configuration: the services of `npm test`, and windows short enough to wait for. */
export function testConfig(overrides: Partial<Record<keyof Config, string>> = {}): Config {
  // Webhook retries seconds apart (about 30 s in all) instead of over a day.
  // Receivers are local servers on random ports: loopback webhook URLs are allowed here, as `npm start` does (off by default).
  const webhooks = { WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1,2,3,5,8,13', WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'true' };
  return loadConfig({ ...process.env, PORT: '0', SANDBOX_DELAY_SECONDS: '1', ...webhooks, ...overrides });
}

export function getHarness(): Promise<Harness> {
  harness ??= (async () => {
    mkdirSync(artifacts, { recursive: true });
    const config = testConfig();
    const logger = createLogger(config.LOG_LEVEL, 'suite', createWriteStream(SUITE_LOG, { flags: 'a' }));
    const { db } = createDatabase(config.DATABASE_URL);
    const temporal = await connectTemporal(config);
    const bundle = await bundleWorkflows();
    const workers = await createWorkers({ config, db, temporal: temporal.client, logger, bundle });
    const running = Promise.all([workers.payments.run(), workers.webhooks.run()]);
    closers.push(async () => {
      workers.payments.shutdown();
      workers.webhooks.shutdown();
      await running;
    });
    const h: Harness = { config, db, temporal, logger, bundle, worker: workers.payments, baseUrl: '' };
    h.baseUrl = await startApi({ ...h, temporalClient: temporal.client }, config);
    closers.push(async () => {
      await temporal.connection.close();
      await db.destroy();
    });
    return h;
  })();
  return harness;
}

/** Starts one more API server over the same services, with its own configuration. */
export async function startApi(h: Pick<Harness, 'db' | 'logger'> & { temporalClient: Client }, config: Config): Promise<string> {
  const app = createApp({ config, db: h.db, temporal: h.temporalClient, logger: h.logger });
  const server = await listen(app, 0, '127.0.0.1');
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** An API server whose payments use these settings (the worker takes windows from each payment). */
export async function apiWith(overrides: Partial<Record<keyof Config, string>>): Promise<string> {
  const h = await getHarness();
  return startApi({ ...h, temporalClient: h.temporal.client }, testConfig(overrides));
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
