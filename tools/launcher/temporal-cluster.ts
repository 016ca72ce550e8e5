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
 * This module provides the binaries and brings the whole up; the services'
 * processes are in temporal-services.ts, PostgreSQL in postgres.ts. Used by
 * the cluster suite (test/cluster) and `npm run bench -- --topology cluster`.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { startBalancer } from './balancer.ts';
import { endProcess, until } from './child-process.ts';
import { provideDebianPackage } from './debian-package.ts';
import { POSTGRES_BIN, PostgresServer } from './postgres.ts';
import { cacheDir, goInstall, PrerequisiteError } from './temporal-cli.ts';
import {
  freeMembershipPort,
  prepareNamespace,
  setupTemporalSchemas,
  TemporalCluster,
  type ClusterBinaries,
  type ServiceName,
  type ServiceProcessSpec,
} from './temporal-services.ts';

export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
/** The UI server the Temporal CLI v1.5.1 embeds, as a program of its own that can target a remote frontend. */
export const TEMPORAL_UI_VERSION = 'v2.42.1';

/** The server, its SQL tool and the UI server: built on first use into our cache, outside the checkout. */
export function provideClusterBinaries(): ClusterBinaries {
  const serverBin = join(cacheDir(), `temporal-server-${TEMPORAL_SERVER_VERSION}`);
  const server = join(serverBin, 'server');
  const sqlTool = join(serverBin, 'sql');
  if (!existsSync(server) || !existsSync(sqlTool)) {
    goInstall(
      serverBin,
      [
        `go.temporal.io/server/cmd/server@${TEMPORAL_SERVER_VERSION}`,
        `go.temporal.io/server/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
      ],
      `the Temporal server ${TEMPORAL_SERVER_VERSION} and its SQL tool`,
      'run the cluster suite on a machine with Go',
    );
  }
  const uiBin = join(cacheDir(), `temporal-ui-server-${TEMPORAL_UI_VERSION}`);
  const ui = join(uiBin, 'server');
  if (!existsSync(ui))
    goInstall(
      uiBin,
      [`github.com/temporalio/ui-server/v2/cmd/server@${TEMPORAL_UI_VERSION}`],
      `the Temporal UI server ${TEMPORAL_UI_VERSION}`,
      'run the cluster suite on a machine with Go',
    );
  // The schema files ship in the module's source, which go install left in the module cache.
  const download = spawnSync('go', ['mod', 'download', '-json', `go.temporal.io/server@${TEMPORAL_SERVER_VERSION}`], {
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  const dir = download.status === 0 ? (JSON.parse(download.stdout) as { Dir?: string }).Dir : undefined;
  if (dir === undefined || !existsSync(join(dir, 'schema', 'postgresql', 'v12'))) {
    throw new PrerequisiteError(
      `go mod download go.temporal.io/server@${TEMPORAL_SERVER_VERSION} gave no schema directory: ${download.stderr}`,
    );
  }
  return { server, sqlTool, ui, schemaDir: join(dir, 'schema', 'postgresql', 'v12') };
}

/** Debian's PostgreSQL 15, installed with apt-get when missing (like HAProxy and Chromium); throws why it is unavailable. */
export function providePostgres(log: (line: string) => void): void {
  const problem = provideDebianPackage('postgresql-15', join(POSTGRES_BIN, 'postgres'), log);
  if (problem !== undefined) throw new PrerequisiteError(problem);
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
export async function startClusterInfrastructure(o: {
  logDir: string;
  namespace: string;
  retentionDays?: number;
  freePort: () => Promise<number>;
  log: (line: string) => void;
}): Promise<ClusterInfrastructure> {
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
    const binaries = provideClusterBinaries();
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
    const processes = [
      await spec('frontend-a', 'frontend', true),
      await spec('frontend-b', 'frontend', true),
      await spec('history', 'history'),
      await spec('matching', 'matching'),
      await spec('worker', 'worker'),
    ];
    const temporalAddress = `127.0.0.1:${await o.freePort()}`;
    const apiAddress = `127.0.0.1:${await o.freePort()}`;
    const apiPorts: [number, number] = [await o.freePort(), await o.freePort()];
    const uiPort = await o.freePort();
    const temporal = new TemporalCluster(
      binaries,
      {
        processes,
        postgres: { port: pg.port, ...databases },
        frontendAddress: temporalAddress,
        uiPort,
        namespace: o.namespace,
      },
      join(dir, 'temporal'),
      o.logDir,
    );
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
    // The retention the gateway's configuration names (TEMPORAL_NAMESPACE_RETENTION_DAYS in this environment), as a deployment sets it.
    await prepareNamespace(
      temporalAddress,
      o.namespace,
      o.retentionDays ?? loadConfig().TEMPORAL_NAMESPACE_RETENTION_DAYS,
      [processes[0]!, processes[1]!].map((p) => `127.0.0.1:${p.grpcPort}`),
    );
    temporal.spawnUi();
    const uiUrl = `http://127.0.0.1:${uiPort}`;
    await until('the Temporal UI did not answer', async () => (await fetch(uiUrl)).ok, 60_000, temporal.logFile('ui'));
    lap('namespace_and_ui_ms');
    timings.total_ms = Date.now() - began;
    return {
      dir,
      pg,
      temporal,
      balancer,
      temporalAddress,
      apiUrl: `http://${apiAddress}`,
      apiPorts,
      uiUrl,
      timings,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
