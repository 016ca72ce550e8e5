/**
 * The pieces of `npm test` around the suites: the static checks, the unit
 * tier, and mocha's arguments for a suite run (tools/launcher/commands.ts runs them).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PrerequisiteError, provideTemporalCli } from './temporal-cli.ts';

/** Type check, lint, the import rule and the format check before the suite: CI runs `npm test` and nothing else. */
export function staticChecks(root: string, say: (line: string) => void): void {
  for (const [what, args] of [
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
    // The layout is prettier's (.prettierrc.json); `npm run format` writes it.
    [
      'format check',
      [join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--check', '--log-level', 'warn', root],
    ],
  ] as const) {
    say(`Running the ${what}…`);
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new PrerequisiteError(`the ${what} failed (see above)`);
  }
}

/** The unit tier (test/unit, test/workflows): no MySQL, its own Temporal dev server, seconds; `npm run test:unit` alone. */
export function unitTier(root: string, say: (line: string) => void): void {
  const cli = provideTemporalCli();
  say('Running the unit tier (test/unit, test/workflows)…');
  const mocha = [
    join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--config',
    join(root, 'test', 'unit', '.mocharc.json'),
  ];
  const result = spawnSync(process.execPath, mocha, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TEMPORAL_CLI: cli, DARGAH_SUITE: 'unit' },
  });
  if (result.status !== 0) throw new PrerequisiteError('the unit tier failed (see above)');
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
