/**
 * The direct debit provider's simulator of the local stacks (`npm start`, `npm test`): ZarinPal
 * Payman's (src/direct-debit/providers/zarinpal/simulator-main.ts, docs/psps/zarinpal-payman.md) on its
 * own port beside the PSPs' simulators, its state in .data; the gateway's test mode is pointed at it by
 * SANDBOX_PAYMAN_URL and sends the merchant id it takes.
 */
import { join } from 'node:path';
import { ZARINPAL_PAYMAN_PROFILE } from '../../src/direct-debit/providers/zarinpal/profile.ts';

export interface DirectDebitSimulator {
  name: string;
  title: string;
  port: number;
  url: string;
  script: string;
  simulatorEnv: Record<string, string>;
  gatewayEnv: Record<string, string>;
}

/** The launcher's setting of its port in `npm start` (3130 by default, test mode's default SANDBOX_PAYMAN_URL). */
export const DIRECT_DEBIT_SIMULATOR_PORT_SETTING = 'BANK_SIM_PAYMAN_PORT';
export const DIRECT_DEBIT_SIMULATOR_DEFAULT_PORT: number = ZARINPAL_PAYMAN_PROFILE.simulator.port;

export function directDebitSimulator(port: number, dataDir: string, stateName: string): DirectDebitSimulator {
  const url = `http://127.0.0.1:${port}`;
  const merchantId = ZARINPAL_PAYMAN_PROFILE.simulator.merchantId;
  return {
    name: 'direct debit simulator',
    title: ZARINPAL_PAYMAN_PROFILE.title,
    port,
    url,
    script: 'src/direct-debit/providers/zarinpal/simulator-main.ts',
    simulatorEnv: {
      BANK_SIM_PORT: String(port),
      BANK_SIM_MERCHANT_ID: merchantId,
      BANK_SIM_STATE_FILE: join(dataDir, `${stateName}.json`),
    },
    gatewayEnv: { SANDBOX_PAYMAN_URL: url, SANDBOX_PAYMAN_MERCHANT_ID: merchantId },
  };
}
