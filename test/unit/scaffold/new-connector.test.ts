/**
 * `npm run new-connector` (tools/scaffold/new-connector.ts), run against a temporary copy of the files it
 * reads and edits: it writes the connector's skeleton, adds one line (and its import) to each table of
 * PSPs, gives the simulator a port no profile has, and refuses a bad name, a taken one and a second run
 * without touching a file.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PSP_NAMES, PSP_PROFILES } from '../../../src/psps/profiles.ts';
import { EDITED_FILES, newConnector, ScaffoldRefused } from '../../../tools/scaffold/new-connector.ts';

/** registry.ts in the shape of the connectors' registry, for a checkout that does not have it yet. */
const REGISTRY = `/** The connectors. */
${PSP_NAMES.map((psp) => `import { ${psp.toUpperCase()}_CONNECTOR } from './${psp}/index.ts';`).join('\n')}

export const PSP_CONNECTORS = {
${PSP_NAMES.map((psp) => `  ${psp}: ${psp.toUpperCase()}_CONNECTOR,`).join('\n')}
} as const;
`;

function copyOfTheRepository(): string {
  const root = mkdtempSync(join(tmpdir(), 'dargah-scaffold-'));
  for (const file of [...EDITED_FILES, ...PSP_NAMES.map((psp) => `src/psps/${psp}/profile.ts`)]) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    if (existsSync(file)) cpSync(file, join(root, file));
  }
  if (!existsSync(join(root, 'src/psps/registry.ts'))) writeFileSync(join(root, 'src/psps/registry.ts'), REGISTRY);
  return root;
}

/** Every file under `root` with its text. */
function snapshot(root: string, dir = ''): Record<string, string> {
  return Object.assign(
    {},
    ...readdirSync(join(root, dir), { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? snapshot(root, path) : { [path]: readFileSync(join(root, path), 'utf8') };
    }),
  ) as Record<string, string>;
}

describe('npm run new-connector', () => {
  const roots: string[] = [];
  after(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  const fresh = () => {
    const root = copyOfTheRepository();
    roots.push(root);
    return root;
  };

  it("writes the connector's folder, its simulator, corpus folder, doc page and failing tests, and one line of each table", () => {
    const root = fresh();
    const before = snapshot(root);
    const done = newConnector(root, 'examplepsp');
    for (const file of ['profile', 'index', 'client', 'mapping'])
      assert.ok(done.written.includes(`src/psps/examplepsp/${file}.ts`), file);
    for (const file of [
      'src/psps/examplepsp/simulator.ts',
      'test/fixtures/psps/examplepsp/README.md',
      'docs/psps/examplepsp.md',
      'test/psps/examplepsp/unit/connector.test.ts',
      'test/psps/examplepsp/corpus-e2e.test.ts',
    ]) {
      assert.ok(done.written.includes(file) && existsSync(join(root, file)), file);
    }
    assert.deepEqual([...done.edited].sort(), [...EDITED_FILES].sort());
    for (const [file, line, importLine] of [
      [
        'src/psps/profiles.ts',
        '  examplepsp: EXAMPLEPSP_PROFILE,',
        "import { EXAMPLEPSP_PROFILE } from './examplepsp/profile.ts';",
      ],
      [
        'src/psps/registry.ts',
        '  examplepsp: EXAMPLEPSP_CONNECTOR,',
        "import { EXAMPLEPSP_CONNECTOR } from './examplepsp/index.ts';",
      ],
      [
        'src/bank-sim/protocols.ts',
        '  examplepsp: EXAMPLEPSP_SIMULATOR,',
        "import { EXAMPLEPSP_SIMULATOR } from '../psps/examplepsp/simulator.ts';",
      ],
    ] as const) {
      const text = readFileSync(join(root, file), 'utf8');
      const added = text.split('\n').filter((l) => !before[file]!.split('\n').includes(l));
      assert.deepEqual(added.sort(), [importLine, line].sort(), `${file}: its import and its line, nothing else`);
      assert.ok(
        text.indexOf(line) > text.indexOf(`  ${PSP_NAMES.at(-1)}: `),
        `${file}: after the last PSP, in the table`,
      );
    }
    const profile = readFileSync(join(root, 'src/psps/examplepsp/profile.ts'), 'utf8');
    const port = Number(/port: (\d+)/.exec(profile)![1]);
    assert.ok(
      !Object.values(PSP_PROFILES).some((p) => p.simulator.port === port),
      `the simulator's port ${port} is no other profile's`,
    );
    assert.match(
      readFileSync(join(root, 'src/psps/examplepsp/simulator.ts'), 'utf8'),
      new RegExp(`port: ${port},`),
      "the simulator's default is the profile's port",
    );
    for (const test of ['test/psps/examplepsp/unit/connector.test.ts', 'test/psps/examplepsp/corpus-e2e.test.ts']) {
      const text = readFileSync(join(root, test), 'utf8');
      assert.doesNotMatch(text, /\.skip\(|\.only\(|xit\(|xdescribe\(/, `${test} skips nothing`);
      assert.match(text, /\bit\(/, `${test} has tests`);
    }
    assert.match(readFileSync(join(root, 'src/psps/examplepsp/client.ts'), 'utf8'), /implements PspClient/);
    assert.match(readFileSync(join(root, 'src/psps/examplepsp/mapping.ts'), 'utf8'), /not built yet/);
  });

  it('refuses a second run, a name already registered and a bad name, and then writes nothing', () => {
    const root = fresh();
    newConnector(root, 'samplepsp');
    for (const [name, why] of [
      ['samplepsp', /exists already/],
      [PSP_NAMES[0]!, /exists already/],
      ['Saman', /not a PSP name/],
      ['1psp', /not a PSP name/],
      ['a-b', /not a PSP name/],
      ['', /not a PSP name/],
      ['x', /not a PSP name/],
    ] as const) {
      const before = snapshot(root);
      assert.throws(
        () => newConnector(root, name),
        (error: unknown) => error instanceof ScaffoldRefused && why.test(error.message),
        name,
      );
      assert.deepEqual(snapshot(root), before, `${name || '(empty)'}: no file touched`);
    }
  });

  it('refuses a table it cannot find rather than write the line elsewhere', () => {
    const root = fresh();
    writeFileSync(join(root, 'src/bank-sim/protocols.ts'), '// no table here\n');
    const before = snapshot(root);
    assert.throws(() => newConnector(root, 'sadad2'), /has no "export const SIMULATOR_PROTOCOLS = \{"/);
    assert.deepEqual(snapshot(root), before, 'no file touched');
  });
});
