/**
 * The PSP blocks of docker-compose.yml, .env.example, the Helm chart and docs/psps/README.md are what
 * `npm run generate:psps` writes from the registry of profiles (tools/generate/psps.ts): a PSP added
 * to the registry without regenerating them, or a hand edit inside a block, fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GENERATED_BLOCKS, generatedFiles, replaceBlock, stalePspFiles } from '../../../tools/generate/psps.ts';
import { PSP_NAMES, pspSettings } from '../../../src/psps/profiles.ts';

describe('the PSP blocks generated from the registry (npm run generate:psps)', () => {
  it('are committed as the registry gives them', () => {
    assert.deepEqual(stalePspFiles('.'), [], 'run npm run generate:psps and commit what it writes');
  });

  it('name every PSP of the registry in every file it writes to, and every secret setting only where secrets go', () => {
    const files = generatedFiles('.');
    for (const psp of PSP_NAMES) {
      assert.match(
        files['docker-compose.yml']!,
        new RegExp(`^  bank-sim-${psp}:$`, 'm'),
        `compose runs ${psp}'s simulator`,
      );
      assert.match(
        files['deploy/helm/dargah/templates/_helpers.tpl']!,
        new RegExp(`"protocol" "${psp}"`),
        `the chart can run ${psp}'s simulator`,
      );
      assert.match(files['docs/psps/README.md']!, new RegExp(`\\| \`${psp}\` \\|`), `the docs' tables list ${psp}`);
    }
    const values = readFileSync('deploy/helm/dargah/values.yaml', 'utf8');
    const secretsAt = values.indexOf('\nsecrets:');
    for (const setting of pspSettings()) {
      const at = values.indexOf(`  ${setting.name}: `);
      assert.ok(at > 0, `values.yaml has ${setting.name}`);
      assert.equal(
        at > secretsAt,
        setting.secret,
        `${setting.name} is ${setting.secret ? '' : 'not '}under secrets.values`,
      );
    }
  });

  it('refuse a file whose markers are gone, rather than write the block elsewhere', () => {
    assert.throws(
      () => replaceBlock('no markers here\n', 'x.yml', 'psp-volumes', ['a']),
      /markers of the generated block "psp-volumes" are missing/,
    );
    assert.equal(
      replaceBlock('a\n# BEGIN generated: b (x)\nold\n# END generated: b\nz\n', 'x', 'b', ['new', 'lines']),
      'a\n# BEGIN generated: b (x)\nnew\nlines\n# END generated: b\nz\n',
    );
    assert.ok(GENERATED_BLOCKS.length > 0);
  });
});
