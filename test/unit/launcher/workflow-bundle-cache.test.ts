import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedWorkflowBundle, workflowSourcesKey } from '../../../src/main/workflow-bundle-cache.ts';

describe('the workflow bundle kept between worker starts', () => {
  let dir = '';
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'bundle-cache-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const maker = () => {
    let calls = 0;
    return {
      bundle: async () => ({ code: `// bundle ${++calls}`, sourceMap: '{}' }),
      get calls() {
        return calls;
      },
    };
  };

  it('bundles once for the same sources, then answers the kept bundle', async () => {
    const m = maker();
    const first = await cachedWorkflowBundle(false, m.bundle, dir);
    const second = await cachedWorkflowBundle(false, m.bundle, dir);
    assert.equal(m.calls, 1);
    assert.deepEqual(second, first);
  });

  it('keeps a bundle of each tracing flavour, and only those of the current sources', async () => {
    assert.notEqual(workflowSourcesKey(true), workflowSourcesKey(false));
    writeFileSync(join(dir, 'workflow-bundle-plain-0000.json'), '{"code":"old","sourceMap":"{}"}');
    const m = maker();
    await cachedWorkflowBundle(true, m.bundle, dir);
    await cachedWorkflowBundle(false, m.bundle, dir);
    await cachedWorkflowBundle(true, m.bundle, dir);
    assert.equal(m.calls, 2);
    assert.deepEqual(readdirSync(dir).sort(), [
      `workflow-bundle-plain-${workflowSourcesKey(false)}.json`,
      `workflow-bundle-tracing-${workflowSourcesKey(true)}.json`,
    ]);
  });

  it('bundles again over a kept file it cannot read', async () => {
    writeFileSync(join(dir, `workflow-bundle-plain-${workflowSourcesKey(false)}.json`), '{"code":');
    const m = maker();
    assert.equal((await cachedWorkflowBundle(false, m.bundle, dir)).code, '// bundle 1');
    assert.equal(m.calls, 1);
  });
});
