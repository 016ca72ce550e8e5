/**
 * `npm run build`: the product as production runs it, in dist/ (the layout of the sources).
 *   1. TypeScript compiled to JavaScript (tsconfig.build.json: imports rewritten from .ts to .js);
 *   2. the files the code reads beside itself (templates, stylesheets, the OpenAPI document) copied;
 *   3. the workflow code bundled ahead of time into dist/workflow-bundle.js, the one file a
 *      compiled worker loads (src/main/payment-worker.ts), with the tracing interceptors in it
 *      (they emit no commands, so it replays what a bundle without them recorded).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflows, PREBUILT_BUNDLE_PATH } from '../../src/main/payment-worker.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Every file under `dir` that the compiler does not produce: what the code reads at run time. */
function assets(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

const started = Date.now();
rmSync(dist, { recursive: true, force: true });
say('Compiling TypeScript into dist/…');
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')],
  { cwd: root, stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(1);
const copied = [...assets('src'), 'openapi/openapi.json'];
for (const file of copied) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  cpSync(join(root, file), join(dist, file));
}
say(`Copied ${copied.length} files the code reads (templates, stylesheets, the OpenAPI document).`);
say('Bundling the workflow code…');
const bundle = await bundleWorkflows({ tracing: true });
// The sources' module computes the path in dist/ as the compiled one will see it.
const target = join(dist, relative(root, PREBUILT_BUNDLE_PATH));
writeFileSync(target, bundle.code);
say(
  `Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s (workflow bundle: ${relative(root, target)}, ${(bundle.code.length / 1e6).toFixed(1)} MB).`,
);
