/** The PSP clients of each mode, from the configuration (docs/BANK.md#configuration, docs/psps/). */
import type { Config } from '../../config.ts';
import { PSP_NAMES, type PspClient, type PspName } from './psp-client.ts';
import { MellatClient } from './mellat/client.ts';
import { SepClient } from './sep/client.ts';

type BankConfig = Pick<
  Config,
  | 'BANK_BASE_URL'
  | 'BANK_PAGE_URL'
  | 'BANK_TERMINAL_ID'
  | 'BANK_PASSWORD'
  | 'BANK_TIMEOUT_MS'
  | 'SANDBOX_BANK_URL'
  | 'SANDBOX_BANK_PAGE_URL'
  | 'SANDBOX_BANK_TERMINAL_ID'
  | 'SANDBOX_BANK_PASSWORD'
  | 'SANDBOX_MELLAT_URL'
  | 'SANDBOX_MELLAT_PAGE_URL'
  | 'SANDBOX_MELLAT_TERMINAL_ID'
  | 'SANDBOX_MELLAT_USERNAME'
  | 'SANDBOX_MELLAT_PASSWORD'
  | 'MELLAT_BASE_URL'
  | 'MELLAT_PAGE_URL'
  | 'MELLAT_TERMINAL_ID'
  | 'MELLAT_USERNAME'
  | 'MELLAT_PASSWORD'
>;

const strip = (url: string) => url.replace(/\/+$/, '');
/** The page's own address when one is configured; else the server-to-server one. */
const pageBase = (pageUrl: string) => (pageUrl === '' ? {} : { pageBaseUrl: strip(pageUrl) });

/** The PSP clients by mode and PSP: a PSP is there once its address is configured. */
export interface PspClients {
  test: Partial<Record<PspName, PspClient>>;
  live: Partial<Record<PspName, PspClient>>;
}

/** The client of PSP `name` for payments of `mode`; undefined when that PSP is not configured for the mode. */
export function pspClient(clients: PspClients, mode: 'test' | 'live', name: PspName): PspClient | undefined {
  return clients[mode][name];
}

/** The terminals configured for `mode`, one per PSP that has one, in the order of PSP_NAMES (the default route's order). */
export function configuredTerminals(clients: PspClients, mode: 'test' | 'live'): { psp: PspName; terminal_id: string }[] {
  return PSP_NAMES.flatMap((psp) => {
    const client = pspClient(clients, mode, psp);
    return client === undefined ? [] : [{ psp, terminal_id: client.terminalId }];
  });
}

/** What the configuration gives: the clients by mode and PSP, typed by protocol (the payouts go through the live SEP terminal). */
export interface ConfiguredPspClients extends PspClients {
  test: { sep: SepClient; mellat?: MellatClient };
  live: { sep?: SepClient; mellat?: MellatClient };
}

export function pspClientsFromConfig(config: BankConfig): ConfiguredPspClients {
  const sep = (baseUrl: string, pageUrl: string, terminalId: string, password: string) =>
    new SepClient({ baseUrl: strip(baseUrl), ...pageBase(pageUrl), terminalId, password, timeoutMs: config.BANK_TIMEOUT_MS });
  const mellat = (baseUrl: string, pageUrl: string, terminalId: string, userName: string, password: string) =>
    new MellatClient({ baseUrl: strip(baseUrl), ...pageBase(pageUrl), terminalId, userName, password, timeoutMs: config.BANK_TIMEOUT_MS });
  return {
    test: {
      sep: sep(config.SANDBOX_BANK_URL, config.SANDBOX_BANK_PAGE_URL, config.SANDBOX_BANK_TERMINAL_ID, config.SANDBOX_BANK_PASSWORD),
      ...(config.SANDBOX_MELLAT_URL === ''
        ? {}
        : {
            mellat: mellat(config.SANDBOX_MELLAT_URL, config.SANDBOX_MELLAT_PAGE_URL, config.SANDBOX_MELLAT_TERMINAL_ID, config.SANDBOX_MELLAT_USERNAME, config.SANDBOX_MELLAT_PASSWORD),
          }),
    },
    live: {
      ...(config.BANK_BASE_URL === '' ? {} : { sep: sep(config.BANK_BASE_URL, config.BANK_PAGE_URL, config.BANK_TERMINAL_ID, config.BANK_PASSWORD) }),
      ...(config.MELLAT_BASE_URL === ''
        ? {}
        : { mellat: mellat(config.MELLAT_BASE_URL, config.MELLAT_PAGE_URL, config.MELLAT_TERMINAL_ID, config.MELLAT_USERNAME, config.MELLAT_PASSWORD) }),
    },
  };
}
