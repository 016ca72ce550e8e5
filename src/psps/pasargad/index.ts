/**
 * The Pasargad (PEP) connector as the registry lists it (connector.ts): its profile, its client of one
 * terminal's settings (URL, PAGE_URL, TERMINAL_ID and its own USERNAME and PASSWORD), its return's
 * reading and recognition, its invoice number and its page's origin. docs/psps/pasargad.md.
 */
import { pageOriginOf, terminalEndpoint, terminalSetting, type PspConnector } from '../connector.ts';
import { PasargadClient } from './client.ts';
import { pasargadOrderId, pasargadReturn, recognisesPasargadReturn } from './mapping.ts';
import { PASARGAD_PROFILE } from './profile.ts';

// `satisfies`, not a type annotation: the registry holds the profile's literal name to its key.
export const PASARGAD_CONNECTOR = {
  profile: PASARGAD_PROFILE,
  client: (settings, timeoutMs) =>
    new PasargadClient({
      ...terminalEndpoint(settings),
      userName: terminalSetting(settings, 'USERNAME'),
      password: terminalSetting(settings, 'PASSWORD'),
      timeoutMs,
    }),
  parseReturn: (fields, paymentId) => pasargadReturn(fields, paymentId),
  recognisesReturn: recognisesPasargadReturn,
  orderId: pasargadOrderId,
  pageOrigins: pageOriginOf,
} satisfies PspConnector;
