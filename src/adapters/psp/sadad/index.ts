/**
 * Sadad (Bank Melli Iran) as a connector (connector.ts): its profile, its client from a terminal's
 * settings (URL, PAGE_URL, TERMINAL_ID, MERCHANT_ID, KEY), its return's reading and the origins its
 * page is on. docs/psps/sadad.md.
 */
import type { PspConnector, PspTerminalSettings } from '../connector.ts';
import type { PspClient } from '../psp-client.ts';
import { SadadClient } from './client.ts';
import { isSadadReturn, sadadCallback, sadadOrderId } from './mapping.ts';
import { SADAD_PROFILE } from './profile.ts';

const strip = (url: string) => url.replace(/\/+$/, '');
const setting = (settings: PspTerminalSettings, suffix: string) => settings[suffix] ?? '';

export const SADAD_CONNECTOR: PspConnector = {
  profile: SADAD_PROFILE,
  client(settings, timeoutMs) {
    const pageUrl = setting(settings, 'PAGE_URL');
    const client = new SadadClient({
      baseUrl: strip(setting(settings, 'URL')),
      ...(pageUrl === '' ? {} : { pageBaseUrl: strip(pageUrl) }),
      terminalId: setting(settings, 'TERMINAL_ID'),
      merchantId: setting(settings, 'MERCHANT_ID'),
      key: setting(settings, 'KEY'),
      timeoutMs,
    });
    // The registry's PspName does not name Sadad until the integration adds its profile (client.ts: SadadPspClient).
    return client as unknown as PspClient;
  },
  parseReturn: sadadCallback,
  recognisesReturn: isSadadReturn,
  orderId: sadadOrderId,
  pageOrigins(settings) {
    const page = setting(settings, 'PAGE_URL') || setting(settings, 'URL');
    try {
      return page === '' ? [] : [new URL(page).origin];
    } catch {
      return [];
    }
  },
};
