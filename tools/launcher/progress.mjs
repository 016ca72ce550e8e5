// Progress of the launcher's long first-run steps (downloading Node, installing
// the npm packages, building Go tools): a line at least every 15 seconds that
// says what is being done, how far it is and how long it has taken, so a first
// start never sits silent for minutes. Plain JavaScript with no dependencies: it
// runs before `node_modules` may exist.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** This module as a program (below), for callers that wait synchronously. */
export const PROGRESS_SCRIPT = fileURLToPath(import.meta.url);

/** How often a long step says how it is going (the tests shorten it, as a whole number of ms in DARGAH_PROGRESS_INTERVAL_MS). */
export const PROGRESS_INTERVAL_MS = Number(process.env.DARGAH_PROGRESS_INTERVAL_MS ?? '') || 15_000;

/** `95 s` → `1 min 35 s`. */
export function elapsed(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/**
 * Prints `label: detail (elapsed)` every `interval` ms until the returned stop is
 * called; `detail()` says how far the step is (empty: nothing to count). The stop
 * prints the step's end with its total time when given a word for it.
 */
export function reportProgress(label, detail, log, interval = PROGRESS_INTERVAL_MS) {
  const started = Date.now();
  const line = () => {
    const now = detail();
    return `${label}${now === '' ? '' : `: ${now}`} (${elapsed(Date.now() - started)})`;
  };
  const timer = setInterval(() => log(`… ${line()}`), interval);
  return (outcome) => {
    clearInterval(timer);
    if (outcome !== undefined) log(`${label}: ${outcome} in ${elapsed(Date.now() - started)}.`);
  };
}

/**
 * Runs `command` with `args` as one long step: its standard output passes through,
 * (or is dropped, with `quiet`), its standard error is read line by line (each line to `onLine`, which counts what
 * the step has done, and the last lines kept to show when it fails), and
 * `label: detail() (elapsed)` is printed every 15 s until it ends. Resolves with its
 * exit status and those last lines.
 */
export function runStep(
  command,
  args,
  { label, detail = () => '', onLine = () => undefined, log, env = process.env, cwd = process.cwd(), quiet = false },
) {
  return new Promise((resolve) => {
    const tail = [];
    const stop = reportProgress(label, detail, log);
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'pipe'] });
    let partial = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        onLine(line);
        tail.push(line);
        if (tail.length > 30) tail.shift();
      }
    });
    const end = (status) => {
      stop();
      resolve({ status, tail });
    };
    child.on('error', () => end(127));
    child.on('close', (code) => end(code ?? 1));
  });
}

// As a program (`node progress.mjs <label> <command> [args…]`): the step above, for callers
// that cannot wait asynchronously (they run it with spawnSync); the failing step's last lines
// of standard error are printed, and its exit status is this program's.
if (process.argv[1] === PROGRESS_SCRIPT) {
  const [label, command, ...args] = process.argv.slice(2);
  const { status, tail } = await runStep(command, args, { label, log: (line) => process.stdout.write(`${line}\n`) });
  if (status !== 0) process.stderr.write(`${tail.join('\n')}\n`);
  process.exit(status);
}
