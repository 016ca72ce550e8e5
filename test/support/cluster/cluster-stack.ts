/**
 * The cluster suite's stack: the production topology on one machine, on free
 * ports and in its own directories and databases. A Temporal cluster
 * (tools/launcher/temporal-cluster.ts: its own PostgreSQL, two frontends, history with 4
 * shards, matching, the internal worker, the Web UI), HAProxy in front of the
 * frontends (TCP) and of two API replicas (HTTP), two payment workers; every
 * gateway process reaches Temporal through the balancer and shares one MySQL
 * database (`cluster_gateway`), the rate-limit store and the CSRF secret.
 * Each process can be killed and started again on the same ports.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, type Config } from '../../../src/config.ts';
import { createDatabase, type Db } from '../../../src/db/database.ts';
import { migrateToLatest, recreateDatabase } from '../../../src/db/migrate.ts';
import { createMerchant } from '../../../src/merchants/merchants.ts';
import type { PostgresServer } from '../../../tools/launcher/postgres.ts';
import { startClusterInfrastructure, type ClusterInfrastructure } from '../../../tools/launcher/temporal-cluster.ts';
import type { TemporalCluster } from '../../../tools/launcher/temporal-services.ts';
import { waitFor } from '../http.ts';
import { freePort } from '../../../src/main/ports.ts';
import { ARTIFACTS } from '../artifacts.ts';
import { WorkerProcess } from '../faults/fault-stack.ts';

export const CLUSTER_LOGS = join(ARTIFACTS, 'cluster');
export const CLUSTER_JSON = join(ARTIFACTS, 'cluster.json');
const TASK_QUEUE = 'cluster';

/** The gateway's replicas: killed and started again by name. */
export type GatewayProcess = 'api-a' | 'api-b' | 'worker-a' | 'worker-b';

export interface ClusterStack {
  infra: ClusterInfrastructure;
  pg: PostgresServer;
  temporalCluster: TemporalCluster;
  /** The API through the balancer: every client request goes here. */
  api: string;
  databaseUrl: string;
  db: Db;
  /** A client of the test's own, through the balancer like the gateway's. */
  temporal: Client;
  config: Config;
  gateway: Map<GatewayProcess, WorkerProcess>;
  gatewayEnv: Record<GatewayProcess, NodeJS.ProcessEnv>;
  /** Bring-up figures: how long each part took. */
  bringUp: Record<string, number>;
}

const say = (line: string) => process.stdout.write(`      ${line}\n`);

let stack: Promise<ClusterStack> | undefined;
/** How to stop what has been started so far, in order of starting: a bring-up that fails half-way leaves nothing running. */
const stops: (() => Promise<void>)[] = [];

export function getClusterStack(): Promise<ClusterStack> {
  stack ??= bringUp();
  return stack;
}

async function bringUp(): Promise<ClusterStack> {
  const namespace = loadConfig().TEMPORAL_NAMESPACE;
  const infra = await startClusterInfrastructure({ logDir: CLUSTER_LOGS, namespace, freePort, log: say });
  stops.push(() => infra.stop());
  const timings = { ...infra.timings };
  let mark = Date.now();
  const lap = (name: string) => {
    timings[name] = Date.now() - mark;
    mark = Date.now();
  };
  const base = loadConfig();
  const url = new URL(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? base.DATABASE_URL);
  url.pathname = '/cluster_gateway';
  const databaseUrl = url.toString();
  await recreateDatabase(databaseUrl);
  const { db } = createDatabase(databaseUrl);
  stops.push(() => db.destroy());
  await migrateToLatest(db);
  lap('mysql_ms');

  const api = infra.apiUrl;
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    // What every replica must share (docs/ARCHITECTURE.md "Topology"): the payment page's CSRF
    // secret, and request counters in MySQL so N replicas allow the limit once, not N times.
    PAGES_CSRF_SECRET: randomBytes(32).toString('base64url'),
    RATE_LIMIT_STORE: 'mysql',
    // Two replicas of each on one machine: free metrics ports, never each other's (nor a running `npm start`'s).
    API_METRICS_PORT: '0',
    WORKER_METRICS_PORT: '0',
    TEMPORAL_SDK_METRICS_PORT: '0',
    // The load is the scenario's, not abuse: the per-merchant test-mode cap would stop it.
    TEST_PAYMENTS_PER_MINUTE: '0',
    // Every customer of the scenario presses Pay from this machine's address.
    PAGE_ACTIONS_PER_CLIENT_PER_MINUTE: '0',
    PUBLIC_BASE_URL: api,
    HOST: '127.0.0.1',
    // HAProxy, on this machine, forwards every client (option forwardfor): its X-Forwarded-For is believed.
    TRUSTED_PROXIES: '127.0.0.1/32',
    // Expiry and reversal within the suite's time, and long enough for every payment of the load.
    PAYMENT_TTL_SECONDS: '90',
    VERIFY_WINDOW_SECONDS: '90',
    SANDBOX_DELAY_SECONDS: '3',
    BANK_RECONFIRM_AFTER_SECONDS: '3',
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,2,4,8,15,30,60,120',
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'true',
    LOG_LEVEL: 'info',
  };
  const config = loadConfig({ ...shared, PORT: '0' });
  const gatewayEnv: Record<GatewayProcess, NodeJS.ProcessEnv> = {
    'api-a': { ...shared, PORT: String(infra.apiPorts[0]) },
    'api-b': { ...shared, PORT: String(infra.apiPorts[1]) },
    'worker-a': shared,
    'worker-b': shared,
  };
  const gateway = new Map<GatewayProcess, WorkerProcess>();
  stops.push(async () => {
    await Promise.all([...gateway.values()].map((p) => p.kill('SIGTERM')));
  });
  await Promise.all(
    (Object.keys(gatewayEnv) as GatewayProcess[]).map(async (name) =>
      gateway.set(name, await startGatewayProcess(name, gatewayEnv[name])),
    ),
  );
  await waitFor(
    'the API to answer ready through the balancer',
    async () => ((await fetch(`${api}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined),
    60_000,
    250,
  );
  lap('gateway_ms');

  const connection = await Connection.connect({ address: infra.temporalAddress });
  const temporal = new Client({ connection, namespace });
  stops.push(() => connection.close());
  timings.total_ms = Object.entries(timings)
    .filter(([k]) => k !== 'total_ms')
    .reduce((sum, [, ms]) => sum + ms, 0);
  say(
    `cluster up in ${Math.round(timings.total_ms / 1000)} s: API ${api}, Temporal ${infra.temporalAddress}, UI ${infra.uiUrl}, logs in ${CLUSTER_LOGS}`,
  );
  return {
    infra,
    pg: infra.pg,
    temporalCluster: infra.temporal,
    api,
    databaseUrl,
    db,
    temporal,
    config,
    gateway,
    gatewayEnv,
    bringUp: timings,
  };
}

function startGatewayProcess(name: GatewayProcess, env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  return name.startsWith('api')
    ? WorkerProcess.start(name, env, {
        script: join('src', 'main', 'api.ts'),
        readyLine: '"API listening"',
        logDir: CLUSTER_LOGS,
      })
    : WorkerProcess.start(name, env, { logDir: CLUSTER_LOGS });
}

/** SIGKILL of one gateway process. */
export async function killGateway(s: ClusterStack, name: GatewayProcess): Promise<void> {
  await s.gateway.get(name)?.kill('SIGKILL');
}

/** Starts a killed gateway process again, same port and settings. */
export async function restartGateway(s: ClusterStack, name: GatewayProcess): Promise<void> {
  s.gateway.set(name, await startGatewayProcess(name, s.gatewayEnv[name]));
}

/** A merchant of the cluster's database, with its test key. */
export async function clusterMerchant(s: ClusterStack): Promise<{ merchantId: string; key: string }> {
  const m = await createMerchant(s.db, s.config, { name: `Cluster merchant ${Date.now()}`, domain: 'localhost' });
  return { merchantId: m.merchant_id, key: m.test_key };
}

export async function closeClusterStack(): Promise<void> {
  if (stack === undefined) return;
  await stack.catch(() => undefined);
  stack = undefined;
  for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
}
