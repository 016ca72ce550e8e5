/**
 * The gateway's own entry points as child processes (src/main/api.ts and
 * src/main/worker.ts, as `npm start` runs them), on the suite's MySQL and
 * Temporal server but their own ports and task queue, so nothing the
 * in-process harness worker does reaches them and what they count is theirs
 * alone. Their output goes to test-artifacts/<name>.log. The fault and cluster
 * suites start their workers and API replicas with spawnEntryPoint too.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ARTIFACTS } from './artifacts.ts';

export interface GatewayProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs an entry point (`script`, from the checkout's root) as `npm start` does, its output appended to `logFile`. */
export function spawnEntryPoint(
  script: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
): ChildProcessByStdio<null, Readable, Readable> {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [script], {
    cwd: process.cwd(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  return child;
}

export function startEntryPoint(name: string, script: string, env: NodeJS.ProcessEnv): GatewayProcess {
  const child = spawnEntryPoint(script, env, join(ARTIFACTS, `${name}.log`));
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Waits until `url` answers 200 (or the process dies, or `seconds` pass). */
export async function waitUntilOk(url: string, process: GatewayProcess, seconds = 90): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (process.child.exitCode !== null)
      throw new Error(`${url}: the process exited (${process.child.exitCode}); see test-artifacts`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (the lines that are samples). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const l of (match[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1]!, labels, value: Number(match[4]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

export async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return parseMetrics(await res.text());
}
