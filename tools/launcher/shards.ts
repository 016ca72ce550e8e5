/**
 * The main suite in shards: its files split into groups of about equal time, each group a mocha
 * process of its own over a copy of the suite's services of its own (database, Temporal dev server,
 * simulators, artifacts folder; test-command.ts makes them), all running at once (TEST_SHARDS).
 *
 * On a machine with cores to spare the suite's time divides by the shards; on two cores it is bound by CPU
 * and two shards saved about a tenth (docs/TESTING.md#the-main-suite-in-shards). Shards share nothing a test
 * can change: a fault switched on at one shard's simulator, a breaker opened, a row counted in its
 * database, a workflow listed in its Temporal are invisible to the other.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { niced } from './priority.ts';
import { cleanups, stopChild } from './stack.ts';

/**
 * Measured seconds per file of the main suite (the per-file times the suite's reporter writes to
 * test-artifacts/file-times.main.json, copied here on purpose by `npm run test:weights`). Only the
 * split reads them: a file missing from the table counts as the table's median.
 */
export const WEIGHTS_FILE = join('test', 'support', 'file-weights.json');

/**
 * A glob of a mocha configuration as a regular expression over paths relative to the root: `**\/` any
 * folders (none included), a trailing `/**` everything below, `*` any name or part of one.
 */
export function globPattern(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('**/', i)) {
      pattern += '(?:[^/]+/)*';
      i += 2;
    } else if (glob.startsWith('/**', i) && i + 3 === glob.length) {
      pattern += '/.*';
      i += 2;
    } else if (glob[i] === '*') pattern += '[^/]*';
    else pattern += glob[i]!.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** The files of a mocha configuration, as mocha finds them: every path under test/ its `spec` globs match and no `ignore` glob does. */
export function suiteFiles(root: string, config: string): string[] {
  const options = JSON.parse(readFileSync(config, 'utf8')) as { spec: string[]; ignore?: string[] };
  const specs = options.spec.map(globPattern);
  const ignored = (options.ignore ?? []).map(globPattern);
  return (readdirSync(join(root, 'test'), { recursive: true }) as string[])
    .map((f) => join('test', f))
    .filter((f) => specs.some((p) => p.test(f)) && !ignored.some((p) => p.test(f)))
    .sort();
}

/**
 * `files` in `count` groups of about equal weight: heaviest first, each to the lightest group so far
 * (greedy; within a few percent of the best split for a hundred files). Each group keeps mocha's
 * alphabetical order, so a file's neighbours are the same from run to run.
 */
export function splitByWeight(files: string[], weights: Record<string, number>, count: number): string[][] {
  const known = files.map((f) => weights[f]).filter((w): w is number => w !== undefined);
  const median = known.length === 0 ? 1 : known.sort((a, b) => a - b)[Math.floor(known.length / 2)]!;
  const weightOf = (f: string) => weights[f] ?? median;
  const groups = Array.from({ length: count }, () => ({ files: [] as string[], weight: 0 }));
  for (const file of [...files].sort((a, b) => weightOf(b) - weightOf(a) || a.localeCompare(b))) {
    const lightest = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(file);
    lightest.weight += weightOf(file);
  }
  return groups.map((g) => g.files.sort());
}

export function readWeights(root: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(root, WEIGHTS_FILE), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export interface ShardResult {
  /** What the process's lines are prefixed with: its shard's number, or a suite's name. */
  shard: number | string;
  code: number;
  /** The entries of the reporter's closing list of failures ("Failing tests (n)…"): a test's title, then its error's first line. */
  failures: string[];
  /** The reporter's closing counts ("N passing", "M failing", "K pending"). */
  counts: string[];
}

/**
 * Runs mocha with `args` and `env`, every line it prints going to the terminal prefixed with `[label]`;
 * its closing counts and list of failures are kept for the run's last lines (CI shows only a log's tail).
 */
export async function runLabelledMocha(
  root: string,
  label: number | string,
  args: string[],
  env: NodeJS.ProcessEnv,
  niceness?: number,
): Promise<ShardResult> {
  const [command, commandArgs] = niced(niceness, process.execPath, [
    join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    ...args,
  ]);
  const mocha = spawn(command, commandArgs, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const stop = stopChild(mocha);
  cleanups.push(stop);
  const result: ShardResult = { shard: label, code: 0, failures: [], counts: [] };
  let inFailures = false;
  const prefix = `[${label}] `;
  const onLine = (line: string, stream: NodeJS.WriteStream) => {
    stream.write(`${prefix}${line}\n`);
    if (/^Failing tests \(\d+\)/.test(line)) inFailures = true;
    else if (inFailures && /^\s+\d+\) /.test(line)) result.failures.push(`  [${label}] ${line.trimStart()}`);
    else if (inFailures && line.startsWith('  ')) result.failures[result.failures.length - 1] += `\n${line}`;
    else inFailures = false;
    if (/^\s+\d+ (passing|failing|pending)/.test(line)) result.counts.push(line.trim());
  };
  const lines = (from: NodeJS.ReadableStream, to: NodeJS.WriteStream) => {
    let buffered = '';
    from.setEncoding('utf8');
    from.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) onLine(part, to);
    });
    from.on('end', () => buffered !== '' && onLine(buffered, to));
  };
  lines(mocha.stdout, process.stdout);
  lines(mocha.stderr, process.stderr);
  result.code = await new Promise<number>((resolve) =>
    mocha.once('close', (c, signal) => resolve(c ?? (signal === null ? 1 : 130))),
  );
  cleanups.splice(cleanups.indexOf(stop), 1);
  return result;
}

/**
 * Runs mocha once per shard, each over its files with its own environment, all at once (runLabelledMocha,
 * labelled with the shard's number). `name` names the shards' narrowed configurations in test-artifacts/.
 */
export async function runShards(
  root: string,
  config: string,
  groups: string[][],
  envs: NodeJS.ProcessEnv[],
  extraArgs: string[],
  name = 'shard',
  niceness?: number,
): Promise<ShardResult[]> {
  const options = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
  const artifacts = join(root, 'test-artifacts');
  mkdirSync(artifacts, { recursive: true });
  return Promise.all(
    groups.map(async (files, i) => {
      const narrowed = join(artifacts, `mocharc.${name}-${i + 1}.json`);
      writeFileSync(narrowed, JSON.stringify({ ...options, spec: files, ignore: [] }));
      return runLabelledMocha(root, i + 1, ['--config', narrowed, ...extraArgs], envs[i]!, niceness);
    }),
  );
}

/** The slowest files of every shard together (from the reporter's file-times.main.json in each shard's artifacts folder). */
export function slowestFiles(root: string, artifactFolders: string[], shown: number): string[] {
  const times: [string, number][] = [];
  for (const folder of artifactFolders) {
    try {
      const table = JSON.parse(readFileSync(join(folder, 'file-times.main.json'), 'utf8')) as Record<string, number>;
      times.push(...Object.entries(table));
    } catch {
      // a shard that never finished wrote no table
    }
  }
  return times
    .sort((a, b) => b[1] - a[1])
    .slice(0, shown)
    .map(([file, ms]) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${relative(root, join(root, file))}`);
}
