/**
 * The tools that check the Helm chart (deploy/helm/dargah) offline: Helm, to
 * render it, and k8s-check (tools/k8s-check), which decodes every rendered
 * object strictly into the Kubernetes API's own Go types. Both are built with
 * Go into the cache outside the checkout, as the Temporal CLI is
 * (temporal-cli.ts); nothing is fetched when the test runs.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROGRESS_SCRIPT } from './progress.mjs';
import { cacheDir, goInstall, PrerequisiteError } from './temporal-cli.ts';

export const HELM_VERSION = 'v3.22.0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const checkSource = join(root, 'tools', 'k8s-check');

const runs = (path: string, args: string[]) =>
  existsSync(path) && spawnSync(path, args, { stdio: 'ignore' }).status === 0;

/** Helm HELM_VERSION, built once with go install. */
export function provideHelm(): string {
  const helm = join(cacheDir(), `helm-${HELM_VERSION}`, 'helm');
  if (runs(helm, ['version', '--short'])) return helm;
  goInstall(
    dirname(helm),
    [`helm.sh/helm/v3/cmd/helm@${HELM_VERSION}`],
    `Helm ${HELM_VERSION}`,
    'install Helm 3 yourself',
  );
  if (!runs(helm, ['version', '--short'])) throw new PrerequisiteError(`go install built no working Helm at ${helm}.`);
  return helm;
}

/** tools/k8s-check, built once per version of its source (go.mod, go.sum, main.go). */
export function provideK8sCheck(say: (line: string) => void): string {
  const hash = createHash('sha256');
  for (const file of ['go.mod', 'go.sum', 'main.go']) hash.update(readFileSync(join(checkSource, file)));
  const binary = join(cacheDir(), `k8s-check-${hash.digest('hex').slice(0, 12)}`, 'k8s-check');
  if (existsSync(binary)) return binary;
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0)
    throw new PrerequisiteError('Go was not found, and it builds tools/k8s-check: install Go 1.26 or newer.');
  mkdirSync(dirname(binary), { recursive: true });
  say(`Building tools/k8s-check into ${dirname(binary)} (first run only)…`);
  // Through progress.mjs as a program: a line every 15 s while Go compiles the Kubernetes API's types.
  const build = spawnSync(
    process.execPath,
    [PROGRESS_SCRIPT, 'Building tools/k8s-check', 'nice', '-n', '10', 'go', 'build', '-o', binary, '.'],
    {
      cwd: checkSource,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (build.status !== 0)
    throw new PrerequisiteError('go build of tools/k8s-check failed: check that the Go module proxy is reachable.');
  return binary;
}
