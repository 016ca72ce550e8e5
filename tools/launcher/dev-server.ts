/** Starts and stops `temporal server start-dev` for the local stack and the tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_TYPES } from '../../src/domain/payment-workflow.ts';
import { setNamespaceRetention } from '../../src/temporal/namespace-retention.ts';
import { PrerequisiteError } from './temporal-cli.ts';

export interface DevServerOptions {
  cli: string;
  port: number;
  /** Web UI port; undefined runs the server headless. */
  uiPort?: number;
  /** SQLite file that keeps workflows across restarts. */
  dbFile: string;
  logFile: string;
  namespace: string;
  /** Days a closed workflow's history is kept (TEMPORAL_NAMESPACE_RETENTION_DAYS): start-dev has no flag for it, so it is set once the server answers. */
  retentionDays: number;
}

export interface DevServer {
  address: string;
  process: ChildProcess;
  /** What it was started with: `spawnDevServer(options)` starts it again on the same port and SQLite file. */
  options: DevServerOptions;
  stop(): Promise<void>;
}

export function devServerArgs(o: DevServerOptions): string[] {
  return [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(o.port),
    '--db-filename',
    o.dbFile,
    // WAL lets readers and the single writer work side by side; synchronous=NORMAL
    // is durable against process crashes, which is what a dev server needs.
    '--sqlite-pragma',
    'journal_mode=wal',
    '--sqlite-pragma',
    'synchronous=normal',
    '--namespace',
    o.namespace,
    '--log-level',
    'warn',
    ...(o.uiPort === undefined ? ['--headless'] : ['--ui-port', String(o.uiPort)]),
    ...Object.entries(SEARCH_ATTRIBUTE_TYPES).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]),
  ];
}

/** Starts the process and returns at once; its output is appended to o.logFile. */
export function spawnDevServer(o: DevServerOptions): ChildProcess {
  mkdirSync(dirname(o.dbFile), { recursive: true });
  mkdirSync(dirname(o.logFile), { recursive: true });
  const log = openSync(o.logFile, 'a');
  try {
    return spawn(o.cli, devServerArgs(o), { stdio: ['ignore', log, log] });
  } finally {
    closeSync(log);
  }
}

/** Starts the dev server and waits until it answers. */
export async function startDevServer(o: DevServerOptions): Promise<DevServer> {
  const child = spawnDevServer(o);
  const address = `127.0.0.1:${o.port}`;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited)
      throw new PrerequisiteError(
        `the Temporal dev server exited at start: see ${o.logFile} (is port ${o.port} already in use?)`,
      );
    try {
      const connection = await Connection.connect({ address, connectTimeout: '1s' });
      try {
        await connection.workflowService.getSystemInfo({});
        // Kept in the SQLite file: a restart by the supervisor (spawnDevServer) finds it set.
        await setNamespaceRetention(connection, o.namespace, o.retentionDays);
      } finally {
        await connection.close();
      }
      break;
    } catch {
      if (Date.now() > deadline)
        throw new PrerequisiteError(
          `the Temporal dev server did not answer on ${address} within 60 s: see ${o.logFile}`,
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    process: child,
    options: o,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
