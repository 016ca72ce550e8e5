/**
 * `npm run bank-sim`: the bank simulator on its own port (docs/BANK.md).
 *   BANK_SIM_PORT (3100), BANK_SIM_HOST (127.0.0.1), BANK_SIM_STATE_FILE (.data/bank-sim.jsonl),
 *   BANK_SIM_TERMINAL_ID (11223344), BANK_SIM_PASSWORD (none), SANDBOX_DELAY_SECONDS (10),
 *   BANK_SIM_AUTO_REVERSE_SECONDS (1800: paid but never confirmed → reversed by the bank; 0 = never).
 */
import { join } from 'node:path';
import { createSimulator } from './server.ts';

const env = process.env;
const port = Number(env.BANK_SIM_PORT ?? 3100);
const host = env.BANK_SIM_HOST ?? '127.0.0.1';
const { server } = createSimulator({
  stateFile: env.BANK_SIM_STATE_FILE ?? join(process.cwd(), '.data', 'bank-sim.jsonl'),
  terminalId: env.BANK_SIM_TERMINAL_ID ?? '11223344',
  password: env.BANK_SIM_PASSWORD ?? '',
  delaySeconds: Number(env.SANDBOX_DELAY_SECONDS ?? 10),
  autoReverseSeconds: Number(env.BANK_SIM_AUTO_REVERSE_SECONDS ?? 1800),
});
server.listen(port, host, () => {
  process.stdout.write(`Bank simulator listening on http://${host}:${port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
