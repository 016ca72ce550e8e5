/**
 * Reading the configuration: the settings table (config-schema.ts) validated, then the rules between
 * settings and on secrets' values. Every process reads its configuration here; the rules live by job in
 * config-values.ts (single values), config-deprecated.ts (old names), config-psps.ts (the PSPs' settings)
 * and config-production.ts (what production mode requires), and are exported from here too.
 */
import { Ajv } from 'ajv';
import { existsSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { PSP_NAMES } from './psps/profiles.ts';
import { ConfigError, ConfigSchema, type Config } from './config-schema.ts';
import { DEPRECATED_SETTING_NAMES, deprecatedSettingsIn } from './config-deprecated.ts';
import { pspUrlSetting } from './config-psps.ts';
import { passwordOf, pathOf, placeholderProblem, shownValue, specialUseOf } from './config-values.ts';

export {
  ConfigError,
  ConfigSchema,
  DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
  DEFAULT_DATABASE_POOL_SIZE,
  DEFAULT_DATABASE_QUERY_TIMEOUT_MS,
  DEFAULT_DOCUMENTS_QUOTA_BYTES,
  DEFAULT_WORKER_MAX_CACHED_WORKFLOWS,
  type Config,
} from './config-schema.ts';
export {
  DEPRECATED_SETTING_NAMES,
  deprecatedSettingsIn,
  deprecatedSettingWarnings,
  warnDeprecatedSettings,
} from './config-deprecated.ts';
export {
  configuredPsps,
  livePspConfigured,
  pspConfigured,
  pspPageOrigins,
  pspTerminalSettings,
  pspUrlSetting,
} from './config-psps.ts';
export {
  cardHashKey,
  isProductionMode,
  PUBLIC_CARD_HASH_KEY,
  requireMailInProduction,
  requireSecretsInProduction,
  type ProductionModeSettings,
} from './config-production.ts';
export { placeholderProblem, specialUseOf } from './config-values.ts';

const ajv = new Ajv({ useDefaults: true, coerceTypes: true, allErrors: true });
const validateConfig = ajv.compile(ConfigSchema);

/** Reads and validates the configuration; every message names its variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.keys(ConfigSchema.properties);
  const raw: Record<string, string> = {};
  for (const name of known) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  for (const { name, instead } of deprecatedSettingsIn(env)) raw[instead] = env[name]!;
  // A PSP's address set empty turns the PSP off for that mode, even where its default is an address
  // (test mode's simulator): an empty value is kept, not replaced by the default.
  for (const psp of PSP_NAMES) {
    for (const mode of ['test', 'live'] as const) {
      const name = pspUrlSetting(psp, mode);
      const old = Object.entries(DEPRECATED_SETTING_NAMES).find(([, instead]) => instead === name)?.[0];
      if (env[name] === '' || (env[name] === undefined && old !== undefined && env[old] === '')) raw[name] = '';
    }
  }
  // So does the identity provider's simulator's (docs/identity.md).
  if (env.SANDBOX_IDENTITY_URL === '') raw.SANDBOX_IDENTITY_URL = '';
  const input: Record<string, unknown> = { ...raw };
  if (!validateConfig(input)) {
    const problems = (validateConfig.errors ?? []).map((e) => {
      const name = e.instancePath.replace(/^\//, '');
      const got = raw[name] === undefined ? '' : ` (got ${shownValue(name, raw[name])})`;
      return `${name} ${e.message ?? 'is invalid'}${got}`;
    });
    throw new ConfigError(`Invalid configuration: ${[...new Set(problems)].join('; ')}`);
  }
  const config = input as Config;
  if (config.AMOUNT_MIN > config.AMOUNT_MAX) {
    throw new ConfigError('Invalid configuration: AMOUNT_MIN must not be greater than AMOUNT_MAX');
  }
  if (config.FEE_MIN > config.FEE_MAX) {
    throw new ConfigError('Invalid configuration: FEE_MIN must not be greater than FEE_MAX');
  }
  if (config.PAGES_CSRF_SECRET !== '' && config.PAGES_CSRF_SECRET.length < 32) {
    // The value itself is never echoed: it is a secret.
    throw new ConfigError('Invalid configuration: PAGES_CSRF_SECRET must be at least 32 characters');
  }
  // A secret copied from an example file is no secret: refuse to start with one.
  const csrfProblem = config.PAGES_CSRF_SECRET === '' ? undefined : placeholderProblem(config.PAGES_CSRF_SECRET);
  if (csrfProblem !== undefined) throw new ConfigError(`Invalid configuration: PAGES_CSRF_SECRET ${csrfProblem}`);
  if (config.CARD_HASH_KEY !== '') {
    const keyProblem =
      config.CARD_HASH_KEY.length < 32 ? 'must be at least 32 characters' : placeholderProblem(config.CARD_HASH_KEY);
    if (keyProblem !== undefined) throw new ConfigError(`Invalid configuration: CARD_HASH_KEY ${keyProblem}`);
  }
  if (config.DASHBOARD_SECRETS_KEY !== '') {
    const keyProblem =
      config.DASHBOARD_SECRETS_KEY.length < 32
        ? 'must be at least 32 characters'
        : placeholderProblem(config.DASHBOARD_SECRETS_KEY);
    if (keyProblem !== undefined) throw new ConfigError(`Invalid configuration: DASHBOARD_SECRETS_KEY ${keyProblem}`);
  }
  for (const name of ['DATABASE_URL', 'MIGRATE_DATABASE_URL'] as const) {
    const databasePassword = passwordOf(config[name]);
    const passwordProblem = databasePassword === '' ? undefined : placeholderProblem(databasePassword);
    if (passwordProblem !== undefined)
      throw new ConfigError(`Invalid configuration: the password in ${name} ${passwordProblem}`);
  }
  if (config.MIGRATE_DATABASE_URL !== '' && pathOf(config.MIGRATE_DATABASE_URL) !== pathOf(config.DATABASE_URL)) {
    throw new ConfigError('Invalid configuration: MIGRATE_DATABASE_URL must name the same database as DATABASE_URL');
  }
  const badProxies = config.TRUSTED_PROXIES.split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '' && !ipaddr.isValidCIDR(e) && !ipaddr.isValid(e));
  if (badProxies.length > 0) {
    throw new ConfigError(
      `Invalid configuration: TRUSTED_PROXIES must list CIDRs or addresses (not ${badProxies.map((e) => JSON.stringify(e)).join(', ')})`,
    );
  }
  // An event must outlive every delivery of it: the whole retry schedule, and the sweep's day of looking back.
  const retrySpanSeconds = config.WEBHOOK_RETRY_SCHEDULE_SECONDS.split(',').reduce((sum, s) => sum + Number(s), 0);
  if (config.EVENT_RETENTION_DAYS * 86_400 <= retrySpanSeconds + 86_400) {
    throw new ConfigError(
      `Invalid configuration: EVENT_RETENTION_DAYS must be longer than WEBHOOK_RETRY_SCHEDULE_SECONDS's span (${Math.ceil(retrySpanSeconds / 86_400)} days) plus a day`,
    );
  }
  if (config.WEBHOOK_ALLOWED_PORTS.split(',').some((p) => p !== '' && (Number(p) < 1 || Number(p) > 65535))) {
    throw new ConfigError(
      `Invalid configuration: WEBHOOK_ALLOWED_PORTS must list ports from 1 to 65535 (got ${JSON.stringify(config.WEBHOOK_ALLOWED_PORTS)})`,
    );
  }
  const badNetworks = config.WEBHOOK_ALLOWED_NETWORKS.split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '' && !ipaddr.isValidCIDR(e));
  if (badNetworks.length > 0) {
    throw new ConfigError(
      `Invalid configuration: WEBHOOK_ALLOWED_NETWORKS must list CIDRs (not ${badNetworks.map((e) => JSON.stringify(e)).join(', ')})`,
    );
  }
  for (const network of config.WEBHOOK_ALLOWED_NETWORKS.split(',').map((e) => e.trim())) {
    const special = network === '' ? undefined : specialUseOf(network);
    if (special !== undefined) {
      throw new ConfigError(
        `Invalid configuration: WEBHOOK_ALLOWED_NETWORKS lists ${network}, which ${special}: it may list only the operator's own networks where merchants' receivers sit, never loopback, link-local (cloud metadata), "this network", multicast, broadcast or reserved ranges, the unspecified address, IPv6 forms that carry IPv4 addresses, or anything wider than a /8 (docs/WEBHOOKS.md#receivers-on-the-operators-network)`,
      );
    }
  }
  if (config.WEBHOOK_CA_FILE !== '' && !existsSync(config.WEBHOOK_CA_FILE)) {
    throw new ConfigError(
      `Invalid configuration: WEBHOOK_CA_FILE names no file (${JSON.stringify(config.WEBHOOK_CA_FILE)})`,
    );
  }
  if (config.PUBLIC_BASE_URL === '') {
    config.PUBLIC_BASE_URL = `http://localhost:${config.PORT}`;
  } else {
    let url: URL;
    try {
      url = new URL(config.PUBLIC_BASE_URL);
    } catch {
      throw new ConfigError(
        `Invalid configuration: PUBLIC_BASE_URL must be an absolute http(s) URL (got ${JSON.stringify(config.PUBLIC_BASE_URL)})`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConfigError('Invalid configuration: PUBLIC_BASE_URL must use http or https');
    }
    config.PUBLIC_BASE_URL = config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  }
  return config;
}

/**
 * The URL `npm run migrate` connects with: the schema owner's
 * (MIGRATE_DATABASE_URL), or the gateway's own when none is set (development,
 * where one user does both).
 */
export function migrationDatabaseUrl(config: Config): string {
  return config.MIGRATE_DATABASE_URL === '' ? config.DATABASE_URL : config.MIGRATE_DATABASE_URL;
}
