/**
 * The cluster's child processes (PostgreSQL, the Temporal services, the UI,
 * the balancer), as the cluster tools start and stop them: output appended to
 * a log file, an end that escalates to SIGKILL, and a wait until one serves.
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { PrerequisiteError } from './temporal-cli.ts';

/** Opens `file` for appending and hands its descriptor to `use` (a child's stdout and stderr). */
export function withLog<T>(file: string, use: (fd: number) => T): T {
  const fd = openSync(file, 'a');
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

/** SIGTERM (or `signal`), SIGKILL after `graceMs`; resolves once it has exited. */
export function endProcess(
  child: ChildProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 10_000,
): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
      return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    timer.unref();
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Probes until `probe` answers true; a PrerequisiteError from it (the process died) ends the wait at once. */
export async function until(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs: number,
  hint: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await probe().catch((error: unknown) => {
      if (error instanceof PrerequisiteError) throw error;
      return false;
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new PrerequisiteError(`${what} within ${Math.round(timeoutMs / 1000)} s: see ${hint}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
