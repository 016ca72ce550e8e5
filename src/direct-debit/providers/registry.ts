/**
 * The direct debit providers of each mode, from the configuration (docs/SUBSCRIPTIONS.md#providers).
 * One provider today, ZarinPal's Payman; a mode without its address has no direct debit, and a
 * mandate asked there is refused with `direct_debit_not_configured`.
 */
import type { Config } from '../../config.ts';
import type { DirectDebitProvider } from './contract.ts';
import { ZarinpalPaymanClient } from './zarinpal/client.ts';

export type DirectDebitMode = 'test' | 'live';
export type DirectDebitProviders = Partial<Record<DirectDebitMode, DirectDebitProvider>>;

export const DIRECT_DEBIT_PROVIDER_NAMES = ['zarinpal'] as const;
export type DirectDebitProviderName = (typeof DIRECT_DEBIT_PROVIDER_NAMES)[number];

type ProviderSettings = Pick<
  Config,
  | 'PAYMAN_BASE_URL'
  | 'PAYMAN_PAGE_URL'
  | 'PAYMAN_MERCHANT_ID'
  | 'SANDBOX_PAYMAN_URL'
  | 'SANDBOX_PAYMAN_MERCHANT_ID'
  | 'DIRECT_DEBIT_TIMEOUT_MS'
>;

export function directDebitProviders(config: ProviderSettings): DirectDebitProviders {
  const providers: DirectDebitProviders = {};
  if (config.SANDBOX_PAYMAN_URL !== '')
    providers.test = new ZarinpalPaymanClient({
      baseUrl: config.SANDBOX_PAYMAN_URL.replace(/\/$/, ''),
      merchantId: config.SANDBOX_PAYMAN_MERCHANT_ID,
      timeoutMs: config.DIRECT_DEBIT_TIMEOUT_MS,
    });
  if (config.PAYMAN_BASE_URL !== '' && config.PAYMAN_MERCHANT_ID !== '')
    providers.live = new ZarinpalPaymanClient({
      baseUrl: config.PAYMAN_BASE_URL.replace(/\/$/, ''),
      pageBaseUrl: config.PAYMAN_PAGE_URL.replace(/\/$/, ''),
      merchantId: config.PAYMAN_MERCHANT_ID,
      timeoutMs: config.DIRECT_DEBIT_TIMEOUT_MS,
    });
  return providers;
}
