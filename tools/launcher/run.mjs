// Entry of the npm scripts that run one TypeScript program of this project
// (`npm run cli`, `npm run migrate`, `npm run openapi`…): `node tools/launcher/run.mjs <script> [args]`.
// Node 24 runs TypeScript itself (it strips the types as it loads a file: the
// sources use only syntax that erases, which `erasableSyntaxOnly` in tsconfig.json
// holds them to), so on Node 24 or newer the script is imported here, in this
// process. On an older node the pinned Node 24 from the cache runs it instead
// (node-runtime.mjs, installed there first if missing), with the same arguments.
import { spawn } from 'node:child_process';
import module from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  compileCacheDir,
  environmentFor,
  majorOf,
  NODE_MAJOR,
  NodeRuntimeError,
  provideNode,
} from './node-runtime.mjs';

const [script, ...args] = process.argv.slice(2);
if (script === undefined) {
  process.stderr.write('usage: node tools/launcher/run.mjs <script.ts> [arguments]\n');
  process.exit(2);
}

if (majorOf(process.version) >= NODE_MAJOR) {
  // The compile cache for this process and every Node process it starts (node-runtime.mjs says why).
  process.env.NODE_COMPILE_CACHE = compileCacheDir();
  module.enableCompileCache(process.env.NODE_COMPILE_CACHE);
  process.argv = [process.argv[0], resolve(script), ...args];
  await import(pathToFileURL(resolve(script)).href);
} else {
  let node;
  try {
    // Only an install is worth a word: the script's own output stays the script's.
    node = provideNode((line) => line.startsWith('Running on') || process.stderr.write(`${line}\n`));
  } catch (error) {
    process.stderr.write(`${error instanceof NodeRuntimeError ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const child = spawn(node, [script, ...args], { stdio: 'inherit', env: environmentFor(node) });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 130)));
}
