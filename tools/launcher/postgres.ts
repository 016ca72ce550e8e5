/**
 * PostgreSQL for the Temporal cluster (temporal-cluster.ts): Debian's
 * postgresql-15 binaries running an instance of the cluster's own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { endProcess, until, withLog } from './child-process.ts';
import { PrerequisiteError } from './temporal-cli.ts';

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL instance of its own (Debian's binaries, its own data directory
 * and port), so it can be killed and restarted without touching the
 * machine's. PostgreSQL refuses to run as root: as root it runs as the
 * `postgres` user, which owns the data directory.
 */
export class PostgresServer {
  process: ChildProcess | undefined;
  private readonly owner: { uid: number; gid: number } | undefined;
  readonly dir: string;
  readonly port: number;
  readonly logFile: string;

  constructor(dir: string, port: number, logFile: string) {
    this.dir = dir;
    this.port = port;
    this.logFile = logFile;
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
    const result = spawnSync(
      join(POSTGRES_BIN, 'initdb'),
      ['-D', this.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'],
      { encoding: 'utf8', ...this.owner },
    );
    if (result.status !== 0)
      throw new PrerequisiteError(
        `initdb failed (is Debian's postgresql-15 installed at ${POSTGRES_BIN}?): ${result.stderr}`,
      );
  }

  async start(): Promise<void> {
    const args = [
      '-D',
      this.dataDir,
      '-p',
      String(this.port),
      '-k',
      this.dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      '-c',
      'shared_buffers=128MB',
    ];
    this.process = withLog(this.logFile, (fd) =>
      spawn(join(POSTGRES_BIN, 'postgres'), args, { stdio: ['ignore', fd, fd], ...this.owner }),
    );
    const child = this.process;
    await until(
      `PostgreSQL did not accept connections on ${this.port}`,
      async () => {
        if (child.exitCode !== null) throw new PrerequisiteError(`PostgreSQL exited at start: see ${this.logFile}`);
        return (
          spawnSync(join(POSTGRES_BIN, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(this.port), '-q'], {
            stdio: 'ignore',
          }).status === 0
        );
      },
      60_000,
      this.logFile,
    );
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
    const result = spawnSync(
      join(POSTGRES_BIN, 'psql'),
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(this.port),
        '-U',
        'postgres',
        '-d',
        database,
        '-v',
        'ON_ERROR_STOP=1',
        '-At',
        '-c',
        sql,
      ],
      { encoding: 'utf8' },
    );
    if (result.status !== 0) throw new PrerequisiteError(`psql failed: ${result.stderr}`);
    return result.stdout;
  }
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0)
    throw new PrerequisiteError(
      "PostgreSQL refuses to run as root and there is no `postgres` user: install Debian's postgresql-15 package (it creates the user).",
    );
  return { uid, gid };
}
