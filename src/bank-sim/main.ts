/**
 * `npm run bank-sim`: the bank simulator on its own port (docs/BANK.md), speaking one PSP's protocol.
 *   BANK_SIM_PROTOCOL: the PSP's name, one of protocols.ts's table (sep, the default; mellat: Behpardakht
 *   Mellat's IPG, docs/psps/mellat.md; …). Each protocol has its defaults (its PSP's profile's simulator):
 *   BANK_SIM_PORT (sep 3100, mellat 3101, …), BANK_SIM_HOST (127.0.0.1), BANK_SIM_STATE_FILE
 *   (.data/bank-sim-<psp>.jsonl), BANK_SIM_TERMINAL_ID (sep 11223344,
 *   mellat 55667788, …), BANK_SIM_PASSWORD (none), and BANK_SIM_<suffix> for each of the protocol's own
 *   settings (mellat: BANK_SIM_USERNAME, the terminal's user name, dargah), SANDBOX_DELAY_SECONDS (10),
 *   BANK_SIM_AUTO_REVERSE_SECONDS (paid but never confirmed → reversed by the bank; 0 = never: the PSP's own,
 *   SEP's 1800, Behpardakht's 1200), BANK_SIM_AUTO_SETTLE_SECONDS (mellat: verified but never settled →
 *   settled by the bank, 10800, Behpardakht's 180 minutes; 0 = never),
 *   BANK_SIM_REDIRECT_ORIGINS (the gateway's origins a RedirectUrl may have; `http://host:*` for any port;
 *   default http://localhost:3000,http://127.0.0.1:3000), BANK_SIM_ADMIN_TOKEN (none: no admin endpoints).
 * BANK_SIM_PROTOCOL=jibit-identity runs the identity provider's simulator instead (jibit-identity.ts,
 * docs/identity.md): BANK_SIM_PORT (3120), BANK_SIM_HOST, BANK_SIM_API_KEY and BANK_SIM_SECRET_KEY (the
 * keys it takes: the gateway's SANDBOX_IDENTITY_API_KEY and SANDBOX_IDENTITY_SECRET_KEY), BANK_SIM_ADMIN_TOKEN.
 */
import { join } from 'node:path';
import { SIMULATOR_PROTOCOLS, simulatorProtocol } from './protocols.ts';
import { createSimulator } from './server.ts';
import { createIdentitySimulator, JIBIT_IDENTITY_DEFAULTS, JIBIT_IDENTITY_PROTOCOL } from './jibit-identity.ts';

const env = process.env;
const name = env.BANK_SIM_PROTOCOL === undefined || env.BANK_SIM_PROTOCOL === '' ? 'sep' : env.BANK_SIM_PROTOCOL;
if (name === JIBIT_IDENTITY_PROTOCOL) runIdentitySimulator();
else runPspSimulator();

/** The identity provider's simulator, on its own port. */
function runIdentitySimulator(): void {
  const port = Number(env.BANK_SIM_PORT ?? JIBIT_IDENTITY_DEFAULTS.port);
  const host = env.BANK_SIM_HOST ?? '127.0.0.1';
  const { server } = createIdentitySimulator({
    apiKey: env.BANK_SIM_API_KEY ?? JIBIT_IDENTITY_DEFAULTS.apiKey,
    secretKey: env.BANK_SIM_SECRET_KEY ?? JIBIT_IDENTITY_DEFAULTS.secretKey,
    adminToken: env.BANK_SIM_ADMIN_TOKEN ?? '',
  });
  server.listen(port, host, () => {
    process.stdout.write(`Identity provider simulator (jibit-identity) listening on http://${host}:${port}/ide\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function runPspSimulator(): void {
  const protocol = simulatorProtocol(name);
  if (protocol === undefined) {
    process.stderr.write(
      `BANK_SIM_PROTOCOL must be one of ${[...Object.keys(SIMULATOR_PROTOCOLS), JIBIT_IDENTITY_PROTOCOL].join(', ')}, got "${name}"\n`,
    );
    process.exit(1);
  }
  const { defaults } = protocol;
  const settings: Record<string, string> = Object.fromEntries([
    ...Object.entries(defaults.settings).map(([suffix, fallback]): [string, string] => [
      suffix,
      env[`BANK_SIM_${suffix}`] ?? fallback,
    ]),
    ...(defaults.secretSettings ?? []).map((suffix): [string, string] => [suffix, env[`BANK_SIM_${suffix}`] ?? '']),
  ]);
  const port = Number(env.BANK_SIM_PORT ?? defaults.port);
  const host = env.BANK_SIM_HOST ?? '127.0.0.1';
  const { server } = createSimulator({
    protocol: protocol.name,
    stateFile: env.BANK_SIM_STATE_FILE ?? join(process.cwd(), '.data', `bank-sim-${protocol.name}.jsonl`),
    terminalId: env.BANK_SIM_TERMINAL_ID ?? defaults.terminalId,
    userName: settings.USERNAME ?? '',
    password: env.BANK_SIM_PASSWORD ?? '',
    settings,
    delaySeconds: Number(env.SANDBOX_DELAY_SECONDS ?? 10),
    autoReverseSeconds: Number(env.BANK_SIM_AUTO_REVERSE_SECONDS ?? defaults.autoReverseSeconds),
    autoSettleSeconds: Number(env.BANK_SIM_AUTO_SETTLE_SECONDS ?? 10_800),
    adminToken: env.BANK_SIM_ADMIN_TOKEN ?? '',
    redirectOrigins: (env.BANK_SIM_REDIRECT_ORIGINS ?? 'http://localhost:3000,http://127.0.0.1:3000')
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== ''),
  });
  server.listen(port, host, () => {
    process.stdout.write(`Bank simulator (${protocol.name}: ${protocol.title}) listening on http://${host}:${port}\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
