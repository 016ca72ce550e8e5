/**
 * The production topology of Temporal on one machine: the server built from
 * source (go install, cached like the CLI), its own PostgreSQL instance as the
 * persistence and visibility store, and each service as its own process —
 * two frontends, history, matching and the internal worker — with its own
 * ports and membership, plus the Temporal Web UI. Clients reach the frontends
 * through a TCP balancer (balancer.ts). Every process runs the configuration
 * template deploy/temporal/cluster.yaml with its own environment (its ports,
 * PostgreSQL's address), the same file docker-compose.yml mounts.
 *
 * Used by the cluster suite (test/cluster) and `npm run bench -- --topology cluster`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import proto from '@temporalio/proto';
import { registerSearchAttributes } from '../../src/temporal/client.ts';
import { accepts, startBalancer } from './balancer.ts';
import { provideDebianPackage } from './debian-package.ts';
import { cacheDir, goInstall, PrerequisiteError } from './temporal-cli.ts';

export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
/** The UI server the Temporal CLI v1.5.1 embeds, as a program of its own that can target a remote frontend. */
export const TEMPORAL_UI_VERSION = 'v2.42.1';
export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';
/** Shards of the history service: more than one, so shard ownership and its handover are exercised. */
export const HISTORY_SHARDS = 4;

export interface ClusterBinaries {
  server: string;
  sqlTool: string;
  ui: string;
  /** schema/postgresql/v12 of the server module: the SQL tool applies it. */
  schemaDir: string;
}

/** The server, its SQL tool and the UI server: built on first use into our cache, outside the checkout. */
export function provideClusterBinaries(log: (line: string) => void): ClusterBinaries {
  const serverBin = join(cacheDir(), `temporal-server-${TEMPORAL_SERVER_VERSION}`);
  const server = join(serverBin, 'server');
  const sqlTool = join(serverBin, 'sql');
  if (!existsSync(server) || !existsSync(sqlTool)) {
    goInstall(
      serverBin,
      [`go.temporal.io/server/cmd/server@${TEMPORAL_SERVER_VERSION}`, `go.temporal.io/server/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`],
      `the Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool`,
      'run the cluster suite on a machine with Go',
      log,
    );
  }
  const uiBin = join(cacheDir(), `temporal-ui-server-${TEMPORAL_UI_VERSION}`);
  const ui = join(uiBin, 'server');
  if (!existsSync(ui)) goInstall(uiBin, [`github.com/temporalio/ui-server/v2/cmd/server@${TEMPORAL_UI_VERSION}`], `the Temporal UI server ${TEMPORAL_UI_VERSION}`, 'run the cluster suite on a machine with Go', log);
  // The schema files ship in the module's source, which go install left in the module cache.
  const download = spawnSync('go', ['mod', 'download', '-json', `go.temporal.io/server@${TEMPORAL_SERVER_VERSION}`], { encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' } });
  const dir = download.status === 0 ? (JSON.parse(download.stdout) as { Dir?: string }).Dir : undefined;
  if (dir === undefined || !existsSync(join(dir, 'schema', 'postgresql', 'v12'))) {
    throw new PrerequisiteError(`go mod download go.temporal.io/server@${TEMPORAL_SERVER_VERSION} gave no schema directory: ${download.stderr}`);
  }
  return { server, sqlTool, ui, schemaDir: join(dir, 'schema', 'postgresql', 'v12') };
}

/** Debian's PostgreSQL 15, installed with apt-get when missing (like HAProxy and Chromium); throws why it is unavailable. */
export function providePostgres(log: (line: string) => void): void {
  const problem = provideDebianPackage('postgresql-15', join(POSTGRES_BIN, 'postgres'), log);
  if (problem !== undefined) throw new PrerequisiteError(problem);
}

/** Opens `file` for appending and hands its descriptor to `use` (a child's stdout and stderr). */
function withLog<T>(file: string, use: (fd: number) => T): T {
  const fd = openSync(file, 'a');
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

/** SIGTERM (or `signal`), SIGKILL after `graceMs`; resolves once it has exited. */
export function endProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    timer.unref();
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Probes until `probe` answers true; a PrerequisiteError from it (the process died) ends the wait at once. */
async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number, hint: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await probe().catch((error: unknown) => {
      if (error instanceof PrerequisiteError) throw error;
      return false;
    });
    if (ok) return;
    if (Date.now() > deadline) throw new PrerequisiteError(`${what} within ${Math.round(timeoutMs / 1000)} s: see ${hint}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A PostgreSQL instance of its own (Debian's binaries, its own data directory
 * and port), so it can be killed and restarted without touching the
 * machine's. PostgreSQL refuses to run as root: as root it runs as the
 * `postgres` user, which owns the data directory.
 */
export class PostgresServer {
  process: ChildProcess | undefined;
  private readonly owner: { uid: number; gid: number } | undefined;

  constructor(readonly dir: string, readonly port: number, readonly logFile: string) {
    this.owner = process.getuid?.() === 0 ? postgresUser() : undefined;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** initdb once (trust authentication on 127.0.0.1 and the socket: a test instance). */
  init(): void {
    mkdirSync(this.dir, { recursive: true });
    if (this.owner !== undefined) chownSync(this.dir, this.owner.uid, this.owner.gid);
    if (existsSync(join(this.dataDir, 'PG_VERSION'))) return;
    const result = spawnSync(join(POSTGRES_BIN, 'initdb'), ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], { encoding: 'utf8', ...this.owner });
    if (result.status !== 0) throw new PrerequisiteError(`initdb failed (is Debian's postgresql-15 installed at ${POSTGRES_BIN}?): ${result.stderr}`);
  }

  async start(): Promise<void> {
    const args = ['-D', this.dataDir, '-p', String(this.port), '-k', this.dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'shared_buffers=128MB'];
    this.process = withLog(this.logFile, (fd) => spawn(join(POSTGRES_BIN, 'postgres'), args, { stdio: ['ignore', fd, fd], ...this.owner }));
    const child = this.process;
    await until(`PostgreSQL did not accept connections on ${this.port}`, async () => {
      if (child.exitCode !== null) throw new PrerequisiteError(`PostgreSQL exited at start: see ${this.logFile}`);
      return spawnSync(join(POSTGRES_BIN, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(this.port), '-q'], { stdio: 'ignore' }).status === 0;
    }, 60_000, this.logFile);
  }

  /**
   * What a crash does: SIGQUIT, PostgreSQL's immediate shutdown (every backend
   * dies at once, no checkpoint: the next start recovers from the WAL). A
   * SIGKILL of the postmaster alone would leave its backends running.
   */
  async crash(): Promise<void> {
    await endProcess(this.process, 'SIGQUIT');
    this.process = undefined;
  }

  async stop(): Promise<void> {
    await endProcess(this.process, 'SIGINT');
    this.process = undefined;
  }

  /** Runs SQL as the superuser. */
  psql(sql: string, database = 'postgres'): string {
    const result = spawnSync(join(POSTGRES_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql], { encoding: 'utf8' });
    if (result.status !== 0) throw new PrerequisiteError(`psql failed: ${result.stderr}`);
    return result.stdout;
  }
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0) throw new PrerequisiteError('PostgreSQL refuses to run as root and there is no `postgres` user: install Debian\'s postgresql-15 package (it creates the user).');
  return { uid, gid };
}

/** deploy/temporal: the configuration template, dynamic configuration and schema script docker-compose.yml mounts too. */
export const TEMPORAL_DEPLOY_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy', 'temporal');

/** Creates Temporal's two databases and applies its schemas with its SQL tool (deploy/temporal/setup-schema.sh). */
export function setupTemporalSchemas(binaries: ClusterBinaries, pg: PostgresServer, databases: { main: string; visibility: string }): void {
  const result = spawnSync('sh', [join(TEMPORAL_DEPLOY_DIR, 'setup-schema.sh')], {
    encoding: 'utf8',
    env: {
      ...process.env,
      SQL_TOOL: binaries.sqlTool,
      SCHEMA_DIR: binaries.schemaDir,
      POSTGRES_HOST: '127.0.0.1',
      POSTGRES_PORT: String(pg.port),
      POSTGRES_USER: 'postgres',
      POSTGRES_PASSWORD: '',
      TEMPORAL_DATABASE: databases.main,
      TEMPORAL_VISIBILITY_DATABASE: databases.visibility,
    },
  });
  if (result.status !== 0) throw new PrerequisiteError(`deploy/temporal/setup-schema.sh failed: ${result.stderr}${result.stdout}`);
}

export type ServiceName = 'frontend' | 'history' | 'matching' | 'worker';

/** One process of the cluster: which service it runs and its own ports. */
export interface ServiceProcessSpec {
  /** Its name in logs and config files: frontend-a, frontend-b, history, matching, worker. */
  name: string;
  service: ServiceName;
  grpcPort: number;
  membershipPort: number;
  /** The frontend's HTTP API port (frontends only). */
  httpPort?: number;
}

export interface ClusterLayout {
  processes: ServiceProcessSpec[];
  postgres: { port: number; database: string; visibilityDatabase: string };
  /** Where every client, the internal worker and the UI reach the frontends: the balancer. */
  frontendAddress: string;
  uiPort: number;
  namespace: string;
}

/**
 * The environment of one process: deploy/temporal/cluster.yaml (the same file
 * for every process, and for docker-compose.yml) takes from it what differs —
 * PostgreSQL, this process's ports, the balancer's address.
 */
export function processEnv(layout: ClusterLayout, own: ServiceProcessSpec): NodeJS.ProcessEnv {
  const prefix = own.service.toUpperCase();
  return {
    ...process.env,
    POSTGRES_ADDRESS: `127.0.0.1:${layout.postgres.port}`,
    POSTGRES_USER: 'postgres',
    POSTGRES_PASSWORD: '',
    TEMPORAL_DATABASE: layout.postgres.database,
    TEMPORAL_VISIBILITY_DATABASE: layout.postgres.visibilityDatabase,
    NUM_HISTORY_SHARDS: String(HISTORY_SHARDS),
    BIND_ON_IP: '127.0.0.1',
    BROADCAST_ADDRESS: '127.0.0.1',
    [`${prefix}_GRPC_PORT`]: String(own.grpcPort),
    [`${prefix}_MEMBERSHIP_PORT`]: String(own.membershipPort),
    ...(own.httpPort === undefined ? {} : { FRONTEND_HTTP_PORT: String(own.httpPort) }),
    PUBLIC_FRONTEND_ADDRESS: layout.frontendAddress,
    DYNAMIC_CONFIG_FILE: join(TEMPORAL_DEPLOY_DIR, 'dynamicconfig.yaml'),
  };
}

/** The processes of the cluster, each restartable on its own (same ports, same configuration). */
export class TemporalCluster {
  readonly children = new Map<string, ChildProcess>();

  constructor(readonly binaries: ClusterBinaries, readonly layout: ClusterLayout, readonly dir: string, readonly logDir: string) {}

  logFile(name: string): string {
    return join(this.logDir, `temporal-${name}.log`);
  }

  /** The UI server's configuration (the server's own is deploy/temporal/cluster.yaml, nothing to write). */
  writeConfig(): void {
    mkdirSync(this.logDir, { recursive: true });
    const uiDir = join(this.dir, 'ui');
    mkdirSync(uiDir, { recursive: true });
    writeFileSync(
      join(uiDir, 'development.yaml'),
      `${JSON.stringify({ temporalGrpcAddress: this.layout.frontendAddress, port: this.layout.uiPort, enableUi: true, publicPath: '', defaultNamespace: this.layout.namespace, cors: { allowOrigins: [`http://localhost:${this.layout.uiPort}`] } }, null, 2)}\n`,
    );
  }

  spec(name: string): ServiceProcessSpec {
    const spec = this.layout.processes.find((p) => p.name === name);
    if (spec === undefined) throw new Error(`no cluster process ${name}`);
    return spec;
  }

  /** Starts one process (returns at once). */
  spawn(name: string): ChildProcess {
    const spec = this.spec(name);
    const child = withLog(this.logFile(name), (fd) =>
      spawn(this.binaries.server, ['--root', TEMPORAL_DEPLOY_DIR, '--config', '.', '--env', 'cluster', '--allow-no-auth', 'start', '--service', spec.service], {
        stdio: ['ignore', fd, fd],
        env: processEnv(this.layout, spec),
      }),
    );
    this.children.set(name, child);
    return child;
  }

  spawnUi(): ChildProcess {
    const child = withLog(this.logFile('ui'), (fd) => spawn(this.binaries.ui, ['--root', join(this.dir, 'ui'), '--config', '.', '--env', 'development', 'start'], { stdio: ['ignore', fd, fd] }));
    this.children.set('ui', child);
    return child;
  }

  /**
   * Waits until the process serves: the gRPC health check of a frontend, history or matching
   * answers SERVING (history only once it owns its shards); the internal worker, which has no
   * gRPC server, once its membership port accepts connections.
   */
  async waitServing(name: string, timeoutMs = 120_000): Promise<void> {
    const spec = this.spec(name);
    const exited = () => {
      const child = this.children.get(name);
      if (child !== undefined && (child.exitCode !== null || child.signalCode !== null)) throw new PrerequisiteError(`${name} exited: see ${this.logFile(name)}`);
    };
    if (spec.service === 'worker') {
      await until(`${name} did not join the cluster`, async () => (exited(), accepts(`127.0.0.1:${spec.membershipPort}`)), timeoutMs, this.logFile(name));
      return;
    }
    const service = `temporal.api.workflowservice.v1.${spec.service === 'frontend' ? 'Workflow' : spec.service === 'history' ? 'History' : 'Matching'}Service`;
    // Lazy: connect() would ask for the workflow service's system info, which history and matching lack.
    const lazy = Connection.lazy({ address: `127.0.0.1:${spec.grpcPort}`, connectTimeout: '1s' });
    try {
      await until(`${name} did not answer SERVING`, async () => {
        exited();
        const health = await lazy.healthService.check({ service });
        return health.status === proto.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
      }, timeoutMs, this.logFile(name));
    } finally {
      await lazy.close().catch(() => undefined);
    }
  }

  /** Starts one process and waits until it serves. */
  async start(name: string): Promise<void> {
    this.spawn(name);
    await this.waitServing(name);
  }

  /** SIGKILL of one process: what a crash or an OOM kill does. */
  async kill(name: string): Promise<void> {
    await endProcess(this.children.get(name), 'SIGKILL');
  }

  async stop(): Promise<void> {
    // Clients first (UI, internal worker), then frontends, matching, history.
    const order = ['ui', 'worker', ...this.layout.processes.filter((p) => p.service === 'frontend').map((p) => p.name), 'matching', 'history'];
    for (const name of order) await endProcess(this.children.get(name));
  }
}

/**
 * Registers the namespace (once) and the gateway's search attributes (the one
 * list of src/domain, as the dev server does) through `address`, and waits
 * until every one of `frontends` answers for the namespace.
 */
export async function prepareNamespace(address: string, namespace: string, frontends: string[] = [address]): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await until('the namespace could not be registered', async () => {
      try {
        await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('3 days') });
      } catch (error) {
        if (!/already exists|AlreadyExists/i.test(String(error))) throw error;
      }
      return true;
    }, 120_000, 'the frontend logs');
    await until('the search attributes could not be registered', async () => {
      await registerSearchAttributes(connection, namespace);
      return true;
    }, 120_000, 'the frontend logs');
  } finally {
    await connection.close();
  }
  // Each frontend learns of a new namespace from its own cache, refreshed every few seconds.
  for (const frontend of frontends) {
    const direct = await Connection.connect({ address: frontend });
    try {
      await until(`the namespace did not become usable on ${frontend}`, async () => {
        await direct.workflowService.describeNamespace({ namespace });
        await direct.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
        return true;
      }, 120_000, 'the frontend logs');
    } finally {
      await direct.close();
    }
  }
}

/**
 * A free port for a membership address. Temporal's PostgreSQL schema keeps it
 * in a smallint column (cluster_membership.rpc_port), so it must be below
 * 32768, where the kernel's ephemeral ports (free ports "port 0" gives) never are.
 */
export async function freeMembershipPort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new PrerequisiteError('no free port between 20000 and 32000 for a Temporal membership address');
}

/** Everything of the topology but the gateway's own processes, up and serving. */
export interface ClusterInfrastructure {
  /** Its data directories (PostgreSQL's, the generated configuration): removed by stop(). */
  dir: string;
  pg: PostgresServer;
  temporal: TemporalCluster;
  balancer: ChildProcess;
  /** Where clients reach the frontends: the balancer. */
  temporalAddress: string;
  /** The API replicas through the balancer. */
  apiUrl: string;
  /** The ports the two API replicas must listen on (the balancer sends requests there). */
  apiPorts: [number, number];
  uiUrl: string;
  /** How long each part of the bring-up took, in ms. */
  timings: Record<string, number>;
  /** Stops everything (clients first) and removes `dir`. */
  stop(): Promise<void>;
}

/**
 * Brings up PostgreSQL (its own instance), the schemas, the balancer, the five
 * Temporal processes, the namespace and search attributes, and the UI, on free
 * ports. Logs go to `logDir`. If any step fails, what was started is stopped.
 */
export async function startClusterInfrastructure(o: { logDir: string; namespace: string; freePort: () => Promise<number>; log: (line: string) => void }): Promise<ClusterInfrastructure> {
  const timings: Record<string, number> = {};
  let mark = Date.now();
  const lap = (name: string) => {
    timings[name] = Date.now() - mark;
    mark = Date.now();
  };
  const began = Date.now();
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) await s().catch(() => undefined);
  };
  try {
    mkdirSync(o.logDir, { recursive: true });
    const binaries = provideClusterBinaries(o.log);
    providePostgres(o.log);
    lap('binaries_ms');
    const dir = mkdtempSync(join(tmpdir(), 'dargah-cluster-'));
    chmodSync(dir, 0o755); // PostgreSQL runs as its own user (when we are root) and must reach its data directory
    stops.push(async () => rmSync(dir, { recursive: true, force: true }));
    const databases = { database: 'cluster_temporal', visibilityDatabase: 'cluster_temporal_visibility' };
    const pg = new PostgresServer(join(dir, 'postgres'), await o.freePort(), join(o.logDir, 'postgres.log'));
    pg.init();
    stops.push(() => pg.stop());
    await pg.start();
    setupTemporalSchemas(binaries, pg, { main: databases.database, visibility: databases.visibilityDatabase });
    lap('postgres_and_schemas_ms');

    const spec = async (name: string, service: ServiceName, http = false): Promise<ServiceProcessSpec> => ({
      name,
      service,
      grpcPort: await o.freePort(),
      membershipPort: await freeMembershipPort(),
      ...(http ? { httpPort: await o.freePort() } : {}),
    });
    const processes = [await spec('frontend-a', 'frontend', true), await spec('frontend-b', 'frontend', true), await spec('history', 'history'), await spec('matching', 'matching'), await spec('worker', 'worker')];
    const temporalAddress = `127.0.0.1:${await o.freePort()}`;
    const apiAddress = `127.0.0.1:${await o.freePort()}`;
    const apiPorts: [number, number] = [await o.freePort(), await o.freePort()];
    const uiPort = await o.freePort();
    const temporal = new TemporalCluster(binaries, { processes, postgres: { port: pg.port, ...databases }, frontendAddress: temporalAddress, uiPort, namespace: o.namespace }, join(dir, 'temporal'), o.logDir);
    temporal.writeConfig();
    const balancer = await startBalancer(
      {
        API_BIND: apiAddress,
        API_A: `127.0.0.1:${apiPorts[0]}`,
        API_B: `127.0.0.1:${apiPorts[1]}`,
        TEMPORAL_BIND: temporalAddress,
        FRONTEND_A: `127.0.0.1:${processes[0]!.grpcPort}`,
        FRONTEND_B: `127.0.0.1:${processes[1]!.grpcPort}`,
      },
      join(o.logDir, 'haproxy.log'),
      o.log,
    );
    stops.push(() => endProcess(balancer));
    stops.push(() => temporal.stop());
    lap('balancer_ms');
    // History first (the others wait for its shards anyway), then the rest side by side.
    await temporal.start('history');
    await Promise.all(['matching', 'frontend-a', 'frontend-b', 'worker'].map((name) => temporal.start(name)));
    lap('temporal_services_ms');
    await prepareNamespace(temporalAddress, o.namespace, [processes[0]!, processes[1]!].map((p) => `127.0.0.1:${p.grpcPort}`));
    temporal.spawnUi();
    const uiUrl = `http://127.0.0.1:${uiPort}`;
    await until('the Temporal UI did not answer', async () => (await fetch(uiUrl)).ok, 60_000, temporal.logFile('ui'));
    lap('namespace_and_ui_ms');
    timings.total_ms = Date.now() - began;
    return { dir, pg, temporal, balancer, temporalAddress, apiUrl: `http://${apiAddress}`, apiPorts, uiUrl, timings, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
