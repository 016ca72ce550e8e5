/**
 * The IranKish connector as the registry lists it (connector.ts): its profile, its client of one
 * terminal's settings (URL, PAGE_URL, TERMINAL_ID and its own ACCEPTOR_ID, PASSWORD and PUBLIC_KEY),
 * its return's reading and recognition, its order id and its page's origin. docs/psps/irankish.md.
 */
import { pageOriginOf, terminalEndpoint, terminalSetting, type PspConnector } from '../connector.ts';
import { IrankishClient } from './client.ts';
import { irankishOrderId, irankishReturn, recognisesIrankishReturn } from './mapping.ts';
import { IRANKISH_PROFILE } from './profile.ts';

// `satisfies`, not a type annotation: the registry holds the profile's literal name to its key.
export const IRANKISH_CONNECTOR = {
  profile: IRANKISH_PROFILE,
  client: (settings, timeoutMs) =>
    new IrankishClient({
      ...terminalEndpoint(settings),
      acceptorId: terminalSetting(settings, 'ACCEPTOR_ID'),
      password: terminalSetting(settings, 'PASSWORD'),
      publicKey: terminalSetting(settings, 'PUBLIC_KEY'),
      timeoutMs,
    }),
  parseReturn: (fields, paymentId) => irankishReturn(fields, paymentId),
  recognisesReturn: recognisesIrankishReturn,
  orderId: irankishOrderId,
  pageOrigins: pageOriginOf,
} satisfies PspConnector;
