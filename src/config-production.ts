/**
 * Production mode (NODE_ENV=production, or a live PSP configured) and what a process refuses to start
 * without in it: an SMTP server, and the secrets it uses. Also the card-hash key's public fallback for test mode.
 */
import type { PspName, PspSettingKey } from './psps/profiles.ts';
import { ConfigError, type Config } from './config-schema.ts';
import { livePspConfigured, liveUrlSettingSet } from './config-psps.ts';

/** The settings production mode reads: NODE_ENV and every PSP's live address. */
export type ProductionModeSettings = Pick<Config, 'NODE_ENV' | PspSettingKey<PspName, 'live'>>;

/**
 * Production mode: NODE_ENV=production, or a live PSP configured (any PSP's live address:
 * SEP_BASE_URL, MELLAT_BASE_URL, …). A development machine (`npm start`, the tests) is neither.
 */
export function isProductionMode(config: ProductionModeSettings): boolean {
  return config.NODE_ENV === 'production' || livePspConfigured(config);
}

/** Why production mode is on, for a refusal's sentence. */
function productionWhy(config: ProductionModeSettings): string {
  return config.NODE_ENV === 'production'
    ? 'NODE_ENV is production'
    : `${liveUrlSettingSet(config) ?? 'a live PSP address'} names a live PSP`;
}

/**
 * Refuses to start a process that sends email (the API, the worker) in production
 * mode without an SMTP server: the mailer would print sign-up confirmation and
 * password-reset links, one-time secrets, where the log collector reads them.
 */
export function requireMailInProduction(config: ProductionModeSettings & Pick<Config, 'SMTP_URL'>): void {
  if (isProductionMode(config) && config.SMTP_URL === '') {
    const why = productionWhy(config);
    throw new ConfigError(
      `Invalid configuration: SMTP_URL must be set in production mode (${why}): dashboard emails carry one-time links that must be mailed, never printed (smtp://user:password@relay:587)`,
    );
  }
}

/** The secrets each process uses: the API signs pages' forms, seals two-factor secrets and hashes allowed cards; the worker checks cards. */
const PROCESS_SECRETS = {
  api: ['PAGES_CSRF_SECRET', 'DASHBOARD_SECRETS_KEY', 'CARD_HASH_KEY'],
  worker: ['CARD_HASH_KEY'],
} as const;
type ProductionSecret = (typeof PROCESS_SECRETS)[keyof typeof PROCESS_SECRETS][number];

/** What running without each secret would do, said in its refusal. */
const WITHOUT: Record<ProductionSecret, string> = {
  PAGES_CSRF_SECRET:
    "without it every API process signs the pages' forms and the bank sessions' return addresses with a random secret of its own: replicas refuse each other's forms, and a customer's cancel at the PSP returning to another replica ends nothing",
  DASHBOARD_SECRETS_KEY: "without it the dashboard users' two-step sign-in secrets are stored unsealed in MySQL",
  CARD_HASH_KEY:
    'without it the allowed cards of payments are hashed under a key printed in the source, and a copy of the database gives each card away in about 100,000 guesses',
};

/**
 * Refuses to start a process in production mode (NODE_ENV=production, or a live PSP) without the
 * secrets it uses (docs/SECURITY.md#what-the-operator-must-do): one sentence per missing setting, naming it. A
 * developer machine keeps the fallbacks (a public card-hash key, a per-process CSRF secret, unsealed
 * two-factor secrets) and the warnings at start.
 */
export function requireSecretsInProduction(
  config: ProductionModeSettings & Pick<Config, ProductionSecret>,
  role: keyof typeof PROCESS_SECRETS,
): void {
  if (!isProductionMode(config)) return;
  const why = productionWhy(config);
  const missing = PROCESS_SECRETS[role].filter((name) => config[name] === '');
  if (missing.length === 0) return;
  const sentences = missing.map(
    (name) =>
      `${name} must be set in production mode (${why}): ${WITHOUT[name]}; set it to 32+ random characters (openssl rand -hex 32), the same on every process that uses it.`,
  );
  throw new ConfigError(`Invalid configuration: ${sentences.join(' ')}`);
}

/**
 * The key of the allowed cards' stored hashes: CARD_HASH_KEY, or, unset, a key everyone can read
 * in this file, which keeps test mode working without a secret and protects nothing.
 */
export const PUBLIC_CARD_HASH_KEY = 'dargah-public-card-hash-key-for-test-mode-only';
export function cardHashKey(config: Pick<Config, 'CARD_HASH_KEY'>): string {
  return config.CARD_HASH_KEY === '' ? PUBLIC_CARD_HASH_KEY : config.CARD_HASH_KEY;
}
