/**
 * The Parsian (PEC) connector as the registry lists it (connector.ts): its profile, its client of one
 * terminal's settings (URL, PAGE_URL, TERMINAL_ID and its own PIN), its return's reading and
 * recognition, its order id and its page's origin.

 */
import {
  pageOriginOf,
  terminalEndpoint,
  terminalSetting,
  type PspConnector,
  type PspTerminalSettings,
} from '../connector.ts';
import { ParsianClient } from './client.ts';
import { isParsianReturn, parsianOrderId, parsianReturn } from './mapping.ts';
import { PARSIAN_PROFILE } from './profile.ts';

export const PARSIAN_CONNECTOR = {
  profile: PARSIAN_PROFILE,
  client: (settings: PspTerminalSettings, timeoutMs: number) =>
    new ParsianClient({
      ...terminalEndpoint(settings),
      pin: terminalSetting(settings, 'PIN'),
      timeoutMs,
    }),
  parseReturn: (fields: Record<string, string>, paymentId?: string) => parsianReturn(fields, paymentId),
  recognisesReturn: isParsianReturn,
  orderId: parsianOrderId,
  pageOrigins: pageOriginOf,
} satisfies PspConnector;
