/**
 * Entry of `npm run bench` (launch.mjs runs it once the dependencies are
 * installed): the bootstrap's stack on its own ports, database and SQLite
 * file, then the measurements of tools/bench/main.ts.
 */
import { runCommand, shutdown, stackPieces } from '../launcher/stack.ts';
import { runBenchStack } from './main.ts';

await runCommand({
  bench: async (args) => {
    await shutdown(await runBenchStack(args, stackPieces));
  },
});
