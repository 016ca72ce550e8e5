/**
 * Finds or builds the Temporal CLI, whose `server start-dev` is the local
 * Temporal server. Order: TEMPORAL_CLI, `temporal` on PATH, our cache, and
 * else `go install` into that cache (outside the checkout, so every clone
 * reuses one build).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from './node-runtime.mjs';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const MODULE = 'github.com/temporalio/cli/cmd/temporal';

export class PrerequisiteError extends Error {
  override name = 'PrerequisiteError';
}

// One cache for every build and download outside the checkout (node-runtime.mjs keeps Node there too).
export { cacheDir };

const works = (path: string) => spawnSync(path, ['--version'], { encoding: 'utf8' }).status === 0;

export function provideTemporalCli(log: (line: string) => void): string {
  const configured = process.env.TEMPORAL_CLI;
  if (configured !== undefined && configured !== '') {
    if (!works(configured)) throw new PrerequisiteError(`TEMPORAL_CLI=${configured} is not a working Temporal CLI: fix the path or unset it.`);
    return configured;
  }
  if (works('temporal')) return 'temporal';
  const bin = join(cacheDir(), `temporal-cli-${TEMPORAL_CLI_VERSION}`);
  const cached = join(bin, 'temporal');
  if (existsSync(cached) && works(cached)) return cached;

  goInstall(bin, [`${MODULE}@${TEMPORAL_CLI_VERSION}`], `the Temporal CLI ${TEMPORAL_CLI_VERSION}`, 'install the Temporal CLI and put it on PATH or in TEMPORAL_CLI', log);
  if (!works(cached)) throw new PrerequisiteError(`go install ${MODULE}@${TEMPORAL_CLI_VERSION} built no working CLI at ${cached}: install the Temporal CLI yourself and set TEMPORAL_CLI.`);
  return cached;
}

/**
 * Builds `packages` (each `path@version`) with go install into `bin`, a
 * directory of our cache. `what` names the build in the lines it prints;
 * `instead` says what to do when Go is missing or the build fails.
 */
export function goInstall(bin: string, packages: string[], what: string, instead: string, log: (line: string) => void): void {
  if (spawnSync('go', ['version'], { encoding: 'utf8' }).status !== 0) {
    throw new PrerequisiteError(`Go was not found, and it builds ${what}: install Go 1.22 or newer, or ${instead}.`);
  }
  mkdirSync(bin, { recursive: true });
  log(`Building ${what} with go install into ${bin} (first run only; a few minutes)…`);
  // nice: the build takes every core for minutes, and the machine may be doing other work.
  const build = spawnSync('nice', ['-n', '10', 'go', 'install', ...packages], {
    env: { ...process.env, GOBIN: bin },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (build.status !== 0) {
    throw new PrerequisiteError(`go install ${packages.join(' ')} failed: check that the Go module proxy is reachable, or ${instead}.`);
  }
}
