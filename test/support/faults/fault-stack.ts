/**
 * The fault suite's own services, which it may break at will: a private
 * MariaDB (its own datadir and port), a private Temporal dev server (its own
 * SQLite file and port), payment workers as child processes (so they can be
 * killed with SIGKILL) and API servers in this process. Nothing here touches
 * the machine's shared MariaDB or the main suite's Temporal server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, type Config } from '../../../src/config.ts';
import { createDatabase, type Db } from '../../../src/db/database.ts';
import { ensureDatabase, migrateToLatest } from '../../../src/db/migrate.ts';
import { createApp } from '../../../src/main/http-app.ts';
import { createMerchant } from '../../../src/merchants/merchants.ts';
import { startDevServer, type DevServer } from '../../../tools/launcher/dev-server.ts';
import { createLogger, type Logger } from '../../../src/logger.ts';
import { waitFor } from '../http.ts';
import { LIVE_BANK } from '../harness.ts';
import { startMailbox, type Mailbox } from '../mailbox.ts';
import { spawnEntryPoint } from '../processes.ts';
import { freePort } from '../../../src/main/ports.ts';
import { ARTIFACTS, machine, recordFiguresIn } from '../artifacts.ts';

export const FAULT_LOGS = join(ARTIFACTS, 'faults');
export const RELIABILITY_JSON = join(ARTIFACTS, 'reliability.json');

/** Adds one scenario's figures to test-artifacts/reliability.json. */
export function recordFigures(scenario: string, figures: Record<string, unknown>): void {
  recordFiguresIn(RELIABILITY_JSON, scenario, figures, machine({ platform: process.platform }));
}

/** A private MariaDB on its own datadir: killed and restarted by the MySQL outage scenario. */
export class PrivateMariaDb {
  process: ChildProcess | undefined;
  readonly dir: string;
  readonly port: number;
  private readonly log: WriteStream;
  constructor(dir: string, port: number, log: WriteStream) {
    this.dir = dir;
    this.port = port;
    this.log = log;
  }

  static async create(): Promise<PrivateMariaDb> {
    const dir = mkdtempSync(join(tmpdir(), 'dargah-faults-mariadb-'));
    const install = spawnSync(
      'mariadb-install-db',
      ['--no-defaults', `--datadir=${join(dir, 'data')}`, '--auth-root-authentication-method=normal', '--skip-test-db'],
      { encoding: 'utf8' },
    );
    if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${install.stderr}`);
    const db = new PrivateMariaDb(
      dir,
      await freePort(),
      createWriteStream(join(FAULT_LOGS, 'mariadb.log'), { flags: 'a' }),
    );
    await db.start();
    return db;
  }

  url(database: string): string {
    return `mysql://root@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    const args = [
      '--no-defaults',
      `--datadir=${join(this.dir, 'data')}`,
      `--port=${this.port}`,
      `--socket=${join(this.dir, 'sock')}`,
      '--bind-address=127.0.0.1',
      '--user=root',
      '--skip-log-bin',
      '--max-connections=500',
    ];
    const child = spawn('/usr/sbin/mariadbd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(this.log, { end: false });
    child.stderr.pipe(this.log, { end: false });
    this.process = child;
    await waitFor(
      'the private MariaDB to answer',
      async () =>
        spawnSync('mysqladmin', ['--no-defaults', '-uroot', '-h127.0.0.1', `-P${this.port}`, 'ping'], {
          encoding: 'utf8',
        }).status === 0
          ? true
          : undefined,
      60_000,
      200,
    );
  }

  /** SIGSTOP: the server hangs instead of dying. Its sockets stay open and nothing answers. */
  freeze(): void {
    if (this.process === undefined) throw new Error('the private MariaDB is not running');
    this.process.kill('SIGSTOP');
  }

  /** SIGCONT: the frozen server goes on where it stopped. */
  thaw(): void {
    this.process?.kill('SIGCONT');
  }

  /** SIGKILL: what a crash or an OOM kill does. InnoDB recovers on the next start. */
  async kill(): Promise<void> {
    const child = this.process;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGCONT'); // a frozen process is killed all the same, but never left stopped
    child.kill('SIGKILL');
    await exited;
    this.process = undefined;
  }

  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A payment worker as a child process, its logs in test-artifacts/faults (or `logDir`).
 * The cluster suite runs its API replicas the same way: `script` src/main/api.ts, ready once it logs "API listening".
 */
export class WorkerProcess {
  readonly child: ChildProcess;
  readonly logFile: string;
  private constructor(child: ChildProcess, logFile: string) {
    this.child = child;
    this.logFile = logFile;
  }

  static async start(
    name: string,
    env: NodeJS.ProcessEnv,
    o: { script?: string; readyLine?: string; logDir?: string } = {},
  ): Promise<WorkerProcess> {
    const logFile = join(o.logDir ?? FAULT_LOGS, `${name}.log`);
    const readyLine = o.readyLine ?? '"worker running"';
    // Several workers run at once here: each takes free metrics ports instead of the fixed defaults.
    const ports = { WORKER_METRICS_PORT: '0', TEMPORAL_SDK_METRICS_PORT: '0' };
    const child = spawnEntryPoint(o.script ?? join('src', 'main', 'worker.ts'), { ...ports, ...env }, logFile);
    let running = false;
    let exited = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes(readyLine)) running = true;
    });
    child.once('exit', () => {
      exited = true;
    });
    await waitFor(
      `${name} to poll its task queue`,
      async () => {
        if (exited) throw new Error(`${name} exited at start: see ${logFile}`);
        return running ? true : undefined;
      },
      180_000,
      100,
    );
    return new WorkerProcess(child, logFile);
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill(signal);
    await exited;
  }
}

export interface FaultStack {
  mariadb: PrivateMariaDb;
  databaseUrl: string;
  db: Db;
  temporalServer: DevServer;
  temporalPort: number;
  temporalDbFile: string;
  temporal: Client;
  logger: Logger;
  /** Environment of a worker child process over the private services. */
  workerEnv: NodeJS.ProcessEnv;
  worker: WorkerProcess | undefined;
  baseConfig: Config;
  /** The mail relay: production mode (a live PSP configured) will not start without SMTP_URL. */
  mailbox: Mailbox;
}

let stack: Promise<FaultStack> | undefined;
const servers: Server[] = [];
let workerCounter = 0;

const TASK_QUEUE = 'faults';
/**
 * The allowed cards' hash key of the suite's API and workers: a live PSP configured makes the worker
 * production mode, where it refuses to start without CARD_HASH_KEY (docs/SECURITY.md#what-the-operator-must-do); the
 * API in this process hashes under the same key, so a restricted payment is checked by the one it was made with.
 */
const CARD_HASH_KEY = randomBytes(32).toString('hex');

export function getFaultStack(): Promise<FaultStack> {
  stack ??= (async () => {
    mkdirSync(FAULT_LOGS, { recursive: true });
    const cli = process.env.TEMPORAL_CLI;
    if (cli === undefined || cli === '')
      throw new Error('TEMPORAL_CLI is not set: run the fault suite with npm run test:faults');
    const mariadb = await PrivateMariaDb.create();
    const databaseUrl = mariadb.url('dargah_faults');
    await ensureDatabase(databaseUrl);
    const { db } = createDatabase(databaseUrl);
    await migrateToLatest(db);
    const temporalPort = await freePort();
    const temporalDbFile = join(mariadb.dir, 'temporal.sqlite');
    const baseConfig = loadConfig({
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
      PORT: '0',
    });
    const temporalServer = await startDevServer({
      cli,
      port: temporalPort,
      dbFile: temporalDbFile,
      logFile: join(FAULT_LOGS, 'temporal.log'),
      namespace: baseConfig.TEMPORAL_NAMESPACE,
      retentionDays: baseConfig.TEMPORAL_NAMESPACE_RETENTION_DAYS,
    });
    const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
    const temporal = new Client({ connection, namespace: baseConfig.TEMPORAL_NAMESPACE });
    const logger = createLogger('info', 'api', createWriteStream(join(FAULT_LOGS, 'api.log'), { flags: 'a' }));
    const mailbox = await startMailbox();
    const workerEnv: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
      LOG_LEVEL: 'info',
      // Webhook retries a few seconds apart, covering an outage of about a minute.
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,2,4,8,15,30,60,120',
      WEBHOOK_TIMEOUT_MS: '5000',
      // The receivers are local servers on random ports (off by default).
      WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'true',
      // Live payments and payouts go to the simulator too, standing in for a PSP.
      ...LIVE_BANK(),
      SMTP_URL: mailbox.url,
      CARD_HASH_KEY,
    };
    const s: FaultStack = {
      mariadb,
      databaseUrl,
      db,
      temporalServer,
      temporalPort,
      temporalDbFile,
      temporal,
      logger,
      workerEnv,
      worker: undefined,
      baseConfig,
      mailbox,
    };
    s.worker = await startWorker(s);
    return s;
  })();
  return stack;
}

export async function startWorker(s: FaultStack): Promise<WorkerProcess> {
  workerCounter += 1;
  s.worker = await WorkerProcess.start(`worker-${workerCounter}`, s.workerEnv);
  return s.worker;
}

/** SIGSTOP of the Temporal dev server: it hangs with every connection open. */
export function freezeTemporal(s: FaultStack): void {
  s.temporalServer.process.kill('SIGSTOP');
}

/** SIGCONT: the frozen Temporal server goes on. */
export function thawTemporal(s: FaultStack): void {
  s.temporalServer.process.kill('SIGCONT');
}

/** Restarts the dev server on the same port and SQLite file. */
export async function restartTemporal(s: FaultStack): Promise<void> {
  const cli = process.env.TEMPORAL_CLI ?? '';
  s.temporalServer = await startDevServer({
    cli,
    port: s.temporalPort,
    dbFile: s.temporalDbFile,
    logFile: join(FAULT_LOGS, 'temporal.log'),
    namespace: s.baseConfig.TEMPORAL_NAMESPACE,
    retentionDays: s.baseConfig.TEMPORAL_NAMESPACE_RETENTION_DAYS,
  });
}

/** An API server in this process over the private services, with these settings (windows, limits). */
export async function faultApi(overrides: Partial<Record<keyof Config, string>> = {}): Promise<string> {
  const s = await getFaultStack();
  // Its own address is its public one: the bank simulator sends customers back there.
  const port = await freePort();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: s.databaseUrl,
    TEMPORAL_ADDRESS: `127.0.0.1:${s.temporalPort}`,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    // The scenarios are the load: the abuse limits are not what they measure.
    RATE_LIMIT_REQUESTS: '0',
    TEST_PAYMENTS_PER_MINUTE: '0',
    // Every customer of the scenarios presses Pay from 127.0.0.1.
    PAGE_ACTIONS_PER_CLIENT_PER_MINUTE: '0',
    // The simulator's "delay in verification" and the gateway's wait before it asks again.
    SANDBOX_DELAY_SECONDS: '3',
    BANK_RECONFIRM_AFTER_SECONDS: '3',
    WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'true',
    CARD_HASH_KEY,
    ...overrides,
  });
  const app = createApp({ config, db: s.db, temporal: s.temporal, logger: s.logger });
  const server = app.listen(port, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Secrets handed out during the fault suite, for the log scan. */
export const issuedSecrets: string[] = [];

export async function faultMerchant(domain = 'localhost'): Promise<{ merchantId: string; key: string }> {
  const s = await getFaultStack();
  const m = await createMerchant(s.db, s.baseConfig, { name: `Fault merchant ${Date.now()}`, domain });
  issuedSecrets.push(m.test_key);
  return { merchantId: m.merchant_id, key: m.test_key };
}

/** The fault stack if a scenario has built it, without building it. */
export function startedFaultStack(): Promise<FaultStack> | undefined {
  return stack;
}

export async function closeFaultStack(): Promise<void> {
  if (stack === undefined) return;
  const s = await stack.catch(() => undefined);
  stack = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
  if (s === undefined) return;
  // Nothing is left stopped by a scenario that failed half-way.
  s.mariadb.thaw();
  thawTemporal(s);
  await s.worker?.kill('SIGTERM');
  await s.temporal.connection.close().catch(() => undefined);
  await s.db.destroy().catch(() => undefined);
  await s.temporalServer.stop();
  await s.mariadb.destroy();
  await s.mailbox.close();
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function inParallel<T, R>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!, i);
      }
    }),
  );
  return results;
}
