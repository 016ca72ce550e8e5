/**
 * The tree shows the roles: docs/ARCHITECTURE.md's layer table names every
 * folder directly under src/ and tools/ (and every file directly under src/,
 * which would otherwise sit in no layer of the import rule), each in the row
 * of the layer .dependency-cruiser.cjs puts it in, and every activity module.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const ARCHITECTURE = 'docs/ARCHITECTURE.md';

interface LayerRow {
  layer: string;
  /** The folders and files of its "folders" column, as written (`src/db/`, `src/errors.ts`). */
  paths: string[];
  holds: string;
}

/** The rows of the table under "Layers and the import rule". */
function layerTable(markdown: string): LayerRow[] {
  const section = markdown.slice(markdown.indexOf('\n## Layers and the import rule'));
  const rows: LayerRow[] = [];
  let inTable = false;
  for (const line of section.split('\n')) {
    if (line.startsWith('| layer | folders |')) inTable = true;
    else if (inTable && !line.startsWith('|')) break;
    else if (inTable && !line.startsWith('|---')) {
      const [layer = '', folders = '', holds = ''] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
      rows.push({ layer, paths: [...folders.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), holds });
    }
  }
  return rows;
}

/** What the layout holds: the folders and files directly under src/ and tools/, and the activity modules. */
interface Tree {
  entries: string[];
  activityModules: string[];
}

function tree(): Tree {
  const under = (folder: string) =>
    readdirSync(folder, { withFileTypes: true }).map((e) => `${folder}/${e.name}${e.isDirectory() ? '/' : ''}`);
  return {
    entries: [...under('src'), ...under('tools')].filter((path) => path.endsWith('/') || path.endsWith('.ts')),
    activityModules: readdirSync('activities').filter((name) => name.endsWith('.ts')),
  };
}

/** The import rule's layers: each layer rule's name and the paths it holds. */
function cruiserLayers(): Map<string, RegExp> {
  const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
    forbidden: { name: string; from: { path?: string } }[];
  };
  return new Map(
    config.forbidden
      .filter((rule) => rule.name.startsWith('layer-'))
      .map((rule) => [rule.name.slice('layer-'.length), new RegExp(rule.from.path ?? '$^')]),
  );
}

/** Everything that keeps the table from describing the tree and the import rule, one sentence each. */
function layoutProblems(rows: LayerRow[], t: Tree, layers: Map<string, RegExp>): string[] {
  const problems: string[] = [];
  const named = rows.flatMap((row) => row.paths);
  for (const entry of t.entries) {
    const times = named.filter((path) => path === entry).length;
    if (times !== 1) problems.push(`${entry} is named ${times} times in ${ARCHITECTURE}'s layer table, not once`);
  }
  const layerOfRow = new Map<string, string>();
  for (const row of rows.filter((r) => r.layer !== 'tests')) {
    // A module inside a folder stands for the folder: the import rule's paths match modules.
    const found = new Set(
      row.paths.map(
        (path) =>
          [...layers].find(([, pattern]) => pattern.test(path.endsWith('/') ? `${path}module.ts` : path))?.[0] ??
          `no layer (${path})`,
      ),
    );
    if (found.size !== 1)
      problems.push(
        `the table's ${row.layer} row holds folders of ${[...found].join(', ')} in .dependency-cruiser.cjs`,
      );
    layerOfRow.set(row.layer, [...found][0]!);
  }
  for (const layer of layers.keys()) {
    const rowsOfLayer = [...layerOfRow].filter(([, l]) => l === layer).map(([row]) => row);
    if (rowsOfLayer.length !== 1)
      problems.push(
        `.dependency-cruiser.cjs's layer ${layer} is ${rowsOfLayer.length === 0 ? 'no row' : `the rows ${rowsOfLayer.join(', ')}`} of the table, not one`,
      );
  }
  const activities = rows.find((row) => row.layer === 'activities');
  for (const module of t.activityModules) {
    if (!activities?.holds.includes(`\`${module}\``))
      problems.push(`activities/${module} is not named in the table's activities row`);
  }
  return problems;
}

describe(`the layout: ${ARCHITECTURE}'s layer table and the tree`, () => {
  const rows = layerTable(readFileSync(ARCHITECTURE, 'utf8'));

  it('names every folder under src/ and tools/ once, in the row of its layer in the import rule, and every activity module', () => {
    assert.deepEqual(layoutProblems(rows, tree(), cruiserLayers()), []);
  });

  it('names the folder a table without its row leaves out', () => {
    const withoutBankSim = rows.filter((row) => !row.paths.includes('src/bank-sim/'));
    assert.equal(withoutBankSim.length, rows.length - 1);
    const problems = layoutProblems(withoutBankSim, tree(), cruiserLayers());
    assert.ok(
      problems.some((p) => p.startsWith('src/bank-sim/ is named 0 times')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith(".dependency-cruiser.cjs's layer bankSim is no row")),
      problems.join('\n'),
    );
  });

  it('names a folder put in another layer than the import rule puts it', () => {
    const moved = rows.map((row) =>
      row.layer === 'services'
        ? { ...row, paths: [...row.paths, 'src/bank-sim/'] }
        : { ...row, paths: row.paths.filter((p) => p !== 'src/bank-sim/') },
    );
    const problems = layoutProblems(moved, tree(), cruiserLayers());
    assert.ok(
      problems.some((p) => p.startsWith("the table's services row holds folders of services, bankSim")),
      problems.join('\n'),
    );
  });
});
