/**
 * The settings of the API's HTTP side (src/config-schema.ts): where it listens and its public origin,
 * and the limits on what is asked of it: API requests per key, test keys and test payments per
 * merchant, the public pages' actions per client address, and a payment link's payments. Together,
 * as the limits a deployment tunes to its traffic.
 */
import { Type } from '@sinclair/typebox';
import { Int } from './setting.ts';

/** Where the API listens, and the public origin of the API and the hosted pages. */
export const listenSettings = {
  HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'address the API listens on' }),
  PORT: Int({ default: 3000, minimum: 0, maximum: 65535, description: 'port the API listens on' }),
  PUBLIC_BASE_URL: Type.String({
    default: '',
    description: 'public origin of the API and hosted pages; defaults to http://localhost:PORT',
  }),
};

/** The limits on what one key, merchant, client address or payment link may ask: requests, test keys and payments, pages' actions, a link's payments. */
export const rateLimitSettings = {
  RATE_LIMIT_STORE: Type.Union([Type.Literal('mysql'), Type.Literal('memory')], {
    default: 'mysql',
    description:
      'where request counters live: `mysql` (one count shared by every API process, exact) or `memory` (per process: N processes allow N times the limit)',
  }),
  RATE_LIMIT_REQUESTS: Int({
    default: 1_200,
    minimum: 0,
    description:
      'API requests one key may make per RATE_LIMIT_WINDOW_SECONDS (0: unlimited); beyond it 429 rate_limited',
  }),
  RATE_LIMIT_WINDOW_SECONDS: Int({
    default: 60,
    minimum: 1,
    maximum: 86_400,
    description: 'length of the fixed window of RATE_LIMIT_REQUESTS',
  }),
  TEST_KEYS_PER_MERCHANT: Int({
    default: 10,
    minimum: 1,
    maximum: 1_000,
    description:
      'test API keys a merchant may hold at once (unrevoked and unexpired); a key beyond them is refused until one is revoked or expires',
  }),
  TEST_PAYMENTS_PER_MINUTE: Int({
    default: 120,
    minimum: 0,
    description:
      'payments a merchant may create per minute in test mode, through the API, a compatible protocol or its payment links (0: unlimited); beyond it 429 rate_limited',
  }),
  PAGE_ACTIONS_PER_CLIENT_PER_MINUTE: Int({
    default: 60,
    minimum: 0,
    description:
      "public pages: actions one client address (TRUSTED_PROXIES decides which) may take per minute, counted together: starting a payment on a link's page (POST /l/{slug}), the payment page's Pay button (POST /pay/{id}, which asks a PSP for a token) and the protocols' start addresses (GET /start/{trackId}, /pg/StartPay/{authority}); 0: unlimited. Beyond it 429 and nothing done. Customers behind one carrier NAT share an address: keep it well above one shop's rush",
  }),
  LINK_PAYMENTS_PER_LINK_PER_MINUTE: Int({
    default: 30,
    minimum: 0,
    description:
      'payments one payment link may start per minute, from any number of addresses (0: unlimited); beyond it its page answers 429 and starts nothing',
  }),
  LINK_OPEN_PAYMENTS_MAX: Int({
    default: 20,
    minimum: 1,
    maximum: 10_000,
    description:
      "payments of one payment link that may be open at once (created, pending at the bank, or paid and not yet verified); beyond it the link's page answers 429 and starts nothing until one ends",
  }),
};
