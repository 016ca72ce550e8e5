// Entry of `npm start` and `npm test`. Plain JavaScript with no dependencies,
// because it runs before `node_modules` may exist: it finds the Node to run on
// (this one if it is 24 or newer, else the pinned Node 24 it installs into the
// cache: node-runtime.mjs), installs the locked dependencies with it when they
// are missing or stale, then hands over to the TypeScript bootstrap on it. Every
// process the bootstrap starts runs on `process.execPath`, so on that Node too.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environmentFor, NodeRuntimeError, provideNode } from './node-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const command = process.argv[2] ?? 'start';
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

let node;
try {
  node = provideNode((line) => process.stdout.write(`${line}\n`));
} catch (error) {
  process.stderr.write(`${error instanceof NodeRuntimeError ? error.message : String(error)}\n`);
  process.exit(1);
}
// Its directory first on PATH: npm, the tools and anything else that runs `node` get the same one.
const env = environmentFor(node);

if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
  process.stdout.write('Installing the locked npm dependencies…\n');
  // `npm ci` refuses a lockfile that lacks other platforms' optional binaries (a
  // registry mirror may not carry them); `npm install` then installs the same
  // locked versions without changing the lockfile.
  const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
  let npm = spawnSync('npm', ['ci', ...quiet], { cwd: root, env, stdio: ['ignore', 'inherit', 'pipe'] });
  if (npm.status !== 0) npm = spawnSync('npm', ['install', ...quiet], { cwd: root, env, stdio: 'inherit' });
  if (npm.status !== 0) {
    process.stderr.write('npm ci failed: check your network access to the npm registry and run `npm ci` to see why.\n');
    process.exit(1);
  }
}

// The benchmark is an entry of its own (it uses the bootstrap's stack; the bootstrap knows nothing of it).
const entry = command === 'bench' ? join(root, 'tools', 'bench', 'cli.ts') : join(root, 'tools', 'launcher', 'main.ts');
const child = spawn(node, ['--import', 'tsx', entry, command, ...process.argv.slice(3)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
// The child owns shutdown: pass the signal on (Ctrl-C in a terminal reaches the whole
// process group anyway; a `kill -INT` of this process alone must stop everything too,
// and so must a closed terminal's SIGHUP).
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 130)));
