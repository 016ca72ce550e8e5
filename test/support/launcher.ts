/**
 * The real `npm start` launcher (`node tools/launcher/launch.mjs start`) as a
 * child of the test, on its own database, ports and data directory: its lines
 * are collected (and copied to test-artifacts/), its processes found through
 * the data directory every one of them has in its environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS } from './artifacts.ts';

export interface Line {
  at: number;
  stream: 'stdout' | 'stderr';
  text: string;
}

export class Launcher {
  readonly lines: Line[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  private readonly logFile: string;
  readonly child: ChildProcess;

  private constructor(child: ChildProcess, name: string) {
    this.child = child;
    mkdirSync(ARTIFACTS, { recursive: true });
    this.logFile = join(ARTIFACTS, `${name}.log`);
    appendFileSync(
      this.logFile,
      `--- ${new Date().toISOString()} node tools/launcher/launch.mjs start (pid ${child.pid})\n`,
    );
    for (const stream of ['stdout', 'stderr'] as const) {
      let partial = '';
      child[stream]!.setEncoding('utf8').on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop() ?? '';
        for (const text of parts) this.record(stream, text);
      });
      child[stream]!.on('end', () => {
        if (partial !== '') this.record(stream, partial);
      });
    }
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
  }

  /** Starts the launcher with exactly `env` (the caller decides what it inherits). `name` names its log in test-artifacts/. */
  static start(env: NodeJS.ProcessEnv, name: string): Launcher {
    const child = spawn(process.execPath, ['tools/launcher/launch.mjs', 'start'], {
      cwd: process.cwd(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new Launcher(child, name);
  }

  private record(stream: Line['stream'], text: string): void {
    this.lines.push({ at: Date.now(), stream, text });
    appendFileSync(this.logFile, `${stream === 'stderr' ? '! ' : '  '}${text}\n`);
  }

  /** The first line from index `from` on that matches, waited for. */
  async waitForLine(
    pattern: RegExp,
    from = 0,
    timeoutMs = 60_000,
  ): Promise<{ index: number; line: Line; match: RegExpExecArray }> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      for (let i = from; i < this.lines.length; i++) {
        const match = pattern.exec(this.lines[i]!.text);
        if (match !== null) return { index: i, line: this.lines[i]!, match };
      }
      if (exited || Date.now() > deadline) {
        throw new Error(
          `${exited ? 'the launcher exited' : `timed out after ${timeoutMs} ms`} before a line matched ${pattern}; last lines:\n${this.tail(15)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Pids from the launcher's "<name> started (pid N)." lines, in order. */
  pidsOf(name: string): number[] {
    const pattern = new RegExp(`^${name} started \\(pid (\\d+)\\)\\.$`);
    return this.lines.flatMap((l) => {
      const m = pattern.exec(l.text);
      return m === null ? [] : [Number(m[1])];
    });
  }

  /** Lines the launcher itself wrote (plain sentences), not its children's JSON logs. */
  ownLines(stream?: Line['stream']): string[] {
    return this.lines
      .filter((l) => (stream === undefined || l.stream === stream) && !l.text.startsWith('{'))
      .map((l) => l.text);
  }

  tail(n: number): string {
    return this.lines
      .slice(-n)
      .map((l) => `${l.stream === 'stderr' ? '! ' : '  '}${l.text}`)
      .join('\n');
  }
}

/** Pids of live processes whose environment holds `NAME=value` (zombies, whose environment is gone, excluded). */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(needle)) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Whether `pid` is a running process (a zombie awaiting its parent counts as gone). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
