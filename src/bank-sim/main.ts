/**
 * `npm run bank-sim`: the bank simulator on its own port (docs/BANK.md), speaking one PSP's protocol.
 *   BANK_SIM_PROTOCOL (sep; mellat: Behpardakht Mellat's IPG, docs/psps/mellat.md; parsian: PEC's IPG, docs/psps/parsian.md),
 *   BANK_SIM_PORT (3100; mellat 3101; parsian 3104), BANK_SIM_HOST (127.0.0.1), BANK_SIM_STATE_FILE (.data/bank-sim.jsonl;
 *   mellat .data/bank-sim-mellat.jsonl; parsian .data/bank-sim-parsian.jsonl), BANK_SIM_TERMINAL_ID (11223344; mellat 55667788;
 *   parsian 77889900), BANK_SIM_USERNAME (mellat: the terminal's user name, dargah), BANK_SIM_PASSWORD (none; parsian: the
 *   terminal's PIN, LoginAccount), SANDBOX_DELAY_SECONDS (10),
 *   BANK_SIM_AUTO_REVERSE_SECONDS (paid but never confirmed → reversed by the bank; 0 = never: 1800, SEP's 30 minutes;
 *   mellat 1200, Behpardakht's 20; parsian 1200, assumed), BANK_SIM_AUTO_SETTLE_SECONDS (mellat: verified but never settled → settled by the
 *   bank, 10800, Behpardakht's 180 minutes; 0 = never),
 *   BANK_SIM_REDIRECT_ORIGINS (the gateway's origins a RedirectUrl may have; `http://host:*` for any port;
 *   default http://localhost:3000,http://127.0.0.1:3000), BANK_SIM_ADMIN_TOKEN (none: no admin endpoints).
 */
import { join } from 'node:path';
import { createSimulator } from './server.ts';

const env = process.env;
const protocol = env.BANK_SIM_PROTOCOL === undefined || env.BANK_SIM_PROTOCOL === '' ? 'sep' : env.BANK_SIM_PROTOCOL;
if (protocol !== 'sep' && protocol !== 'mellat' && protocol !== 'parsian') {
  process.stderr.write(`BANK_SIM_PROTOCOL must be sep, mellat or parsian, got "${protocol}"\n`);
  process.exit(1);
}
/** Each protocol's own defaults: its port, state file, terminal and the PSP's own time to give back an unconfirmed payment. */
const DEFAULTS = {
  sep: { port: 3100, stateFile: 'bank-sim.jsonl', terminalId: '11223344', autoReverseSeconds: 1800 },
  mellat: { port: 3101, stateFile: 'bank-sim-mellat.jsonl', terminalId: '55667788', autoReverseSeconds: 1200 },
  parsian: { port: 3104, stateFile: 'bank-sim-parsian.jsonl', terminalId: '77889900', autoReverseSeconds: 1200 },
}[protocol];
const port = Number(env.BANK_SIM_PORT ?? DEFAULTS.port);
const host = env.BANK_SIM_HOST ?? '127.0.0.1';
const { server } = createSimulator({
  protocol,
  stateFile: env.BANK_SIM_STATE_FILE ?? join(process.cwd(), '.data', DEFAULTS.stateFile),
  terminalId: env.BANK_SIM_TERMINAL_ID ?? DEFAULTS.terminalId,
  userName: env.BANK_SIM_USERNAME ?? 'dargah',
  password: env.BANK_SIM_PASSWORD ?? '',
  delaySeconds: Number(env.SANDBOX_DELAY_SECONDS ?? 10),
  autoReverseSeconds: Number(env.BANK_SIM_AUTO_REVERSE_SECONDS ?? DEFAULTS.autoReverseSeconds),
  autoSettleSeconds: Number(env.BANK_SIM_AUTO_SETTLE_SECONDS ?? 10_800),
  adminToken: env.BANK_SIM_ADMIN_TOKEN ?? '',
  redirectOrigins: (env.BANK_SIM_REDIRECT_ORIGINS ?? 'http://localhost:3000,http://127.0.0.1:3000')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== ''),
});
server.listen(port, host, () => {
  process.stdout.write(`Bank simulator (${protocol}) listening on http://${host}:${port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
