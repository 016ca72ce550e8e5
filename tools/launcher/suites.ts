/**
 * The pieces of `npm test` around the suites: the static checks, the unit
 * tier, and mocha's arguments for a suite run (tools/launcher/test-command.ts runs them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readWeights, runShards, splitByWeight, suiteFiles } from './shards.ts';
import { niced } from './priority.ts';
import { provideTemporalCli } from './temporal-cli.ts';

/** A part of `npm test` that ran: whether it passed, and its wall time. */
export interface PartResult {
  passed: boolean;
  ms: number;
}

/**
 * The format check, type check, lint and the import rule (CI runs `npm test` and nothing else), one
 * after another, the quickest first. They run beside the unit tier, whose workflow tests spend most of
 * their time waiting on Temporal's retry timers, and then beside the main suite: so their output is kept
 * and `say` prints it when they end (`onChild` receives each check's process, for the launcher to stop
 * on Ctrl-C; `niceness` is asked at each check's start, the priority it runs at then).
 */
export async function staticChecks(
  root: string,
  say: (line: string) => void,
  onChild: (child: ChildProcess) => void = () => undefined,
  niceness: () => number | undefined = () => undefined,
): Promise<PartResult> {
  const started = Date.now();
  for (const [what, args] of [
    // The layout is prettier's (.prettierrc.json); `npm run format` writes it.
    [
      'format check',
      [join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--check', '--log-level', 'warn', root],
    ],
    ['type check', [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', root]],
    ['lint', [join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), root]],
    [
      'import rule check',
      [
        join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
        'src',
        'activities',
        'workflows',
        'openapi',
        'tools',
        'test',
        '--config',
        join(root, '.dependency-cruiser.cjs'),
      ],
    ],
  ] as const) {
    const [command, commandArgs] = niced(niceness(), process.execPath, args);
    const child = spawn(command, commandArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    onChild(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number>((resolve) => child.once('close', (c) => resolve(c ?? 1)));
    say(`The ${what}: ${code === 0 ? 'passed' : 'FAILED'}.`);
    if (output.trim() !== '') say(output.trimEnd());
    if (code !== 0) return { passed: false, ms: Date.now() - started };
  }
  return { passed: true, ms: Date.now() - started };
}

/**
 * How many mocha processes the unit tier runs side by side. Its files mostly wait (simulators' delays of a
 * second, Temporal's retry timers, processes that refuse to start), not compute: one process took 134 s
 * for about 75 s of CPU. Three keep two cores busy; each workflow process has a dev server of its own.
 */
export const UNIT_SHARDS = 3;

export const unitConfig = (root: string) => join(root, 'test', 'unit', '.mocharc.json');

/**
 * The unit tier (test/unit, the PSPs' unit tests, test/workflows): no MySQL, a Temporal dev server per
 * process; `npm run test:unit` alone. Its files are split by measured time (shards.ts) into UNIT_SHARDS
 * mocha processes; the tier ends with their counts and, when one failed, every failing test's first line.
 */
export async function unitTier(root: string, say: (line: string) => void): Promise<PartResult> {
  const started = Date.now();
  const cli = provideTemporalCli();
  const config = unitConfig(root);
  const groups = splitByWeight(suiteFiles(root, config), readWeights(root), UNIT_SHARDS);
  say(
    `Running the unit tier (test/unit, test/psps/*/unit, test/workflows) in ${groups.length} processes side by side; their lines are prefixed [1], [2]…`,
  );
  const envs = groups.map((_, i) => ({
    ...process.env,
    TEMPORAL_CLI: cli,
    DARGAH_SUITE: 'unit',
    TEST_ARTIFACTS: join(root, 'test-artifacts', 'unit', `shard-${i + 1}`),
  }));
  const results = await runShards(root, config, groups, envs, [], 'unit');
  for (const r of results)
    say(`Unit shard ${r.shard}: ${r.counts.join(', ') || `no counts (mocha exited ${r.code})`}.`);
  const failures = results.flatMap((r) => r.failures);
  if (failures.length > 0) {
    say(`\nFailing unit tests (${failures.length}), the first line of each error:`);
    for (const line of failures) say(line);
  }
  return { passed: results.every((r) => r.code === 0), ms: Date.now() - started };
}

/**
 * Mocha's arguments for a suite. Test files named on the command line run
 * alone: mocha adds them to its configuration's `spec` (the whole suite), so
 * they go into a copy of the configuration in place of it.
 */
export function suiteArgs(root: string, config: string, args: string[]): string[] {
  const files = args.filter((arg) => !arg.startsWith('-') && existsSync(resolve(root, arg)));
  if (files.length === 0) return ['--config', config, ...args];
  const options = JSON.parse(readFileSync(config, 'utf8')) as Record<string, unknown>;
  const artifacts = join(root, 'test-artifacts');
  const narrowed = join(artifacts, 'mocharc.files.json');
  mkdirSync(artifacts, { recursive: true });
  writeFileSync(narrowed, JSON.stringify({ ...options, spec: files, ignore: [] }));
  return ['--config', narrowed, ...args.filter((arg) => !files.includes(arg))];
}
