/**
 * The workflow bundle of the sources, kept on disk between worker starts. A worker run from the
 * sources bundles the workflow code with webpack as it starts (seconds of CPU), and `npm start`,
 * its supervisor's restarts and the test suites start workers again and again on code that has not
 * changed. The key is a hash of everything the bundle is made from: every file under workflows/
 * and src/ (all that workflow code can import), the lockfile (the SDK's workflow runtime, webpack
 * and its loaders) and whether the tracing interceptors are in. Any change makes a new key. A
 * bundle is written under a temporary name and renamed, so a reader never sees half of one.
 * Compiled workers never come here: they load the bundle `npm run build` made.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** npm's conventional place for tools' caches: ignored by git, gone with a fresh `npm ci`. */
export const BUNDLE_CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'dargah');
const PREFIX = 'workflow-bundle-';

/** The hash of the bundle's inputs (see above). */
export function workflowSourcesKey(tracing: boolean): string {
  const hash = createHash('sha256').update(tracing ? 'tracing\n' : 'plain\n');
  const files = ['workflows', 'src'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name)),
  );
  for (const file of [...files.sort(), join(ROOT, 'package-lock.json')])
    hash.update(file.slice(ROOT.length)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 32);
}

/** The bundle for these sources: from the cache (`dir`) when it holds one, else made by `bundle` and kept. */
export async function cachedWorkflowBundle(
  tracing: boolean,
  bundle: () => Promise<WorkflowBundleWithSourceMap>,
  dir = BUNDLE_CACHE_DIR,
): Promise<WorkflowBundleWithSourceMap> {
  // One kept bundle of each flavour: the test harness bundles with tracing, its workers without.
  const flavour = `${PREFIX}${tracing ? 'tracing' : 'plain'}-`;
  const name = `${flavour}${workflowSourcesKey(tracing)}.json`;
  const file = join(dir, name);
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as WorkflowBundleWithSourceMap;
    if (typeof kept.code === 'string' && typeof kept.sourceMap === 'string') return kept;
  } catch {
    // Not made yet (or unreadable): made below.
  }
  const made = await bundle();
  try {
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify({ code: made.code, sourceMap: made.sourceMap }));
    renameSync(partial, file);
    // This flavour's bundles of earlier sources are never read again.
    for (const other of readdirSync(dir))
      if (other.startsWith(flavour) && other !== name && !other.endsWith('.partial'))
        rmSync(join(dir, other), { force: true });
  } catch {
    // A read-only checkout: the next start bundles again, as it did before there was a cache.
  }
  return made;
}
