/**
 * Behpardakht Mellat's connector (docs/psps/mellat.md): its profile, its client from one terminal's
 * settings, how its page's return reads, the order id it knows a payment by and the origins its page
 * is at. Listed once in the registry (../registry.ts).
 */
import {
  pageOriginOf,
  terminalEndpoint,
  terminalSetting,
  type PspConnector,
  type PspTerminalSettings,
} from '../connector.ts';
import { MellatClient } from './client.ts';
import { isMellatCallback, mellatCallback, mellatOrderId } from './mapping.ts';
import { MELLAT_PROFILE } from './profile.ts';

export const MELLAT_CONNECTOR = {
  profile: MELLAT_PROFILE,
  client: (settings: PspTerminalSettings, timeoutMs: number): MellatClient =>
    new MellatClient({
      ...terminalEndpoint(settings),
      userName: terminalSetting(settings, 'USERNAME'),
      password: terminalSetting(settings, 'PASSWORD'),
      timeoutMs,
    }),
  parseReturn: mellatCallback,
  // RefId, ResCode and SaleOrderId together are Behpardakht's return, never SEP's.
  recognisesReturn: isMellatCallback,
  // SaleOrderId: the numeric order id derived from the payment's id.
  orderId: mellatOrderId,
  // The browser posts RefId to startpay.mellat at the page's address (client.ts: MELLAT_PAGE_PATH).
  pageOrigins: pageOriginOf,
} satisfies PspConnector;
