/**
 * Keeps the processes of `npm start` running, as a process manager would. A
 * child that exits while the launcher is not stopping is started again after
 * a backoff: 1 s, doubling up to 30 s, back to 1 s once a run has lasted 60 s.
 * A child that exits 5 times within 2 minutes is crash-looping: the launcher
 * gives up and stops everything. The launcher owns shutdown: `stop()` ends
 * every restart at once and stops the children, layer by layer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface RestartPolicy {
  /** Wait before the first restart. */
  initialDelayMs: number;
  /** The wait doubles after each restart up to this. */
  maxDelayMs: number;
  /** A run at least this long resets the wait to initialDelayMs. */
  healthyAfterMs: number;
  /** This many exits within crashWindowMs and the launcher gives up. */
  crashLimit: number;
  crashWindowMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  healthyAfterMs: 60_000,
  crashLimit: 5,
  crashWindowMs: 120_000,
};

/**
 * The launcher's policy. SUPERVISOR_CRASH_LIMIT and SUPERVISOR_CRASH_WINDOW_SECONDS
 * change when it gives up (a test sets a low limit to see it happen quickly).
 */
export function restartPolicyFromEnv(env: NodeJS.ProcessEnv): RestartPolicy {
  const positive = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^[1-9][0-9]{0,5}$/.test(raw)) throw new Error(`${name} must be a positive whole number, got "${raw}".`);
    return Number(raw);
  };
  return {
    ...DEFAULT_RESTART_POLICY,
    crashLimit: positive('SUPERVISOR_CRASH_LIMIT', DEFAULT_RESTART_POLICY.crashLimit),
    crashWindowMs: positive('SUPERVISOR_CRASH_WINDOW_SECONDS', DEFAULT_RESTART_POLICY.crashWindowMs / 1000) * 1000,
  };
}

export type RestartDecision = { giveUp: false; delayMs: number } | { giveUp: true; crashes: number };

/** Decides, exit after exit, when to start a child again or to give up. Pure: the caller says what time it is. */
export class RestartTracker {
  private delayMs: number;
  private crashes: number[] = [];
  private readonly policy: RestartPolicy;

  constructor(policy: RestartPolicy) {
    this.policy = policy;
    this.delayMs = policy.initialDelayMs;
  }

  /** A run that began at `startedAt` ended at `now` (both in ms). */
  onExit(startedAt: number, now: number): RestartDecision {
    if (now - startedAt >= this.policy.healthyAfterMs) this.delayMs = this.policy.initialDelayMs;
    this.crashes = this.crashes.filter((t) => now - t < this.policy.crashWindowMs);
    this.crashes.push(now);
    if (this.crashes.length >= this.policy.crashLimit) return { giveUp: true, crashes: this.crashes.length };
    const delayMs = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.policy.maxDelayMs);
    return { giveUp: false, delayMs };
  }
}

export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `signal ${signal}` : `code ${code ?? 'unknown'}`;
}

function duration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

interface SpecBase {
  /** How the launcher's lines name it: "worker", "api", "Temporal dev server". */
  name: string;
  /** Higher layers stop first: the worker and API (1) before the Temporal server they use (0). */
  layer?: number;
  /** Where to look when it keeps crashing, e.g. its log file. */
  hint?: string;
}
/** A TypeScript program of this project, run by Node from its source (the API, the worker, a bank simulator…). */
export interface ScriptSpec extends SpecBase {
  script: string;
  env: NodeJS.ProcessEnv;
}
/** Any other program. */
export interface SpawnSpec extends SpecBase {
  start: () => ChildProcess;
}
export type ChildSpec = ScriptSpec | SpawnSpec;

interface Entry {
  spec: ChildSpec;
  tracker: RestartTracker;
  current: ChildProcess | undefined;
  startedAt: number;
  timer: NodeJS.Timeout | undefined;
}

export interface SupervisorOptions {
  /** The project root: scripts are relative to it and run in it. */
  root: string;
  policy: RestartPolicy;
  /** Lines about the normal course: a child started. */
  say: (line: string) => void;
  /** Lines about trouble: a child exited and will be restarted. */
  warn: (line: string) => void;
  /** A child keeps crashing: `sentence` says which and why. The launcher should stop everything. */
  onGiveUp: (sentence: string) => void;
}

export class Supervisor {
  private readonly entries: Entry[] = [];
  private stopping = false;
  private readonly options: SupervisorOptions;

  constructor(options: SupervisorOptions) {
    this.options = options;
  }

  /** Starts `spec` and keeps it running; `running` adopts an instance that is already up (started and awaited by the caller). */
  add(spec: ChildSpec, running?: ChildProcess): void {
    const entry: Entry = {
      spec,
      tracker: new RestartTracker(this.options.policy),
      current: undefined,
      startedAt: Date.now(),
      timer: undefined,
    };
    this.entries.push(entry);
    if (running !== undefined && running.exitCode === null && running.signalCode === null) this.watch(entry, running);
    else this.launch(entry);
  }

  /** No more restarts from now on; then SIGTERM (SIGKILL after 10 s) to every child, the highest layer first. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const entry of this.entries) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
    }
    const layers = [...new Set(this.entries.map((e) => e.spec.layer ?? 0))].sort((a, b) => b - a);
    for (const layer of layers) {
      await Promise.all(
        this.entries
          .filter((e) => (e.spec.layer ?? 0) === layer)
          .map((e) => (e.current === undefined ? Promise.resolve() : stopProcess(e.current))),
      );
    }
  }

  private launch(entry: Entry): void {
    const { spec } = entry;
    let child: ChildProcess;
    try {
      child =
        'script' in spec
          ? spawn(process.execPath, [join(this.options.root, spec.script)], {
              cwd: this.options.root,
              env: spec.env,
              stdio: ['ignore', 'inherit', 'inherit'],
            })
          : spec.start();
    } catch (error) {
      // Counts as a crash: retried with backoff, and given up on like any other.
      entry.startedAt = Date.now();
      this.exited(entry, `could not start: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    this.watch(entry, child);
  }

  private watch(entry: Entry, child: ChildProcess): void {
    entry.current = child;
    entry.startedAt = Date.now();
    let ended = false;
    const end = (cause: string) => {
      if (ended) return;
      ended = true;
      if (entry.current === child) entry.current = undefined;
      if (!this.stopping) this.exited(entry, cause);
    };
    child.once('exit', (code, signal) => end(describeExit(code, signal)));
    // A program that cannot be started at all (ENOENT, EACCES) emits 'error' and no 'exit'.
    child.once('error', (error) => {
      if (child.pid === undefined) end(`could not start: ${error.message}`);
    });
    if (child.pid !== undefined) this.options.say(`${entry.spec.name} started (pid ${child.pid}).`);
  }

  private exited(entry: Entry, cause: string): void {
    const { name, hint } = entry.spec;
    const ranMs = Date.now() - entry.startedAt;
    const decision = entry.tracker.onExit(entry.startedAt, Date.now());
    if (decision.giveUp) {
      this.stopping = true;
      const window = `${Math.round(this.options.policy.crashWindowMs / 1000)} s`;
      this.options.onGiveUp(
        `${name} keeps crashing (${decision.crashes} exits within ${window}, the last with ${cause}${hint === undefined ? '' : `; see ${hint}`}): stopping everything.`,
      );
      return;
    }
    this.options.warn(
      `${name} exited (${cause}) after running ${duration(ranMs)}; restarting it in ${decision.delayMs / 1000} s.`,
    );
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (!this.stopping) this.launch(entry);
    }, decision.delayMs);
  }
}

/** SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves once it has exited. */
export function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    timer.unref();
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
