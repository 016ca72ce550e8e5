/**
 * The Sadad (Bank Melli Iran) connector as the registry lists it (connector.ts): its profile, its
 * client of one terminal's settings (URL, PAGE_URL, TERMINAL_ID and its own MERCHANT_ID and KEY), its
 * return's reading and recognition, its order id and its page's origin. docs/psps/sadad.md.
 */
import {
  pageOriginOf,
  terminalEndpoint,
  terminalSetting,
  type PspConnector,
  type PspTerminalSettings,
} from '../connector.ts';
import { SadadClient } from './client.ts';
import { isSadadReturn, sadadCallback, sadadOrderId } from './mapping.ts';
import { SADAD_PROFILE } from './profile.ts';

export const SADAD_CONNECTOR = {
  profile: SADAD_PROFILE,
  client: (settings: PspTerminalSettings, timeoutMs: number) =>
    new SadadClient({
      ...terminalEndpoint(settings),
      merchantId: terminalSetting(settings, 'MERCHANT_ID'),
      key: terminalSetting(settings, 'KEY'),
      timeoutMs,
    }),
  parseReturn: (fields: Record<string, string>, paymentId?: string) => sadadCallback(fields, paymentId),
  recognisesReturn: isSadadReturn,
  orderId: sadadOrderId,
  pageOrigins: pageOriginOf,
} satisfies PspConnector;
