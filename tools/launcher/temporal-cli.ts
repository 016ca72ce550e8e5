/**
 * Finds or builds the Temporal CLI, whose `server start-dev` is the local
 * Temporal server. Order: TEMPORAL_CLI, `temporal` on PATH, our cache, and
 * else `go install` into that cache (outside the checkout, so every clone
 * reuses one build). The build itself, with its progress lines, is
 * go-build.mjs's: launch.mjs starts it early, beside Node and the npm install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  cachedTemporalCliPath,
  GO_BUILD_SCRIPT,
  goAvailable,
  goBuildFailure,
  TEMPORAL_CLI_INSTEAD,
  TEMPORAL_CLI_MODULE,
  TEMPORAL_CLI_VERSION,
  works,
} from './go-build.mjs';
import { cacheDir } from './node-runtime.mjs';

export { TEMPORAL_CLI_VERSION };

export class PrerequisiteError extends Error {
  override name = 'PrerequisiteError';
}

// One cache for every build and download outside the checkout (node-runtime.mjs keeps Node there too).
export { cacheDir };

export function provideTemporalCli(): string {
  const configured = process.env.TEMPORAL_CLI;
  if (configured !== undefined && configured !== '') {
    if (!works(configured))
      throw new PrerequisiteError(
        `TEMPORAL_CLI=${configured} is not a working Temporal CLI: fix the path or unset it.`,
      );
    return configured;
  }
  if (works('temporal')) return 'temporal';
  const cached = cachedTemporalCliPath();
  if (existsSync(cached) && works(cached)) return cached;

  runGoBuild(['temporal-cli'], `the Temporal CLI ${TEMPORAL_CLI_VERSION}`, TEMPORAL_CLI_INSTEAD, [
    `${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`,
  ]);
  if (!works(cached))
    throw new PrerequisiteError(
      `go install ${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION} built no working CLI at ${cached}: install the Temporal CLI yourself and set TEMPORAL_CLI.`,
    );
  return cached;
}

/**
 * Builds `packages` (each `path@version`) with go install into `bin`, a
 * directory of our cache, waiting for it (go-build.mjs as a program, which
 * prints its progress to our standard output). `what` names the build in
 * the lines it prints;
 * `instead` says what to do when Go is missing or the build fails.
 */
export function goInstall(bin: string, packages: string[], what: string, instead: string): void {
  runGoBuild([bin, what, ...packages], what, instead, packages);
}

/** go-build.mjs as a program with `args`, waited for; a failure is the sentence of goBuildFailure. */
function runGoBuild(args: string[], what: string, instead: string, packages: string[]): void {
  if (!goAvailable())
    throw new PrerequisiteError(`Go was not found, and it builds ${what}: install Go 1.22 or newer, or ${instead}.`);
  const build = spawnSync(process.execPath, [GO_BUILD_SCRIPT, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) throw new PrerequisiteError(goBuildFailure(packages, instead));
}
