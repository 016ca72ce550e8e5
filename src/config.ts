import { Type, type Static } from '@sinclair/typebox';
import { Ajv } from 'ajv';

/**
 * Every setting the gateway reads from its environment, with defaults that
 * work on a developer machine. One schema validates and documents them; the
 * configuration table in docs/CONFIGURATION.md is generated from it.
 */
const Int = (opts: { default: number; minimum: number; maximum?: number; description: string }) =>
  Type.Integer(opts);

export const ConfigSchema = Type.Object({
  DATABASE_URL: Type.String({
    default: 'mysql://root@127.0.0.1:3306/dargah',
    pattern: '^mysql://',
    description: 'MySQL/MariaDB connection URL, database included',
  }),
  TEMPORAL_ADDRESS: Type.String({
    default: '127.0.0.1:7233',
    pattern: '^[^\\s:/]+:[0-9]+$',
    description: 'host:port of the Temporal frontend',
  }),
  TEMPORAL_NAMESPACE: Type.String({ default: 'default', minLength: 1, description: 'Temporal namespace' }),
  TEMPORAL_TASK_QUEUE: Type.String({ default: 'payments', minLength: 1, description: 'task queue of the payment worker' }),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'address the API listens on' }),
  PORT: Int({ default: 3000, minimum: 0, maximum: 65535, description: 'port the API listens on' }),
  PUBLIC_BASE_URL: Type.String({
    default: '',
    description: 'public origin of the API and hosted pages; defaults to http://localhost:PORT',
  }),
  VERIFY_WINDOW_SECONDS: Int({ default: 1800, minimum: 1, description: 'time after payment in which verify must arrive' }),
  PAYMENT_TTL_SECONDS: Int({ default: 900, minimum: 1, description: 'lifetime of the payment page (expires_at)' }),
  REFUND_WINDOW_SECONDS: Int({ default: 15_552_000, minimum: 1, description: 'time after verify in which refunds are taken (180 days)' }),
  SANDBOX_DELAY_SECONDS: Int({ default: 10, minimum: 0, description: 'test mode: how long a payment stays pending before the gateway asks the bank to confirm it again (the simulator answers "in progress" for its own SANDBOX_DELAY_SECONDS)' }),
  BANK_BASE_URL: Type.String({
    default: '',
    description: "live mode: the PSP's IPG address (token, payment page, verify/settle/reverse/refund), e.g. https://sep.shaparak.ir; empty: live payments cannot be paid",
  }),
  BANK_TERMINAL_ID: Type.String({ default: '', description: 'live mode: the terminal id the PSP gave you' }),
  BANK_PASSWORD: Type.String({ default: '', description: "live mode: the terminal's password for server-to-server calls, if the PSP wants one" }),
  BANK_TIMEOUT_MS: Int({ default: 10_000, minimum: 100, maximum: 120_000, description: 'time the bank has to answer one call (token, confirm, settle, reverse, refund)' }),
  SANDBOX_BANK_URL: Type.String({
    default: 'http://127.0.0.1:3100',
    description: 'test mode: the bank simulator (`npm run bank-sim`), the same protocol as a live PSP',
  }),
  SANDBOX_BANK_TERMINAL_ID: Type.String({ default: '11223344', minLength: 1, description: "test mode: the simulator's terminal id" }),
  AMOUNT_MIN: Int({ default: 10_000, minimum: 1, description: 'smallest payment amount in rials' }),
  AMOUNT_MAX: Int({ default: 500_000_000, minimum: 1, description: 'largest payment amount in rials' }),
  FEE_BPS: Int({ default: 100, minimum: 0, maximum: 10_000, description: 'default fee in basis points of the amount' }),
  FEE_MIN: Int({ default: 1_000, minimum: 0, description: 'default minimum fee in rials' }),
  FEE_MAX: Int({ default: 400_000, minimum: 0, description: 'default maximum fee in rials' }),
  IDEMPOTENCY_TTL_SECONDS: Int({ default: 86_400, minimum: 60, description: 'how long Idempotency-Key records are kept' }),
  PAGES_CSRF_SECRET: Type.String({
    default: '',
    description: 'secret (32+ characters) that signs the CSRF tokens of the hosted pages; set the same value on every API process (empty: a random one per process)',
  }),
  BODY_LIMIT_BYTES: Int({ default: 65_536, minimum: 1_024, description: 'largest accepted request body' }),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: Type.String({
    // 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h steps until the retries span about 3 days (77.6 h): docs/WEBHOOKS.md#deliveries.
    default: '0,5,300,1800,7200,18000,36000,36000,36000,36000,36000,36000,36000',
    pattern: '^[0-9]{1,7}(,[0-9]{1,7}){0,19}$',
    description: 'webhook delivery: seconds to wait before each attempt (the first is usually 0); the default spans about 3 days',
  }),
  WEBHOOK_TIMEOUT_MS: Int({ default: 10_000, minimum: 100, maximum: 120_000, description: 'webhook delivery: time a receiver has to answer one attempt' }),
  WEBHOOK_SECRET_ROTATION_SECONDS: Int({
    default: 86_400,
    minimum: 0,
    description: 'after rotate_secret, how long the old webhook secret still signs deliveries alongside the new one',
  }),
  WEBHOOK_ALLOW_LOOPBACK_IN_TEST: Type.Boolean({
    default: true,
    description: 'test mode: allow webhook endpoints on localhost/127.0.0.1 for local development (set false on a shared server)',
  }),
  WORKER_MAX_CACHED_WORKFLOWS: Int({
    default: 0,
    minimum: 0,
    description: 'worker: payment workflows kept in memory between their tasks (0: the Temporal SDK default, sized from the heap); bounds worker memory, see docs/BENCHMARKS.md',
  }),
  RATE_LIMIT_STORE: Type.Union([Type.Literal('mysql'), Type.Literal('memory')], {
    default: 'mysql',
    description: 'where request counters live: `mysql` (one count shared by every API process, exact) or `memory` (per process: N processes allow N times the limit)',
  }),
  RATE_LIMIT_REQUESTS: Int({ default: 1_200, minimum: 0, description: 'API requests one key may make per RATE_LIMIT_WINDOW_SECONDS (0: unlimited); beyond it 429 rate_limited' }),
  RATE_LIMIT_WINDOW_SECONDS: Int({ default: 60, minimum: 1, maximum: 86_400, description: 'length of the fixed window of RATE_LIMIT_REQUESTS' }),
  TEST_PAYMENTS_PER_MINUTE: Int({ default: 120, minimum: 0, description: 'payments a merchant may create per minute in test mode (0: unlimited); beyond it 429 rate_limited' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level' },
  ),
});

export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
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
  const input: Record<string, unknown> = { ...raw };
  if (!validateConfig(input)) {
    const problems = (validateConfig.errors ?? []).map((e) => {
      const name = e.instancePath.replace(/^\//, '');
      const got = raw[name] === undefined ? '' : ` (got ${JSON.stringify(raw[name])})`;
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
  if (config.PUBLIC_BASE_URL === '') {
    config.PUBLIC_BASE_URL = `http://localhost:${config.PORT}`;
  } else {
    let url: URL;
    try {
      url = new URL(config.PUBLIC_BASE_URL);
    } catch {
      throw new ConfigError(`Invalid configuration: PUBLIC_BASE_URL must be an absolute http(s) URL (got ${JSON.stringify(config.PUBLIC_BASE_URL)})`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConfigError('Invalid configuration: PUBLIC_BASE_URL must use http or https');
    }
    config.PUBLIC_BASE_URL = config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  }
  return config;
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
