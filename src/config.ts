import { Ajv } from 'ajv';
import { existsSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import {
  PSP_NAMES,
  pspSettingName,
  pspSettings,
  type PspMode,
  type PspName,
  type PspSettingKey,
} from './psps/profiles.ts';
import { ConfigSchema, type Config } from './config-schema.ts';

/**
 * Reading the configuration: the settings table (config-schema.ts) validated, then the rules
 * between settings and on secrets' values. Every process reads its configuration here.
 */
export {
  ConfigSchema,
  DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
  DEFAULT_DATABASE_POOL_SIZE,
  DEFAULT_DATABASE_QUERY_TIMEOUT_MS,
  DEFAULT_DOCUMENTS_QUOTA_BYTES,
  DEFAULT_WORKER_MAX_CACHED_WORKFLOWS,
  type Config,
} from './config-schema.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * The ranges WEBHOOK_ALLOWED_NETWORKS may neither cover nor overlap (docs/WEBHOOKS.md): the
 * worker's own host (loopback, the unspecified address, "this network"), link-local (where the
 * clouds' metadata services answer, 169.254.169.254), multicast, broadcast and reserved, and the
 * IPv6 forms that carry an IPv4 address (which would let an IPv6 range reach 127.0.0.1).
 */
const WEBHOOK_NEVER_ALLOWED: readonly [string, string][] = [
  ['0.0.0.0/8', '"this network" (0.0.0.0/8, the unspecified address among it)'],
  ['127.0.0.0/8', 'loopback (127.0.0.0/8)'],
  ['169.254.0.0/16', 'link-local, where cloud metadata answers (169.254.0.0/16)'],
  ['224.0.0.0/4', 'multicast (224.0.0.0/4)'],
  ['240.0.0.0/4', 'reserved and broadcast (240.0.0.0/4, 255.255.255.255)'],
  ['::/128', 'the unspecified address (::)'],
  ['::1/128', 'loopback (::1)'],
  ['::/96', 'IPv4-compatible IPv6 (::/96)'],
  ['::ffff:0:0/96', 'IPv4-mapped IPv6 (::ffff:0:0/96)'],
  ['64:ff9b::/96', 'NAT64, carrying IPv4 (64:ff9b::/96)'],
  ['64:ff9b:1::/48', 'local NAT64, carrying IPv4 (64:ff9b:1::/48)'],
  ['2001::/32', 'Teredo, carrying IPv4 (2001::/32)'],
  ['2002::/16', '6to4, carrying IPv4 (2002::/16)'],
  ['fe80::/10', 'link-local (fe80::/10)'],
  ['ff00::/8', 'multicast (ff00::/8)'],
];

/** The widest network WEBHOOK_ALLOWED_NETWORKS takes, in both families: 10.0.0.0/8 is IPv4's widest private block, fd00::/8 every unique local IPv6 address in use. */
const WEBHOOK_NETWORK_WIDEST_PREFIX = 8;

/** Why a CIDR of WEBHOOK_ALLOWED_NETWORKS is refused (covers or overlaps which special range, or is too wide); undefined when it is not. */
export function specialUseOf(cidr: string): string | undefined {
  const [base, bits] = ipaddr.parseCIDR(cidr);
  if (bits < WEBHOOK_NETWORK_WIDEST_PREFIX) return `is wider than a /${WEBHOOK_NETWORK_WIDEST_PREFIX}`;
  for (const [range, name] of WEBHOOK_NEVER_ALLOWED) {
    const [special, specialBits] = ipaddr.parseCIDR(range);
    if (special.kind() !== base.kind()) continue;
    // Two prefixes overlap exactly when the shorter one holds the other's start.
    if (base.match(special, specialBits) || special.match(base, bits)) return `covers or overlaps ${name}`;
  }
  return undefined;
}

/**
 * Words that mark a value as a placeholder someone forgot to replace
 * (compared without case or punctuation: `Change-Me`, `change_me` and
 * `changeme` alike). Six letters or more, so a random secret practically
 * never contains one by chance.
 */
const PLACEHOLDER_WORDS = [
  'changeme',
  'changethis',
  'placeholder',
  'example',
  'replaceme',
  'replacethis',
  'yoursecret',
  'yourpassword',
  'secrethere',
  'passwordhere',
  'notsecret',
  'insecure',
  'default',
];
/** Whole values that are no secret at all. */
const WEAK_VALUES = new Set([
  'password',
  'passw0rd',
  'secret',
  'dargah',
  'root',
  'admin',
  'mysql',
  'temporal',
  'test',
  '123456',
  '12345678',
  'qwerty',
  'letmein',
]);

/**
 * Why a secret's value is a known placeholder or no secret at all (the
 * problem, never the value), or undefined when it may be used.
 */
export function placeholderProblem(value: string): string | undefined {
  const letters = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  // The word found is not named: it may be most of the secret.
  if (PLACEHOLDER_WORDS.some((w) => letters.includes(w)))
    return 'looks like a placeholder (change-me, example, …): set a random value, e.g. from openssl rand -hex 32';
  if (WEAK_VALUES.has(letters)) return 'is a well-known weak value: set a random value, e.g. from openssl rand -hex 32';
  if (new Set(value).size < 5)
    return 'has fewer than 5 different characters: set a random value, e.g. from openssl rand -hex 32';
  return undefined;
}

/**
 * Settings as they were named before: each old name is still read when its new one is unset, with a
 * deprecation warning at start (deprecatedSettingWarnings). SEP's were renamed when the registry of PSPs
 * gave every PSP's the same shape (BANK_TIMEOUT_MS and BANK_PENDING_LIMIT_SECONDS are every PSP's and keep
 * their names); SANDBOX_DELAY_SECONDS because it also sets when live payments are confirmed again, and the
 * simulator's own setting keeps that name.
 */
export const DEPRECATED_SETTING_NAMES = {
  BANK_BASE_URL: 'SEP_BASE_URL',
  BANK_PAGE_URL: 'SEP_PAGE_URL',
  BANK_TERMINAL_ID: 'SEP_TERMINAL_ID',
  BANK_PASSWORD: 'SEP_PASSWORD',
  SANDBOX_BANK_URL: 'SANDBOX_SEP_URL',
  SANDBOX_BANK_PAGE_URL: 'SANDBOX_SEP_PAGE_URL',
  SANDBOX_BANK_TERMINAL_ID: 'SANDBOX_SEP_TERMINAL_ID',
  SANDBOX_BANK_PASSWORD: 'SANDBOX_SEP_PASSWORD',
  SANDBOX_DELAY_SECONDS: 'BANK_RECONFIRM_AFTER_SECONDS',
} as const satisfies Record<string, keyof Config>;

const isSet = (value: string | undefined): value is string => value !== undefined && value !== '';

/** The old names `env` sets whose value the configuration takes (their new name is unset), each with its new name. */
export function deprecatedSettingsIn(
  env: Record<string, string | undefined>,
): { name: string; instead: keyof Config }[] {
  return Object.entries(DEPRECATED_SETTING_NAMES)
    .filter(([old, instead]) => isSet(env[old]) && !isSet(env[instead]))
    .map(([name, instead]) => ({ name, instead }));
}

/** One sentence per old setting name in use, for the process's log at start (one warning each). */
export function deprecatedSettingWarnings(env: Record<string, string | undefined> = process.env): string[] {
  return deprecatedSettingsIn(env).map(
    ({ name, instead }) =>
      `${name} is deprecated: set ${instead} instead (${name} is read only while ${instead} is unset)`,
  );
}

/**
 * Logs each old setting name in use once (the API and the worker call it at start). The operator
 * CLI reads the old names silently: its standard error is its answer, which scripts read.
 */
export function warnDeprecatedSettings(
  logger: { warn(message: string): void },
  env: Record<string, string | undefined> = process.env,
): void {
  for (const warning of deprecatedSettingWarnings(env)) logger.warn(warning);
}

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

/** One terminal's settings of PSP `psp` in `mode`, by suffix (`URL`, `PAGE_URL`, `TERMINAL_ID`, its profile's own): what its connector's client is made of. */
export function pspTerminalSettings(
  config: Pick<Config, PspSettingKey>,
  psp: PspName,
  mode: PspMode,
): Record<string, string> {
  return Object.fromEntries(
    pspSettings()
      .filter((s) => s.psp === psp && s.mode === mode)
      .map((s) => [s.suffix, config[s.name as PspSettingKey]]),
  );
}

/** The setting that holds PSP `psp`'s address in `mode`: a PSP is configured for a mode when it is non-empty. */
export const pspUrlSetting = (psp: PspName, mode: PspMode): PspSettingKey => pspSettingName(psp, mode, 'URL');

/** Whether PSP `psp` is configured for payments of `mode` (its address is set). */
export function pspConfigured(config: Pick<Config, PspSettingKey>, psp: PspName, mode: PspMode): boolean {
  return config[pspUrlSetting(psp, mode)] !== '';
}

/** The PSPs configured for `mode`, in the registry's order. */
export function configuredPsps(config: Pick<Config, PspSettingKey>, mode: PspMode): PspName[] {
  return PSP_NAMES.filter((psp) => pspConfigured(config, psp, mode));
}

/** The first PSP's live address setting that is set (SEP_BASE_URL, MELLAT_BASE_URL, …), named in a message; undefined when none is. */
const liveUrlSettingSet = (config: Pick<Config, PspSettingKey<PspName, 'live'>>) =>
  PSP_NAMES.map((psp) => pspUrlSetting(psp, 'live') as PspSettingKey<PspName, 'live'>).find(
    (name) => config[name] !== '',
  );

/**
 * Every address of the PSPs' pages the configuration gives (each PSP's URL and PAGE_URL of both modes,
 * those set), as origins: where the Pay button may send the customer's browser (the pages' form-action
 * policy). A PSP whose page is on another host than its service gives that host as its PAGE_URL.
 */
export function pspPageOrigins(config: Pick<Config, PspSettingKey>): string[] {
  const urls = pspSettings()
    .filter((s) => s.suffix === 'URL' || s.suffix === 'PAGE_URL')
    .map((s) => config[s.name as PspSettingKey])
    .filter((url) => url !== '');
  return [
    ...new Set(
      urls.flatMap((url) => {
        try {
          return [new URL(url).origin];
        } catch {
          return [];
        }
      }),
    ),
  ];
}

/** The settings production mode reads: NODE_ENV and every PSP's live address. */
export type ProductionModeSettings = Pick<Config, 'NODE_ENV' | PspSettingKey<PspName, 'live'>>;

/**
 * Production mode: NODE_ENV=production, or a live PSP configured (any PSP's live address:
 * SEP_BASE_URL, MELLAT_BASE_URL, …). A development machine (`npm start`, the tests) is neither.
 */
export function isProductionMode(config: ProductionModeSettings): boolean {
  return config.NODE_ENV === 'production' || livePspConfigured(config);
}

/** Whether any PSP is configured for live payments. */
export function livePspConfigured(config: Pick<Config, PspSettingKey<PspName, 'live'>>): boolean {
  return liveUrlSettingSet(config) !== undefined;
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

/** Settings whose value is a secret: never echoed in a message (the PSPs' passwords and keys among them). */
const SECRET_SETTINGS = new Set([
  'PAGES_CSRF_SECRET',
  'DASHBOARD_SECRETS_KEY',
  'CARD_HASH_KEY',
  'IDENTITY_API_KEY',
  'IDENTITY_SECRET_KEY',
  'SANDBOX_IDENTITY_SECRET_KEY',
  ...pspSettings()
    .filter((s) => s.secret)
    .map((s) => s.name),
]);

/**
 * A setting's value as an error message may echo it: a secret not at all, a
 * URL without its credentials (DATABASE_URL carries a password), even when
 * the URL is malformed.
 */
function shownValue(name: string, value: string): string {
  if (SECRET_SETTINGS.has(name)) return 'a value that is not shown';
  // Whatever stands before the last @ may be user:password, however malformed the rest.
  return JSON.stringify(
    value.replace(/^([a-z][a-z0-9+.-]*:\/*)?.*@/is, (_, scheme: string | undefined) => `${scheme ?? ''}***@`),
  );
}

/** The database part of a mysql:// URL ('' when the URL does not parse). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** The password of a mysql:// URL ('' when there is none or the URL does not parse). */
function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

/** The table of docs/CONFIGURATION.md, generated from the schema (a test keeps them equal). */
export function configurationTable(): string {
  const rows = Object.entries(ConfigSchema.properties).map(([name, schema]) => {
    const s = schema as { default?: unknown; description?: string };
    const def = s.default === '' ? '' : `\`${String(s.default)}\``;
    return `| \`${name}\` | ${def} | ${s.description ?? ''} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
