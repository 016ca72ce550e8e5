/**
 * `npm run test:weights`: copies the measured seconds per file, from the last whole run's reporter tables
 * (test-artifacts/file-times.main.json, test-artifacts/shard-n/file-times.main.json and the unit tier's
 * test-artifacts/unit/shard-n/file-times.unit.json, which git ignores), into test/support/file-weights.json,
 * which the launcher reads to split the main suite and the unit tier into processes of about equal time
 * (tools/launcher/shards.ts). Run on purpose after a whole
 * `npm test` on the machine whose times should decide the split: a test run changes no tracked file.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEIGHTS_FILE } from '../launcher/shards.ts';

const artifacts = process.env.TEST_ARTIFACTS ?? 'test-artifacts';
const shardsIn = (folder: string, table: string) =>
  (existsSync(folder) ? readdirSync(folder) : [])
    .filter((name) => /^shard-\d+$/.test(name))
    .map((name) => join(folder, name, table));
const tables = [
  join(artifacts, 'file-times.main.json'),
  ...shardsIn(artifacts, 'file-times.main.json'),
  // The unit tier's processes (tools/launcher/suites.ts) are split by the same table.
  ...shardsIn(join(artifacts, 'unit'), 'file-times.unit.json'),
].filter((file) => existsSync(file));
if (tables.length === 0) {
  process.stderr.write(`No per-file times in ${artifacts}: run the main suite first (npm test).\n`);
  process.exit(1);
}
const seconds: Record<string, number> = {};
for (const table of tables)
  for (const [file, ms] of Object.entries(JSON.parse(readFileSync(table, 'utf8')) as Record<string, number>))
    if (file.endsWith('.test.ts')) seconds[file] = Math.round(ms / 100) / 10;
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(WEIGHTS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(`Wrote ${WEIGHTS_FILE}: ${Object.keys(sorted).length} files from ${tables.length} table(s).\n`);
