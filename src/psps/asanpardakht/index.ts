/**
 * Asan Pardakht's connector (docs/psps/asanpardakht.md): its profile, its client from one terminal's
 * settings, its return's reading and recognition, its invoice id and its page's origin, for the
 * registry of connectors.
 */
import type { PspConnector, PspTerminalSettings } from '../connector.ts';
import { AsanpardakhtClient } from './client.ts';
import { asanpardakhtCallback, asanpardakhtOrderId, isAsanpardakhtReturn } from './mapping.ts';
import { ASANPARDAKHT_PROFILE } from './profile.ts';

const setting = (settings: PspTerminalSettings, suffix: string) => settings[suffix] ?? '';

/** Where customers' browsers are sent: PAGE_URL, or URL when the page is at the service's address. */
const pageBaseUrl = (settings: PspTerminalSettings) =>
  setting(settings, 'PAGE_URL') === '' ? setting(settings, 'URL') : setting(settings, 'PAGE_URL');

export const ASANPARDAKHT_CONNECTOR = {
  profile: ASANPARDAKHT_PROFILE,
  client: (settings, timeoutMs) =>
    new AsanpardakhtClient({
      baseUrl: setting(settings, 'URL').replace(/\/+$/, ''),
      pageBaseUrl: pageBaseUrl(settings).replace(/\/+$/, ''),
      terminalId: setting(settings, 'TERMINAL_ID'),
      userName: setting(settings, 'USERNAME'),
      password: setting(settings, 'PASSWORD'),
      timeoutMs,
    }),
  parseReturn: asanpardakhtCallback,
  recognisesReturn: isAsanpardakhtReturn,
  orderId: asanpardakhtOrderId,
  pageOrigins: (settings) => {
    const page = pageBaseUrl(settings);
    if (page === '') return [];
    try {
      return [new URL(page).origin];
    } catch {
      return [];
    }
  },
} satisfies PspConnector;
