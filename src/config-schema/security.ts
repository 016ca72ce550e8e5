/**
 * The settings the gateway's trust rests on (src/config-schema.ts, docs/SECURITY.md): the secret that
 * signs the hosted pages' CSRF tokens and the return address of each bank session, the proxies whose
 * X-Forwarded-For is believed, the largest request body, and the keys of the allowed cards' hashes and
 * of the dashboard's sealed two-factor secrets. The three secrets production mode requires
 * (src/config-production.ts) are all here.
 */
import { Type } from '@sinclair/typebox';
import { Int } from './setting.ts';

/** The hosted pages' signing secret, the proxies whose X-Forwarded-For is believed, and the largest request body. */
export const requestTrustSettings = {
  PAGES_CSRF_SECRET: Type.String({
    default: '',
    description:
      'secret (32+ random characters; placeholders such as change-me are refused) that signs the CSRF tokens of the hosted pages and, for a purpose of its own, the return address each bank session gives the PSP (only a return to it may end a payment); set the same value on every API process (empty: a random one per process on a developer machine; production mode refuses to start the API without it)',
  }),
  TRUSTED_PROXIES: Type.String({
    default: '',
    description:
      'comma-separated CIDRs (or addresses) of the proxies in front of the API (HAProxy, the TLS proxy); only from these is X-Forwarded-For believed, and the client is its right-most hop outside them. Empty: the TCP peer is the client',
  }),
  BODY_LIMIT_BYTES: Int({ default: 65_536, minimum: 1_024, description: 'largest accepted request body' }),
};

/** The keys of the allowed cards' stored hashes and of the dashboard's sealed two-factor secrets. */
export const secretKeySettings = {
  CARD_HASH_KEY: Type.String({
    default: '',
    description:
      "secret (32+ random characters) under which the allowed cards of a payment are stored as HMAC-SHA256 of their SHA-256 (docs/SECURITY.md#allowed-cards); the same value on every API and worker process, and kept: a restricted payment created under another key is paid by no card (empty: a public key fit for a developer machine only, with a warning at the worker's start; production mode refuses to start the API or the worker without it)",
  }),
  DASHBOARD_SECRETS_KEY: Type.String({
    default: '',
    description:
      'dashboard: secret (32+ random characters) that seals the two-factor (TOTP) secrets stored in MySQL with AES-256-GCM; keep it, or every user must set two-factor sign-in up again (empty: stored unsealed, with a warning at start, on a developer machine; production mode refuses to start the API without it)',
  }),
};
