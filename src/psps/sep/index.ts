/**
 * SEP's connector (docs/psps/sep.md): its profile, its client from one terminal's settings, how its
 * page's return reads, the id its panel knows a payment by and the origins its page is at. Listed
 * once in the registry (../registry.ts).
 */
import {
  pageOriginOf,
  terminalEndpoint,
  terminalSetting,
  type PspConnector,
  type PspTerminalSettings,
} from '../connector.ts';
import { SepClient } from './client.ts';
import { sepCallback } from './mapping.ts';
import { SEP_PROFILE } from './profile.ts';

export const SEP_CONNECTOR = {
  profile: SEP_PROFILE,
  client: (settings: PspTerminalSettings, timeoutMs: number): SepClient =>
    new SepClient({
      ...terminalEndpoint(settings),
      password: terminalSetting(settings, 'PASSWORD'),
      timeoutMs,
    }),
  parseReturn: sepCallback,
  // The form post names State or RefNum, the guide's query Token and RefNum (mapping.ts: sepCallback).
  recognisesReturn: (fields: Record<string, string>) =>
    Object.keys(fields).some((name) => ['refnum', 'state', 'resnum', 'token'].includes(name.toLowerCase())),
  // ResNum is the payment's id (the token request's ResNum).
  orderId: (paymentId: string) => paymentId,
  // The customer's browser is sent to SendToken at the page's address (client.ts: pageUrl).
  pageOrigins: pageOriginOf,
} satisfies PspConnector;
