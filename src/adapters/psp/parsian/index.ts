/**
 * The Parsian (PEC) connector as the registry lists it (connector.ts): its profile, its client of one
 * terminal's settings (URL, PAGE_URL, TERMINAL_ID and its own PIN), its return's reading and
 * recognition, its order id and its page's origin.

 */
import type { PspConnector, PspTerminalSettings } from '../connector.ts';
import { ParsianClient } from './client.ts';
import { isParsianReturn, parsianOrderId, parsianReturn } from './mapping.ts';
import { PARSIAN_PROFILE } from './profile.ts';

const setting = (settings: PspTerminalSettings, suffix: string) => settings[suffix] ?? '';

export const PARSIAN_CONNECTOR = {
  profile: PARSIAN_PROFILE,
  client: (settings: PspTerminalSettings, timeoutMs: number) =>
    new ParsianClient({
      baseUrl: setting(settings, 'URL').replace(/\/+$/, ''),
      ...(setting(settings, 'PAGE_URL') === '' ? {} : { pageBaseUrl: setting(settings, 'PAGE_URL').replace(/\/+$/, '') }),
      terminalId: setting(settings, 'TERMINAL_ID'),
      pin: setting(settings, 'PIN'),
      timeoutMs,
    }),
  parseReturn: (fields: Record<string, string>, paymentId?: string) => parsianReturn(fields, paymentId),
  recognisesReturn: isParsianReturn,
  orderId: parsianOrderId,
  pageOrigins: (settings: PspTerminalSettings) => {
    const page = setting(settings, 'PAGE_URL') || setting(settings, 'URL');
    return page === '' ? [] : [new URL(page).origin];
  },
} satisfies PspConnector;
