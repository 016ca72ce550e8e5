/**
 * The identity provider's simulator of the local stacks (`npm start`, `npm test`): `npm run bank-sim`
 * with BANK_SIM_PROTOCOL=jibit-identity (src/bank-sim/jibit-identity.ts, docs/identity.md) on its own
 * port, beside the PSPs' simulators; the gateway is pointed at it by SANDBOX_IDENTITY_URL and given
 * the keys it takes (SANDBOX_IDENTITY_API_KEY, SANDBOX_IDENTITY_SECRET_KEY), which the simulator gets
 * as BANK_SIM_API_KEY and BANK_SIM_SECRET_KEY.
 */
import { randomBytes } from 'node:crypto';
import {
  JIBIT_IDENTITY_DEFAULTS,
  JIBIT_IDENTITY_PREFIX,
  JIBIT_IDENTITY_PROTOCOL,
} from '../../src/bank-sim/jibit-identity.ts';

export interface IdentitySimulator {
  /** The supervisor's and the logs' name for its process. */
  name: string;
  title: string;
  port: number;
  /** Its address (without the /ide of the gateway's setting): /healthz answers there. */
  url: string;
  simulatorEnv: Record<string, string>;
  gatewayEnv: Record<string, string>;
}

/** The launcher's setting of its port in `npm start` (3120 by default, test mode's default SANDBOX_IDENTITY_URL). */
export const IDENTITY_SIMULATOR_PORT_SETTING = 'BANK_SIM_IDENTITY_PORT';
export const IDENTITY_SIMULATOR_DEFAULT_PORT: number = JIBIT_IDENTITY_DEFAULTS.port;

export function identitySimulator(port: number, apiKey: string, secretKey: string): IdentitySimulator {
  const url = `http://127.0.0.1:${port}`;
  return {
    name: 'identity provider simulator',
    title: "Jibit's identity service (card to IBAN, IBAN owner)",
    port,
    url,
    simulatorEnv: {
      BANK_SIM_PROTOCOL: JIBIT_IDENTITY_PROTOCOL,
      BANK_SIM_PORT: String(port),
      BANK_SIM_API_KEY: apiKey,
      BANK_SIM_SECRET_KEY: secretKey,
    },
    gatewayEnv: {
      SANDBOX_IDENTITY_URL: `${url}${JIBIT_IDENTITY_PREFIX}`,
      SANDBOX_IDENTITY_API_KEY: apiKey,
      SANDBOX_IDENTITY_SECRET_KEY: secretKey,
    },
  };
}

/** `npm start`'s: the keys the environment gives the gateway's test mode (their defaults otherwise). */
export function startIdentitySimulator(env: NodeJS.ProcessEnv, port: number): IdentitySimulator {
  return identitySimulator(
    port,
    env.SANDBOX_IDENTITY_API_KEY || JIBIT_IDENTITY_DEFAULTS.apiKey,
    env.SANDBOX_IDENTITY_SECRET_KEY || JIBIT_IDENTITY_DEFAULTS.secretKey,
  );
}

/** The test suites': on a free port, its secret key a random value, so the tests see it checked. */
export function suiteIdentitySimulator(port: number): IdentitySimulator {
  return identitySimulator(port, JIBIT_IDENTITY_DEFAULTS.apiKey, randomBytes(24).toString('base64url'));
}
