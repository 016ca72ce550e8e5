import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { configurationTable } from '../../src/config.ts';

describe('README', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('lists exactly the configuration the code reads (regenerate with npm run --silent readme:config)', () => {
    const table = /<!-- config:start -->\n([\s\S]*?)\n<!-- config:end -->/.exec(readme)?.[1];
    assert.equal(table, configurationTable());
  });

  it('gives the two commands', () => {
    assert.match(readme, /npm start/);
    assert.match(readme, /npm test/);
  });
});
