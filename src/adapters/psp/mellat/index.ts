/**
 * Behpardakht Mellat's connector (docs/psps/mellat.md): its profile, its client from one terminal's
 * settings, how its page's return reads, the order id it knows a payment by and the origins its page
 * is at. Listed once in the registry (../registry.ts).
 */
import type { PspConnector, PspTerminalSettings } from '../connector.ts';
import { MellatClient } from './client.ts';
import { isMellatCallback, mellatCallback, mellatOrderId } from './mapping.ts';
import { MELLAT_PROFILE } from './profile.ts';

const strip = (url: string) => url.replace(/\/+$/, '');
const originOf = (url: string): string[] => {
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};
const setting = (settings: PspTerminalSettings, suffix: string) => settings[suffix] ?? '';

export const MELLAT_CONNECTOR = {
  profile: MELLAT_PROFILE,
  client: (settings: PspTerminalSettings, timeoutMs: number): MellatClient => {
    const pageUrl = setting(settings, 'PAGE_URL');
    return new MellatClient({
      baseUrl: strip(setting(settings, 'URL')),
      ...(pageUrl === '' ? {} : { pageBaseUrl: strip(pageUrl) }),
      terminalId: setting(settings, 'TERMINAL_ID'),
      userName: setting(settings, 'USERNAME'),
      password: setting(settings, 'PASSWORD'),
      timeoutMs,
    });
  },
  parseReturn: mellatCallback,
  // RefId, ResCode and SaleOrderId together are Behpardakht's return, never SEP's.
  recognisesReturn: isMellatCallback,
  // SaleOrderId: the numeric order id derived from the payment's id.
  orderId: mellatOrderId,
  // The browser posts RefId to startpay.mellat at the page's address (client.ts: MELLAT_PAGE_PATH).
  pageOrigins: (settings: PspTerminalSettings) => originOf(setting(settings, 'PAGE_URL') || setting(settings, 'URL')),
} satisfies PspConnector;
