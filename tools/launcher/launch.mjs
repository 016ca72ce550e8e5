// Entry of `npm start` and `npm test`. Plain JavaScript with no dependencies,
// because it runs before `node_modules` may exist: it finds the Node to run on
// (this one if it is 24 or newer, else the pinned Node 24 it installs into the
// cache: node-runtime.mjs), installs the locked dependencies with it when they
// are missing or stale, then hands over to the TypeScript bootstrap on it. Every
// process the bootstrap starts runs on `process.execPath`, so on that Node too.
//
// A first run's long steps say how they are going every 15 s (progress.mjs), and
// the one that needs neither Node 24 nor the packages, building the Temporal CLI
// with Go (go-build.mjs), runs beside the other two instead of after them.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildTemporalCli,
  existingTemporalCli,
  goAvailable,
  goBuildFailure,
  TEMPORAL_CLI_INSTEAD,
  TEMPORAL_CLI_MODULE,
  TEMPORAL_CLI_VERSION,
} from './go-build.mjs';
import { environmentFor, NodeRuntimeError, provideNodeWithProgress } from './node-runtime.mjs';
import { runStep } from './progress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const command = process.argv[2] ?? 'start';
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
const log = (line) => process.stdout.write(`${line}\n`);
const fail = (sentence) => {
  process.stderr.write(`${sentence}\n`);
  process.exit(1);
};

// The commands that run a local Temporal dev server (`start` only when TEMPORAL_ADDRESS names no cluster).
const runsDevServer =
  ['test', 'faults', 'bench'].includes(command) || (command === 'start' && (process.env.TEMPORAL_ADDRESS ?? '') === '');
// Without Go the bootstrap says in one sentence what to install; nothing to start early then.
const cliBuild =
  runsDevServer && existingTemporalCli() === undefined && goAvailable() ? buildTemporalCli(log) : undefined;

let node;
try {
  node = await provideNodeWithProgress(log);
} catch (error) {
  fail(error instanceof NodeRuntimeError ? error.message : String(error));
}
// Its directory first on PATH: npm, the tools and anything else that runs `node` get the same one.
const env = environmentFor(node);

if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
  log('Installing the locked npm dependencies…');
  // `npm ci` refuses a lockfile that lacks other platforms' optional binaries (a
  // registry mirror may not carry them); `npm install` then installs the same
  // locked versions without changing the lockfile.
  const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
  const step = { label: 'Installing the npm packages', detail: packagesInstalled(), log, env, cwd: root };
  let npm = await runStep('npm', ['ci', ...quiet], step);
  if (npm.status !== 0) npm = await runStep('npm', ['install', ...quiet], step);
  if (npm.status !== 0) {
    process.stderr.write(`${npm.tail.join('\n')}\n`);
    fail('npm ci failed: check your network access to the npm registry and run `npm ci` to see why.');
  }
  log('Installed the npm packages.');
}

if (cliBuild !== undefined) {
  const { status, tail } = await cliBuild;
  if (status !== 0) {
    process.stderr.write(`${tail.join('\n')}\n`);
    fail(goBuildFailure([`${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`], TEMPORAL_CLI_INSTEAD));
  }
}

// The benchmark is an entry of its own (it uses the bootstrap's stack; the bootstrap knows nothing of it).
const entry = command === 'bench' ? join(root, 'tools', 'bench', 'cli.ts') : join(root, 'tools', 'launcher', 'main.ts');
const child = spawn(node, [entry, command, ...process.argv.slice(3)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
// The child owns shutdown: pass the signal on (Ctrl-C in a terminal reaches the whole
// process group anyway; a `kill -INT` of this process alone must stop everything too,
// and so must a closed terminal's SIGHUP).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 130)));

/** How far the npm install is: the packages of the lockfile's top level already in node_modules, of how many. */
function packagesInstalled() {
  const topLevel = Object.keys(JSON.parse(readFileSync(lock, 'utf8')).packages ?? {}).filter((p) =>
    /^node_modules\/(@[^/]+\/)?[^/]+$/.test(p),
  );
  const present = () => {
    try {
      return readdirSync(join(root, 'node_modules')).flatMap((name) =>
        name.startsWith('@')
          ? readdirSync(join(root, 'node_modules', name)).map((n) => `${name}/${n}`)
          : name.startsWith('.')
            ? []
            : [name],
      ).length;
    } catch {
      return 0;
    }
  };
  return () => `${Math.min(present(), topLevel.length)} of ${topLevel.length} packages`;
}
