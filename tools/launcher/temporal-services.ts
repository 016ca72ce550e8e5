/**
 * The Temporal cluster's own processes (temporal-cluster.ts brings them up):
 * each service — two frontends, history, matching, the internal worker — as
 * its own process on its own ports and membership address, plus the Web UI,
 * every one running the configuration template deploy/temporal/cluster.yaml
 * with its own environment; their schemas in PostgreSQL, and the namespace
 * with the gateway's search attributes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import { msNumberToTs } from '@temporalio/common/lib/time.js';
import { setNamespaceRetention } from '../../src/temporal/namespace-retention.ts';
import proto from '@temporalio/proto';
import { registerSearchAttributes } from '../../src/temporal/client.ts';
import { freePort } from '../../src/main/ports.ts';
import { accepts } from './balancer.ts';
import { endProcess, until, withLog } from './child-process.ts';
import type { PostgresServer } from './postgres.ts';
import { PrerequisiteError } from './temporal-cli.ts';

/** Shards of the history service: more than one, so shard ownership and its handover are exercised. */
export const HISTORY_SHARDS = 4;

export interface ClusterBinaries {
  server: string;
  sqlTool: string;
  ui: string;
  /** schema/postgresql/v12 of the server module: the SQL tool applies it. */
  schemaDir: string;
}

/** deploy/temporal: the configuration template, dynamic configuration and schema script docker-compose.yml mounts too. */
export const TEMPORAL_DEPLOY_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy', 'temporal');

/** Creates Temporal's two databases and applies its schemas with its SQL tool (deploy/temporal/setup-schema.sh). */
export function setupTemporalSchemas(
  binaries: ClusterBinaries,
  pg: PostgresServer,
  databases: { main: string; visibility: string },
): void {
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
  if (result.status !== 0)
    throw new PrerequisiteError(`deploy/temporal/setup-schema.sh failed: ${result.stderr}${result.stdout}`);
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
  readonly binaries: ClusterBinaries;
  readonly layout: ClusterLayout;
  readonly dir: string;
  readonly logDir: string;

  constructor(binaries: ClusterBinaries, layout: ClusterLayout, dir: string, logDir: string) {
    this.binaries = binaries;
    this.layout = layout;
    this.dir = dir;
    this.logDir = logDir;
  }

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
      spawn(
        this.binaries.server,
        [
          '--root',
          TEMPORAL_DEPLOY_DIR,
          '--config',
          '.',
          '--env',
          'cluster',
          '--allow-no-auth',
          'start',
          '--service',
          spec.service,
        ],
        {
          stdio: ['ignore', fd, fd],
          env: processEnv(this.layout, spec),
        },
      ),
    );
    this.children.set(name, child);
    return child;
  }

  spawnUi(): ChildProcess {
    const child = withLog(this.logFile('ui'), (fd) =>
      spawn(this.binaries.ui, ['--root', join(this.dir, 'ui'), '--config', '.', '--env', 'development', 'start'], {
        stdio: ['ignore', fd, fd],
      }),
    );
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
      if (child !== undefined && (child.exitCode !== null || child.signalCode !== null))
        throw new PrerequisiteError(`${name} exited: see ${this.logFile(name)}`);
    };
    if (spec.service === 'worker') {
      await until(
        `${name} did not join the cluster`,
        async () => (exited(), accepts(`127.0.0.1:${spec.membershipPort}`)),
        timeoutMs,
        this.logFile(name),
      );
      return;
    }
    const service = `temporal.api.workflowservice.v1.${spec.service === 'frontend' ? 'Workflow' : spec.service === 'history' ? 'History' : 'Matching'}Service`;
    // Lazy: connect() would ask for the workflow service's system info, which history and matching lack.
    const lazy = Connection.lazy({ address: `127.0.0.1:${spec.grpcPort}`, connectTimeout: '1s' });
    try {
      await until(
        `${name} did not answer SERVING`,
        async () => {
          exited();
          const health = await lazy.healthService.check({ service });
          return health.status === proto.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
        },
        timeoutMs,
        this.logFile(name),
      );
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
    const order = [
      'ui',
      'worker',
      ...this.layout.processes.filter((p) => p.service === 'frontend').map((p) => p.name),
      'matching',
      'history',
    ];
    for (const name of order) await endProcess(this.children.get(name));
  }
}

/**
 * Registers the namespace (once) and the gateway's search attributes (the one
 * list of src/domain, as the dev server does) through `address`, and waits
 * until every one of `frontends` answers for the namespace.
 */
export async function prepareNamespace(
  address: string,
  namespace: string,
  retentionDays: number,
  frontends: string[] = [address],
): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await until(
      'the namespace could not be registered',
      async () => {
        try {
          await connection.workflowService.registerNamespace({
            namespace,
            workflowExecutionRetentionPeriod: msNumberToTs(retentionDays * 86_400_000),
          });
        } catch (error) {
          if (!/already exists|AlreadyExists/i.test(String(error))) throw error;
          // Registered by an earlier run: its retention is brought to this one's.
          await setNamespaceRetention(connection, namespace, retentionDays);
        }
        return true;
      },
      120_000,
      'the frontend logs',
    );
    await until(
      'the search attributes could not be registered',
      async () => {
        await registerSearchAttributes(connection, namespace);
        return true;
      },
      120_000,
      'the frontend logs',
    );
  } finally {
    await connection.close();
  }
  // Each frontend learns of a new namespace from its own cache, refreshed every few seconds.
  for (const frontend of frontends) {
    const direct = await Connection.connect({ address: frontend });
    try {
      await until(
        `the namespace did not become usable on ${frontend}`,
        async () => {
          await direct.workflowService.describeNamespace({ namespace });
          await direct.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
          return true;
        },
        120_000,
        'the frontend logs',
      );
    } finally {
      await direct.close();
    }
  }
}

/**
 * A free port for a membership address. Temporal's PostgreSQL schema keeps it
 * in a smallint column (cluster_membership.rpc_port), so it must be below
 * 32768: freePort picks there (PICKED_PORTS), under the kernel's ephemeral range.
 */
export const freeMembershipPort: () => Promise<number> = freePort;
