/**
 * Finds or builds Prometheus's promtool, which checks the alert rules in
 * deploy/prometheus (the test suite runs `promtool check rules`). Order, as
 * for the Temporal CLI (temporal-cli.ts): PROMTOOL, `promtool` on PATH, our
 * cache, else a build with Go into that cache, outside the checkout.
 *
 * The build: `go install …/cmd/promtool@<version>` first. That fails when
 * the Go module proxy lacks a version one of Prometheus's dependencies pins
 * (it does for v0.316.0: github.com/hashicorp/nomad/api, used only by Nomad
 * service discovery, answers 403); then promtool is built from a one-line
 * module that requires the same Prometheus and replaces that dependency
 * with the nearest version the proxy serves. promtool's rule checks do not
 * touch Nomad.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, PrerequisiteError } from './temporal-cli.ts';

/** Prometheus 3.16.0's Go module version (docker-compose.yml runs the same release). */
export const PROMTOOL_VERSION = 'v0.316.0';
const MODULE = 'github.com/prometheus/prometheus';
/** The dependency the proxy does not serve at Prometheus's pin, and the version used instead. */
const REPLACEMENTS = { 'github.com/hashicorp/nomad/api': 'v0.0.0-20260907080526-08ef8f3d26da' };

const works = (path: string) => spawnSync(path, ['--version'], { encoding: 'utf8' }).status === 0;

export function providePromtool(log: (line: string) => void): string {
  const configured = process.env.PROMTOOL;
  if (configured !== undefined && configured !== '') {
    if (!works(configured)) throw new PrerequisiteError(`PROMTOOL=${configured} is not a working promtool: fix the path or unset it.`);
    return configured;
  }
  if (works('promtool')) return 'promtool';
  const bin = join(cacheDir(), `promtool-${PROMTOOL_VERSION}`);
  const cached = join(bin, 'promtool');
  if (existsSync(cached) && works(cached)) return cached;
  if (spawnSync('go', ['version'], { encoding: 'utf8' }).status !== 0) {
    throw new PrerequisiteError('Neither promtool nor Go was found: install Go 1.22 or newer (promtool is then built with go install), or put promtool on PATH or in PROMTOOL.');
  }
  mkdirSync(bin, { recursive: true });
  log(`Building promtool ${PROMTOOL_VERSION} with Go into ${bin} (first run only; several minutes)…`);
  const env = { ...process.env, GOBIN: bin, GOFLAGS: '-mod=mod' };
  const install = spawnSync('go', ['install', `${MODULE}/cmd/promtool@${PROMTOOL_VERSION}`], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (install.status === 0 && works(cached)) return cached;

  const module = join(bin, 'build');
  mkdirSync(module, { recursive: true });
  const replaces = Object.entries(REPLACEMENTS).map(([path, version]) => `replace ${path} => ${path} ${version}`);
  writeFileSync(join(module, 'go.mod'), [`module dargah.local/promtool`, '', 'go 1.25', '', `require ${MODULE} ${PROMTOOL_VERSION}`, '', ...replaces, ''].join('\n'));
  writeFileSync(join(module, 'tools.go'), `//go:build tools\n\npackage tools\n\nimport _ "${MODULE}/cmd/promtool"\n`);
  const steps = [
    ['mod', 'tidy'],
    ['build', '-o', cached, `${MODULE}/cmd/promtool`],
  ];
  for (const args of steps) {
    const step = spawnSync('go', args, { cwd: module, env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (step.status !== 0) break;
  }
  if (!works(cached)) {
    throw new PrerequisiteError(`building promtool ${PROMTOOL_VERSION} failed (${install.stderr.trim().split('\n').pop() ?? ''}): check that the Go module proxy is reachable, or install promtool and set PROMTOOL.`);
  }
  return cached;
}
