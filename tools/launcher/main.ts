/**
 * Entry of `npm start`, `npm test`, `npm run test:faults`, `npm run test:cluster` and `npm run test:image` (launch.mjs runs
 * it once the dependencies are installed), and of `npm run test:unit` (run.mjs runs it: the unit tier needs no
 * service but the Temporal CLI, which it builds on a first run).
 */
import { existsSync } from 'node:fs';
import { start } from './commands.ts';
import { test, unit } from './test-command.ts';
import { runCommand } from './stack.ts';

// The image suite (buildah and podman) joins a whole `npm test` where buildah is installed;
// `npm run test:image` installs it with apt-get when missing.
const imageSuite = existsSync('/usr/bin/buildah') ? (['image'] as const) : [];

await runCommand({
  start: () => start(),
  test: (args) => test(args, ['main', 'faults', 'cluster', ...imageSuite]),
  faults: (args) => test(args, ['faults']),
  cluster: (args) => test(args, ['cluster']),
  image: (args) => test(args, ['image']),
  unit: (args) => unit(args),
});
