/**
 * `npm run bank-sim`: the bank simulator on its own port (docs/BANK.md), speaking one PSP's protocol.
 *   BANK_SIM_PROTOCOL (sep; mellat: Behpardakht Mellat's IPG, docs/psps/mellat.md; sadad: Bank Melli's, docs/psps/sadad.md),
 *   BANK_SIM_PORT (3100; mellat 3101; sadad 3103), BANK_SIM_HOST (127.0.0.1), BANK_SIM_STATE_FILE (.data/bank-sim.jsonl;
 *   mellat .data/bank-sim-mellat.jsonl; sadad .data/bank-sim-sadad.jsonl), BANK_SIM_TERMINAL_ID (11223344; mellat 55667788;
 *   sadad 24000615), BANK_SIM_MERCHANT_ID and BANK_SIM_TERMINAL_KEY (sadad: 000000140000001 and the test key below),
 *   BANK_SIM_USERNAME (mellat: the terminal's user name, dargah), BANK_SIM_PASSWORD (none), SANDBOX_DELAY_SECONDS (10),
 *   BANK_SIM_AUTO_REVERSE_SECONDS (paid but never confirmed → reversed by the bank; 0 = never: 1800, SEP's 30 minutes;
 *   mellat 1200, Behpardakht's 20; sadad 900, Sadad's 15), BANK_SIM_AUTO_SETTLE_SECONDS (mellat: verified but never settled → settled by the
 *   bank, 10800, Behpardakht's 180 minutes; 0 = never),
 *   BANK_SIM_REDIRECT_ORIGINS (the gateway's origins a RedirectUrl may have; `http://host:*` for any port;
 *   default http://localhost:3000,http://127.0.0.1:3000), BANK_SIM_ADMIN_TOKEN (none: no admin endpoints).
 */
import { join } from 'node:path';
import { createSimulator } from './server.ts';

const env = process.env;
const protocol = env.BANK_SIM_PROTOCOL === undefined || env.BANK_SIM_PROTOCOL === '' ? 'sep' : env.BANK_SIM_PROTOCOL;
if (protocol !== 'sep' && protocol !== 'mellat' && protocol !== 'sadad') {
  process.stderr.write(`BANK_SIM_PROTOCOL must be sep, mellat or sadad, got "${protocol}"\n`);
  process.exit(1);
}
const mellat = protocol === 'mellat';
const sadad = protocol === 'sadad';
const port = Number(env.BANK_SIM_PORT ?? (mellat ? 3101 : sadad ? 3103 : 3100));
const host = env.BANK_SIM_HOST ?? '127.0.0.1';
const { server } = createSimulator({
  protocol,
  stateFile: env.BANK_SIM_STATE_FILE ?? join(process.cwd(), '.data', mellat ? 'bank-sim-mellat.jsonl' : sadad ? 'bank-sim-sadad.jsonl' : 'bank-sim.jsonl'),
  terminalId: env.BANK_SIM_TERMINAL_ID ?? (mellat ? '55667788' : sadad ? '24000615' : '11223344'),
  userName: env.BANK_SIM_USERNAME ?? 'dargah',
  password: env.BANK_SIM_PASSWORD ?? '',
  merchantId: env.BANK_SIM_MERCHANT_ID ?? '000000140000001',
  // Base64 of "DARGAH-TEST-KEY-NOT-REAL": a test key and nothing else.
  terminalKey: env.BANK_SIM_TERMINAL_KEY ?? 'REFSR0FILVRFU1QtS0VZLU5PVC1SRUFM',
  delaySeconds: Number(env.SANDBOX_DELAY_SECONDS ?? 10),
  autoReverseSeconds: Number(env.BANK_SIM_AUTO_REVERSE_SECONDS ?? (mellat ? 1200 : sadad ? 900 : 1800)),
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
