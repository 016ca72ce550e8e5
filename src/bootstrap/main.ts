/**
 * Entry of `npm start`, `npm test` and `npm run test:faults` (launch.mjs runs
 * it once the dependencies are installed).
 */
import { runCommand, start, test } from './stack.ts';

await runCommand({
  start: () => start(),
  test: (args) => test(args, ['main', 'faults']),
  faults: (args) => test(args, ['faults']),
});
