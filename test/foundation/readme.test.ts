import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { configurationTable } from '../../tools/generate/config-table.ts';

describe('README and docs/CONFIGURATION.md', () => {
  const readme = readFileSync('README.md', 'utf8');
  const configuration = readFileSync('docs/CONFIGURATION.md', 'utf8');

  it('docs/CONFIGURATION.md lists exactly the configuration the code reads (regenerate with npm run --silent readme:config)', () => {
    const table = /<!-- config:start -->\n([\s\S]*?)\n<!-- config:end -->/.exec(configuration)?.[1];
    assert.equal(table, configurationTable());
  });

  it('README points to docs/CONFIGURATION.md', () => {
    assert.match(readme, /\]\(docs\/CONFIGURATION\.md\)/);
  });

  it('gives the two commands', () => {
    assert.match(readme, /npm start/);
    assert.match(readme, /npm test/);
  });
});
