/**
 * CPU priority for the suites that share the machine in a whole `npm test` (test-command.ts): the main suite
 * runs at a lower priority than the suites beside it, whose scenarios hold requests and recoveries to bounds
 * on time and mostly wait, so they get a core the moment they need one and the main suite takes the rest.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The main suite's niceness beside the other suites: CFS then weighs a normal process about 9 to 1 against it. */
export const MAIN_SUITE_NICENESS = 10;

/** The static checks' niceness once the suites run: they have the whole main suite's time to finish in. */
export const CHECKS_NICENESS = 19;

/** Every process descended from `ancestor` (not itself), from `ps`'s table. */
export function descendantsOf(ancestor: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of table.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid === undefined || ppid === undefined || Number.isNaN(pid) || Number.isNaN(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  for (let queue = [...(children.get(ancestor) ?? [])]; queue.length > 0;) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/**
 * Lowers the priority of running processes to `niceness` (raising a niceness needs no privilege). Linux keeps a
 * niceness per thread, so every thread of each process (/proc/<pid>/task) is lowered; one that has exited since
 * it was listed is skipped.
 */
export function lowerPriority(pids: readonly number[], niceness: number): void {
  for (const pid of pids) {
    for (const thread of threadsOf(pid)) {
      try {
        setPriority(thread, niceness);
      } catch {
        // gone since it was listed
      }
    }
  }
}

function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [pid]; // no /proc (not Linux), where the niceness is the process's
  }
}

/** `command args` as `nice -n niceness command args`, so every thread it starts has the lower priority from its first. */
export const niced = (niceness: number | undefined, command: string, args: readonly string[]): [string, string[]] =>
  niceness === undefined ? [command, [...args]] : ['nice', ['-n', String(niceness), command, ...args]];
