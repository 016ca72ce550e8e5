// Go tools built into the cache outside the checkout (the Temporal CLI here; the
// Temporal server, its UI server and Helm for the suites): `go install` with a
// line every 15 s that counts the Go modules downloaded and the packages
// compiled, so a first run's minutes of building are never silent. Plain
// JavaScript with no dependencies: launch.mjs starts the Temporal CLI's build
// before `node_modules` exists, beside Node's download and the npm install.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from './node-runtime.mjs';
import { elapsed, runStep } from './progress.mjs';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
export const GO_BUILD_SCRIPT = fileURLToPath(import.meta.url);

/** Where our build of the Temporal CLI lives (whether or not it is built yet). */
export const cachedTemporalCliPath = () => join(cacheDir(), `temporal-cli-${TEMPORAL_CLI_VERSION}`, 'temporal');

/** Whether `path --version` runs. */
export const works = (path) => spawnSync(path, ['--version'], { encoding: 'utf8' }).status === 0;

export const goAvailable = () => spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;

/**
 * The Temporal CLI to use without building one: TEMPORAL_CLI when set (checked by its
 * user), `temporal` on PATH, or our cache's build; undefined when there is none.
 */
export function existingTemporalCli(env = process.env) {
  if (env.TEMPORAL_CLI !== undefined && env.TEMPORAL_CLI !== '') return env.TEMPORAL_CLI;
  if (works('temporal')) return 'temporal';
  const cached = cachedTemporalCliPath();
  return existsSync(cached) && works(cached) ? cached : undefined;
}

// `go install -v` names each package it compiles on a line of its own; `go: downloading` each module.
const PACKAGE_LINE = /^[A-Za-z0-9][\w.~-]*(\/[\w.~+-]+)*$/;

/**
 * How many packages a first build of the Temporal CLI compiles, the standard library's among them
 * (`go list -deps ./cmd/temporal` in its module, 1 298 for v1.5.1): the "of about" of its progress.
 */
const TEMPORAL_CLI_PACKAGES = 1300;

/**
 * Builds `packages` (each `path@version`) with `go install` into `bin`; `what` names the
 * build in the lines it prints, `expected` (when known) how many packages it compiles from an
 * empty build cache. Resolves with go's exit status and its last lines of output.
 */
export async function goInstall(bin, packages, what, log, expected) {
  mkdirSync(bin, { recursive: true });
  log(`Building ${what} with go install into ${bin} (first run only; a few minutes)…`);
  const started = Date.now();
  let modules = 0;
  let compiled = 0;
  // nice: the build takes every core for minutes, and the machine may be doing other work.
  const result = await runStep('nice', ['-n', '10', 'go', 'install', '-v', ...packages], {
    label: `Building ${what}`,
    env: { ...process.env, GOBIN: bin },
    log,
    onLine: (line) => {
      if (line.startsWith('go: downloading ')) modules += 1;
      else if (PACKAGE_LINE.test(line)) compiled += 1;
    },
    detail: () =>
      `${modules} Go modules downloaded, ${compiled}${expected === undefined ? '' : ` of about ${expected}`} packages compiled`,
  });
  if (result.status === 0)
    log(
      `Built ${what} in ${elapsed(Date.now() - started)} (${modules} Go modules downloaded, ${compiled} packages compiled).`,
    );
  return result;
}

/** The sentence a failed build of `packages` ends with; `instead` says what to do without it. */
export const goBuildFailure = (packages, instead) =>
  `go install ${packages.join(' ')} failed: check that the Go module proxy is reachable, or ${instead}.`;

/** What to do when the Temporal CLI cannot be built. */
export const TEMPORAL_CLI_INSTEAD = 'install the Temporal CLI and put it on PATH or in TEMPORAL_CLI';

/** The Temporal CLI built into our cache; resolves with go's exit status and last lines. */
export function buildTemporalCli(log) {
  return goInstall(
    dirname(cachedTemporalCliPath()),
    [`${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`],
    `the Temporal CLI ${TEMPORAL_CLI_VERSION}`,
    log,
    TEMPORAL_CLI_PACKAGES,
  );
}

// As a program (`node go-build.mjs temporal-cli`, or `node go-build.mjs <bin> <what>
// <package@version>…`): the builds above for the launcher's TypeScript side, which waits for
// them synchronously; a failed build's last lines are printed, and go's exit status is this
// program's.
if (process.argv[1] === GO_BUILD_SCRIPT) {
  const [bin, what, ...packages] = process.argv.slice(2);
  const log = (line) => process.stdout.write(`${line}\n`);
  const { status, tail } =
    bin === 'temporal-cli' ? await buildTemporalCli(log) : await goInstall(bin, packages, what, log);
  if (status !== 0) process.stderr.write(`${tail.join('\n')}\n`);
  process.exit(status);
}
