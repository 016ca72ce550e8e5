/**
 * The pieces of the stack behind `npm start`, `npm test` and `npm run bench`
 * (commands.ts puts `start` together from them, test-command.ts `test`; tools/bench/cli.ts
 * the benchmark): the database and its migrations, the Temporal dev server
 * (unless TEMPORAL_ADDRESS names a cluster), child processes and their
 * cleanup, and the signal handling that stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createDatabase } from '../../src/db/database.ts';
import { mysqlErrorCode } from '../../src/db/errors.ts';
import { ensureDatabase, migrateToLatest, recreateDatabase } from '../../src/db/migrate.ts';
import { connectTemporal, registerSearchAttributes } from '../../src/temporal/client.ts';
import { PrerequisiteError, provideTemporalCli } from './temporal-cli.ts';
import { startDevServer, type DevServer } from './dev-server.ts';
import { freePort, portInUse } from '../../src/main/ports.ts';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// DARGAH_DATA_DIR: another place for the SQLite file, logs and demo key, so a second
// stack (the supervision test) never touches a developer's `npm start`.
export const dataDir =
  process.env.DARGAH_DATA_DIR !== undefined && process.env.DARGAH_DATA_DIR !== ''
    ? resolve(process.env.DARGAH_DATA_DIR)
    : join(root, '.data');
export const say = (line: string) => process.stdout.write(`${line}\n`);

function fail(error: unknown): never {
  const message =
    error instanceof PrerequisiteError || error instanceof ConfigError
      ? error.message
      : (mysqlMessage(error) ?? (error instanceof Error ? error.message : String(error)));
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function mysqlMessage(error: unknown): string | undefined {
  const code = mysqlErrorCode(error);
  if (code === undefined) return undefined;
  const url = new URL(process.env.DATABASE_URL ?? loadConfig().DATABASE_URL);
  return `MySQL is not usable at ${url.host} (${code}): start MySQL or MariaDB there (for example: start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd), or set DATABASE_URL.`;
}

export async function prepareDatabase(url: string, fresh: boolean): Promise<void> {
  await (fresh ? recreateDatabase(url) : ensureDatabase(url));
  const { db } = createDatabase(url, { poolSize: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

/** `output`: a file descriptor for the child's stdout and stderr, else ours. */
export function startChild(name: string, script: string, env: NodeJS.ProcessEnv, output?: number): ChildProcess {
  const stdio = output === undefined ? ['ignore', 'inherit', 'inherit'] : ['ignore', output, output];
  // CPU_PROFILE_DIR: each child writes a V8 CPU profile there when it exits (docs/BENCHMARKS.md#profiling); Node refuses the flag in NODE_OPTIONS.
  const profile = process.env.CPU_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.CPU_PROFILE_DIR] : [];
  const child = spawn(process.execPath, [...profile, join(root, script)], {
    cwd: root,
    env,
    stdio: stdio as ('ignore' | 'inherit' | number)[],
  });
  child.once('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${name} exited (${signal ?? code}); stopping everything.\n`);
      void shutdown(1);
    }
  });
  return child;
}

let stopping = false;
export const cleanups: (() => Promise<void>)[] = [];
let stopped: Promise<never> | undefined;
export function shutdown(code: number): Promise<never> {
  stopped ??= stopEverything(code);
  return stopped;
}
async function stopEverything(code: number): Promise<never> {
  stopping = true;
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  process.exit(code);
}
export const stopChild = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });

/** Whether everything is being stopped: a child that exits now was asked to. */
export const isStopping = (): boolean => stopping;

export async function waitReady(url: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new PrerequisiteError(`the API did not become ready at ${url} within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function provideTemporal(
  env: NodeJS.ProcessEnv,
  port: number,
  uiPort: number | undefined,
  name: string,
): Promise<{ address: string; server?: DevServer; cli?: string }> {
  const config = loadConfig(env);
  if (env.TEMPORAL_ADDRESS !== undefined && env.TEMPORAL_ADDRESS !== '' && name === 'start') {
    say(`Using the Temporal cluster at ${config.TEMPORAL_ADDRESS}.`);
    const { connection } = await connectTemporal(config).catch(() => {
      throw new PrerequisiteError(
        `Temporal is not reachable at TEMPORAL_ADDRESS=${config.TEMPORAL_ADDRESS}: start it or unset TEMPORAL_ADDRESS to run a local dev server.`,
      );
    });
    await registerSearchAttributes(connection, config.TEMPORAL_NAMESPACE);
    await connection.close();
    return { address: config.TEMPORAL_ADDRESS };
  }
  const cli = provideTemporalCli();
  if (await portInUse(port)) {
    throw new PrerequisiteError(
      `port ${port} is in use (another npm start?): stop it, or set TEMPORAL_ADDRESS=127.0.0.1:${port} to use that server.`,
    );
  }
  say(`Starting the Temporal dev server on 127.0.0.1:${port}${uiPort === undefined ? '' : ` (Web UI on ${uiPort})`}…`);
  const server = await startDevServer({
    cli,
    port,
    ...(uiPort === undefined ? {} : { uiPort }),
    dbFile: join(dataDir, `temporal-${name}.sqlite`),
    logFile: join(dataDir, `temporal-${name}.log`),
    namespace: config.TEMPORAL_NAMESPACE,
    retentionDays: config.TEMPORAL_NAMESPACE_RETENTION_DAYS,
  });
  cleanups.push(() => server.stop());
  return { address: server.address, server, cli };
}

/**
 * What the benchmark reuses of this stack (tools/bench/cli.ts runs `npm run bench`
 * with it): the same bootstrap on its own ports, database and SQLite file.
 */
export const stackPieces = {
  dataDir,
  prepareDatabase,
  freePort,
  provideTemporal,
  startChild,
  stopChild,
  waitReady,
  cleanups,
};

/**
 * Runs the command named on the command line (`node … <entry> <command> [args]`)
 * with the launcher's signal handling: Ctrl-C, SIGTERM or SIGHUP stop
 * everything, and so does a failure of the launcher itself.
 */
export async function runCommand(commands: Record<string, (args: string[]) => Promise<void>>): Promise<void> {
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));
  process.on('SIGHUP', () => void shutdown(129));
  // A bug in the launcher itself must not leave its children running without it.
  for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
    process.on(event, (error: unknown) => {
      process.stderr.write(
        `The launcher failed (${error instanceof Error ? error.message : String(error)}); stopping everything.\n`,
      );
      void shutdown(1);
    });
  }
  const [command, ...rest] = process.argv.slice(2);
  try {
    const run = command === undefined ? undefined : commands[command];
    if (run === undefined)
      throw new PrerequisiteError(`unknown command ${command ?? ''}: use ${Object.keys(commands).join(', ')}`);
    await run(rest);
  } catch (error) {
    stopping = true;
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    fail(error);
  }
}
