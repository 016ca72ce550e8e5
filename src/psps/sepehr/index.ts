/**
 * The Sepehr (Bank Saderat) connector as the registry lists it (connector.ts): its profile, its client
 * of one terminal's settings (URL, PAGE_URL and TERMINAL_ID: Sepehr has no other credential), its
 * return's reading and recognition, its order id and its page's origin. docs/psps/sepehr.md.
 */
import { pageOriginOf, terminalEndpoint, type PspConnector, type PspTerminalSettings } from '../connector.ts';
import { SepehrClient } from './client.ts';
import { isSepehrReturn, sepehrCallback, sepehrOrderId } from './mapping.ts';
import { SEPEHR_PROFILE } from './profile.ts';

export const SEPEHR_CONNECTOR = {
  profile: SEPEHR_PROFILE,
  client: (settings: PspTerminalSettings, timeoutMs: number) =>
    new SepehrClient({ ...terminalEndpoint(settings), timeoutMs }),
  parseReturn: (fields: Record<string, string>, paymentId?: string) => sepehrCallback(fields, paymentId),
  recognisesReturn: isSepehrReturn,
  orderId: sepehrOrderId,
  // The page's origin (PAGE_URL, Sepehr's port 8080), else the API's.
  pageOrigins: pageOriginOf,
} satisfies PspConnector;
