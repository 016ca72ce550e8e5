/** The PSP client of each mode, from the configuration (docs/BANK.md#configuration). */
import type { Config } from '../../config.ts';
import type { PspClient } from './psp-client.ts';
import { SepClient } from './sep.ts';

type BankConfig = Pick<
  Config,
  'BANK_BASE_URL' | 'BANK_PAGE_URL' | 'BANK_TERMINAL_ID' | 'BANK_PASSWORD' | 'BANK_TIMEOUT_MS' | 'SANDBOX_BANK_URL' | 'SANDBOX_BANK_PAGE_URL' | 'SANDBOX_BANK_TERMINAL_ID'
>;

const strip = (url: string) => url.replace(/\/+$/, '');
/** The page's own address when one is configured; else the server-to-server one. */
const pageBase = (pageUrl: string) => (pageUrl === '' ? {} : { pageBaseUrl: strip(pageUrl) });

/** The PSP clients by mode: test mode's is always there (the bank simulator); live mode's once a PSP is configured. */
export interface PspClients {
  test: PspClient;
  live?: PspClient;
}

export function pspClientsFromConfig(config: BankConfig): { test: SepClient; live?: SepClient } {
  const test = new SepClient({
    baseUrl: strip(config.SANDBOX_BANK_URL),
    ...pageBase(config.SANDBOX_BANK_PAGE_URL),
    terminalId: config.SANDBOX_BANK_TERMINAL_ID,
    password: '',
    timeoutMs: config.BANK_TIMEOUT_MS,
  });
  if (config.BANK_BASE_URL === '') return { test };
  return {
    test,
    live: new SepClient({
      baseUrl: strip(config.BANK_BASE_URL),
      ...pageBase(config.BANK_PAGE_URL),
      terminalId: config.BANK_TERMINAL_ID,
      password: config.BANK_PASSWORD,
      timeoutMs: config.BANK_TIMEOUT_MS,
    }),
  };
}
