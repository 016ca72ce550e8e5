/**
 * Entry of `npm start`, `npm test`, `npm run test:faults` and `npm run test:cluster` (launch.mjs runs
 * it once the dependencies are installed).
 */
import { runCommand, start, test } from './stack.ts';

await runCommand({
  start: () => start(),
  test: (args) => test(args, ['main', 'faults', 'cluster']),
  faults: (args) => test(args, ['faults']),
  cluster: (args) => test(args, ['cluster']),
});
