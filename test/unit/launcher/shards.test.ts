/**
 * How `npm test` splits the main suite into shards (tools/launcher/shards.ts): every file in exactly
 * one shard, the shards' measured times close to each other, and the same split from run to run.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { globPattern, readWeights, splitByWeight, suiteFiles } from '../../../tools/launcher/shards.ts';

describe('the main suite in shards', () => {
  const files = suiteFiles('.', join('test', '.mocharc.json'));

  it('finds the main suite as mocha does: test/**/*.test.ts but the folders the configuration ignores', () => {
    assert.ok(files.length > 50, `${files.length} files`);
    assert.ok(files.includes('test/payments/lifecycle.test.ts'));
    for (const ignored of ['test/unit/', 'test/workflows/', 'test/faults/', 'test/cluster/', 'test/image/'])
      assert.ok(!files.some((f) => f.startsWith(ignored)), `nothing of ${ignored}`);
    assert.ok(files.includes('test/psps/sep/corpus-e2e.test.ts'), "a PSP's main-suite tests");
    assert.ok(!files.some((f) => /^test\/psps\/[^/]+\/unit\//.test(f)), "none of a PSP's unit-tier tests");
  });

  it('reads globs as mocha does', () => {
    assert.ok(globPattern('test/**/*.test.ts').test('test/a.test.ts'));
    assert.ok(globPattern('test/**/*.test.ts').test('test/a/b/c.test.ts'));
    assert.ok(!globPattern('test/**/*.test.ts').test('test/a/b/c.ts'));
    assert.ok(globPattern('test/psps/*/unit/**').test('test/psps/sep/unit/x.test.ts'));
    assert.ok(!globPattern('test/psps/*/unit/**').test('test/psps/sep/corpus-e2e.test.ts'));
    assert.ok(!globPattern('test/psps/*/unit/*.test.ts').test('test/psps/sep/x/unit/y.test.ts'));
    assert.ok(!globPattern('test/a.b/*.ts').test('test/aXb/c.ts'), 'a dot is a dot');
  });

  it('finds the unit tier the same way, with its PSP folders', () => {
    const unit = suiteFiles('.', join('test', 'unit', '.mocharc.json'));
    assert.ok(unit.some((f) => f.startsWith('test/workflows/')));
    assert.ok(unit.some((f) => /^test\/psps\/[^/]+\/unit\//.test(f)));
    assert.ok(!unit.some((f) => unit.includes(f) && files.includes(f)), 'no file in both');
  });

  it('puts every file in exactly one shard, each shard in alphabetical order', () => {
    const groups = splitByWeight(files, readWeights('.'), 3);
    assert.deepEqual([...groups.flat()].sort(), files);
    for (const group of groups) assert.deepEqual(group, [...group].sort());
  });

  it('balances the weights: heaviest first, each to the lightest shard', () => {
    const weights = { 'a.test.ts': 10, 'b.test.ts': 7, 'c.test.ts': 5, 'd.test.ts': 4, 'e.test.ts': 2 };
    const groups = splitByWeight(Object.keys(weights), weights, 2);
    const sums = groups.map((g) => g.reduce((sum, f) => sum + weights[f as keyof typeof weights], 0));
    assert.deepEqual(sums, [14, 14]);
    assert.deepEqual(groups, [
      ['a.test.ts', 'd.test.ts'],
      ['b.test.ts', 'c.test.ts', 'e.test.ts'],
    ]);
  });

  it('counts a file the table does not know as the median of those it does', () => {
    const groups = splitByWeight(
      ['new.test.ts', 'x.test.ts', 'y.test.ts', 'z.test.ts'],
      { 'x.test.ts': 1, 'y.test.ts': 3, 'z.test.ts': 9 },
      2,
    );
    assert.deepEqual(groups, [['z.test.ts'], ['new.test.ts', 'x.test.ts', 'y.test.ts']]);
  });
});
