/**
 * SEP's connector (docs/psps/sep.md): its profile, its client from one terminal's settings, how its
 * page's return reads, the id its panel knows a payment by and the origins its page is at. Listed
 * once in the registry (../registry.ts).
 */
import type { PspConnector, PspTerminalSettings } from '../connector.ts';
import { SepClient } from './client.ts';
import { sepCallback } from './mapping.ts';
import { SEP_PROFILE } from './profile.ts';

const strip = (url: string) => url.replace(/\/+$/, '');
const originOf = (url: string): string[] => {
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
};
const setting = (settings: PspTerminalSettings, suffix: string) => settings[suffix] ?? '';

export const SEP_CONNECTOR = {
  profile: SEP_PROFILE,
  client: (settings: PspTerminalSettings, timeoutMs: number): SepClient => {
    const pageUrl = setting(settings, 'PAGE_URL');
    return new SepClient({
      baseUrl: strip(setting(settings, 'URL')),
      ...(pageUrl === '' ? {} : { pageBaseUrl: strip(pageUrl) }),
      terminalId: setting(settings, 'TERMINAL_ID'),
      password: setting(settings, 'PASSWORD'),
      timeoutMs,
    });
  },
  parseReturn: sepCallback,
  // The form post names State or RefNum, the guide's query Token and RefNum (mapping.ts: sepCallback).
  recognisesReturn: (fields: Record<string, string>) => Object.keys(fields).some((name) => ['refnum', 'state', 'resnum', 'token'].includes(name.toLowerCase())),
  // ResNum is the payment's id (the token request's ResNum).
  orderId: (paymentId: string) => paymentId,
  // The customer's browser is sent to SendToken at the page's address (client.ts: pageUrl).
  pageOrigins: (settings: PspTerminalSettings) => originOf(setting(settings, 'PAGE_URL') || setting(settings, 'URL')),
} satisfies PspConnector;
