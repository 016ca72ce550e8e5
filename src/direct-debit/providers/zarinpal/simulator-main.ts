/**
 * `node src/direct-debit/providers/zarinpal/simulator-main.ts`: test mode's ZarinPal Payman
 * on its own port (docs/psps/zarinpal-payman.md#the-simulator); `npm start` and `npm test` start it.
 *   BANK_SIM_PORT (3130), BANK_SIM_HOST (127.0.0.1), BANK_SIM_STATE_FILE (.data/payman-sim.json),
 *   BANK_SIM_MERCHANT_ID (the profile's test merchant id), BANK_SIM_REDIRECT_ORIGINS (the origins a
 *   contract's callback may have; `http://host:*` for any port), BANK_SIM_ADMIN_TOKEN (none: no fault switches).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ZARINPAL_PAYMAN_PROFILE } from './profile.ts';
import { createPaymanSimulator } from './simulator.ts';

const env = process.env;
const port = Number(env.BANK_SIM_PORT ?? ZARINPAL_PAYMAN_PROFILE.simulator.port);
const host = env.BANK_SIM_HOST ?? '127.0.0.1';
const stateFile = env.BANK_SIM_STATE_FILE ?? join(process.cwd(), '.data', 'payman-sim.json');
mkdirSync(dirname(stateFile), { recursive: true });
const { server } = createPaymanSimulator({
  merchantId: env.BANK_SIM_MERCHANT_ID ?? ZARINPAL_PAYMAN_PROFILE.simulator.merchantId,
  redirectOrigins: (env.BANK_SIM_REDIRECT_ORIGINS ?? 'http://localhost:3000,http://127.0.0.1:3000')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== ''),
  adminToken: env.BANK_SIM_ADMIN_TOKEN ?? '',
  stateFile,
});
server.listen(port, host, () => {
  process.stdout.write(
    `Direct debit simulator (${ZARINPAL_PAYMAN_PROFILE.title}) listening on http://${host}:${port}\n`,
  );
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
