import { Type, type Static, type TString } from '@sinclair/typebox';
import { PSP_PROFILES, pspSettings, type PspSettingKey } from './psps/profiles.ts';

/** A setting's problem, in a sentence that names the setting: the process refuses to start with it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Each PSP's window of one kind, as its profile declares it (`sep 3000 s, mellat 10800 s`): the reversal
 * window after a verify of the PSPs that capture at their verify or at a separate settle, the time after
 * which an unverified payment is given back of those that verify only at the merchant's verify.
 */
function windowsOf(kind: 'verify' | 'merchant_verify'): string {
  return Object.values(PSP_PROFILES)
    .filter((profile) => (profile.capabilities.capture === 'merchant_verify') === (kind === 'merchant_verify'))
    .map(
      ({ name, capabilities }) =>
        `${name} ${(kind === 'merchant_verify' ? capabilities.unverifiedReversalMs : capabilities.reversalWindowMs) / 1000} s`,
    )
    .join(', ');
}

/**
 * Every setting the gateway reads from its environment, with defaults that
 * work on a developer machine. One schema validates and documents them; the
 * configuration table in docs/CONFIGURATION.md is generated from it.
 */
const Int = (opts: { default: number; minimum: number; maximum?: number; description: string }) => Type.Integer(opts);

/** Bounds on one MySQL query and on waiting for a pooled connection (src/db/database.ts uses them by default). */
export const DEFAULT_DATABASE_QUERY_TIMEOUT_MS = 5_000;
export const DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS = 3_000;
/** Payment workflows one worker keeps cached (WORKER_MAX_CACHED_WORKFLOWS): docs/OPERATIONS.md#a-workers-memory. */
export const DEFAULT_WORKER_MAX_CACHED_WORKFLOWS = 500;
/** Connections of one process's MySQL pool (DATABASE_POOL_SIZE); src/db/database.ts uses it by default. */
export const DEFAULT_DATABASE_POOL_SIZE = 20;
/** Two submissions of three files at their largest (5 MB each). */
export const DEFAULT_DOCUMENTS_QUOTA_BYTES = 2 * 3 * 5 * 1024 * 1024;

/**
 * The settings of every registered PSP in both modes (`SANDBOX_<PSP>_URL`, `<PSP>_BASE_URL`, …: their
 * names, defaults and descriptions are the profiles', pspSettings()), typed by name for the compiler.
 * SEP's were BANK_* and SANDBOX_BANK_*: config.ts still reads those as aliases.
 */
function pspSettingSchemas(): Record<PspSettingKey, TString> {
  return Object.fromEntries(
    pspSettings().map((s) => [s.name, Type.String({ default: s.default, description: s.description })]),
  ) as Record<PspSettingKey, TString>;
}

export const ConfigSchema = Type.Object({
  DATABASE_URL: Type.String({
    default: 'mysql://root@127.0.0.1:3306/dargah',
    pattern: '^mysql://',
    description: 'MySQL/MariaDB connection URL, database included',
  }),
  MIGRATE_DATABASE_URL: Type.String({
    default: '',
    pattern: '^(mysql://.*)?$',
    description:
      "npm run migrate: the MySQL user that owns the schema (DDL and the ledger's triggers), so the DATABASE_URL user needs only SELECT, INSERT, UPDATE and DELETE (deploy/mysql-init/01-users.sh); the same database as DATABASE_URL. Empty: DATABASE_URL (development)",
  }),
  DATABASE_QUERY_TIMEOUT_MS: Int({
    default: DEFAULT_DATABASE_QUERY_TIMEOUT_MS,
    minimum: 0,
    maximum: 600_000,
    description:
      'longest a MySQL query may go unanswered before its connection is dropped and the request answers 503 (a hung server, a long lock wait); 0: no limit (npm run migrate uses none)',
  }),
  DATABASE_ACQUIRE_TIMEOUT_MS: Int({
    default: DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
    minimum: 0,
    maximum: 600_000,
    description:
      'longest a request waits for a connection of the MySQL pool (all busy, or the server does not complete new ones) before it answers 503; 0: no limit',
  }),
  DATABASE_POOL_SIZE: Int({
    default: DEFAULT_DATABASE_POOL_SIZE,
    minimum: 1,
    maximum: 1_000,
    description:
      'the most MySQL connections one API or worker process opens; more queries wait for one (up to DATABASE_ACQUIRE_TIMEOUT_MS). Each costs the process its buffers and MySQL a thread: with N processes, MySQL needs max_connections above N times this (docs/OPERATIONS.md#a-workers-memory)',
  }),
  TEMPORAL_ADDRESS: Type.String({
    default: '127.0.0.1:7233',
    pattern: '^[^\\s:/]+:[0-9]+$',
    description: 'host:port of the Temporal frontend',
  }),
  TEMPORAL_NAMESPACE: Type.String({ default: 'default', minLength: 1, description: 'Temporal namespace' }),
  TEMPORAL_TASK_QUEUE: Type.String({
    default: 'payments',
    minLength: 1,
    description: 'task queue of the payment worker',
  }),
  TEMPORAL_NAMESPACE_RETENTION_DAYS: Int({
    default: 7,
    minimum: 1,
    maximum: 3650,
    description:
      "how long Temporal keeps a closed workflow's history (docs/RETENTION.md#temporal): npm start's dev server and the cluster suite set their namespace to it, a deployment sets it where it creates the namespace (the Helm values, docker-compose.yml); a worker warns at start when its namespace keeps histories for another period",
  }),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'address the API listens on' }),
  PORT: Int({ default: 3000, minimum: 0, maximum: 65535, description: 'port the API listens on' }),
  PUBLIC_BASE_URL: Type.String({
    default: '',
    description: 'public origin of the API and hosted pages; defaults to http://localhost:PORT',
  }),
  VERIFY_WINDOW_SECONDS: Int({
    default: 1800,
    minimum: 1,
    description: `time after payment in which verify must arrive; with BANK_PENDING_LIMIT_SECONDS, at most each configured PSP's reversal window (${windowsOf('verify')}), or the API and the worker refuse to start (docs/BANK.md#windows-from-the-psp); a PSP that verifies only at the merchant's verify and gives back unverified payments itself (${windowsOf('merchant_verify')}) takes only payments whose window ends 300 s before that, and is skipped by the route of any other`,
  }),
  PAYMENT_TTL_SECONDS: Int({ default: 900, minimum: 1, description: 'lifetime of the payment page (expires_at)' }),
  REFUND_WINDOW_SECONDS: Int({
    default: 15_552_000,
    minimum: 1,
    description: 'time after verify in which refunds are taken (180 days)',
  }),
  BANK_RECONFIRM_AFTER_SECONDS: Int({
    default: 10,
    minimum: 0,
    description:
      'how long a payment the bank answered "in progress" stays pending before the gateway asks the bank to confirm it again, in test and live mode alike (then at doubling intervals up to 5 minutes); was SANDBOX_DELAY_SECONDS, still read while this is unset (the simulator keeps SANDBOX_DELAY_SECONDS for its own "delay in verification")',
  }),
  BANK_PENDING_LIMIT_SECONDS: Int({
    default: 1200,
    minimum: 1,
    description:
      'how long a payment the bank keeps answering "in progress" stays pending before it fails with bank_unconfirmed (the bank is asked again after BANK_RECONFIRM_AFTER_SECONDS, then at doubling intervals up to 5 minutes)',
  }),
  BANK_TIMEOUT_MS: Int({
    default: 10_000,
    minimum: 100,
    maximum: 120_000,
    description: 'time the bank has to answer one call (token, confirm, settle, reverse, refund)',
  }),
  PSP_BREAKER_FAILURES: Int({
    default: 5,
    minimum: 1,
    maximum: 1000,
    description:
      "failed or timed-out token requests within PSP_BREAKER_WINDOW_SECONDS that open a PSP terminal's circuit breaker (docs/psps/routing.md)",
  }),
  PSP_BREAKER_WINDOW_SECONDS: Int({
    default: 60,
    minimum: 1,
    maximum: 86_400,
    description: 'the window in which PSP_BREAKER_FAILURES failures open the breaker',
  }),
  PSP_BREAKER_OPEN_SECONDS: Int({
    default: 30,
    minimum: 1,
    maximum: 86_400,
    description:
      'how long an open breaker keeps payments away from its PSP terminal before one probe is let through (half-open)',
  }),
  // Every PSP's settings in both modes, from the registry of profiles (src/psps/profiles.ts).
  ...pspSettingSchemas(),
  // The identity provider (docs/identity.md): a card's IBAN and owner, an IBAN's owner, for refunds paid to the card's account.
  IDENTITY_PROVIDER: Type.Union([Type.Literal('jibit')], {
    default: 'jibit',
    description:
      "the identity provider's API both modes speak (docs/identity.md): `jibit`, Jibit's identity service (its simulator in test mode)",
  }),
  IDENTITY_BASE_URL: Type.String({
    default: '',
    pattern: '^(https?://.*)?$',
    description:
      "live mode: the identity provider's base address (Jibit: https://napi.jibit.ir/ide); empty: live mode has no identity provider (refunds to a card's account cannot be made). API only: the refund-claim page asks it inside the customer's request",
  }),
  IDENTITY_API_KEY: Type.String({
    default: '',
    description: "live mode: the identity provider's API key (Jibit's apiKey); API only",
  }),
  IDENTITY_SECRET_KEY: Type.String({
    default: '',
    description: "live mode: the identity provider's secret key (Jibit's secretKey), a secret; API only",
  }),
  SANDBOX_IDENTITY_URL: Type.String({
    default: 'http://127.0.0.1:3120/ide',
    pattern: '^(https?://.*)?$',
    description:
      "test mode: the identity provider's simulator (`BANK_SIM_PROTOCOL=jibit-identity npm run bank-sim`; `npm start` runs it); empty: test mode has no identity provider",
  }),
  SANDBOX_IDENTITY_API_KEY: Type.String({
    default: 'dargah-identity-test-key',
    description: "test mode: the API key the identity provider's simulator takes (its BANK_SIM_API_KEY)",
  }),
  SANDBOX_IDENTITY_SECRET_KEY: Type.String({
    default: 'dargah-identity-test-secret',
    description: "test mode: the secret key the identity provider's simulator takes (its BANK_SIM_SECRET_KEY)",
  }),
  IDENTITY_TIMEOUT_MS: Int({
    default: 5_000,
    minimum: 100,
    maximum: 60_000,
    description:
      "time the identity provider has to answer one call (its token, a card's or an IBAN's inquiry); the customer's request waits for it",
  }),
  // Direct debit (docs/SUBSCRIPTIONS.md): ZarinPal's Payman, the mandates' provider in both modes.
  PAYMAN_BASE_URL: Type.String({
    default: '',
    pattern: '^(https?://.*)?$',
    description:
      "live mode: ZarinPal's API for direct debit (https://api.zarinpal.com); empty: live mode has no direct debit",
  }),
  PAYMAN_PAGE_URL: Type.String({
    default: 'https://www.zarinpal.com',
    pattern: '^https?://.*$',
    description: "live mode: where customers' browsers reach ZarinPal's signing page (/pg/StartPayman/…)",
  }),
  PAYMAN_MERCHANT_ID: Type.String({
    default: '',
    description:
      "live mode: the merchant's 36-character id at ZarinPal that direct debits are made under, a secret (ZarinPal's only credential); API and worker",
  }),
  SANDBOX_PAYMAN_URL: Type.String({
    default: 'http://127.0.0.1:3130',
    pattern: '^(https?://.*)?$',
    description:
      "test mode: ZarinPal Payman's simulator (src/direct-debit/providers/zarinpal/simulator-main.ts; `npm start` runs it); empty: test mode has no direct debit",
  }),
  SANDBOX_PAYMAN_MERCHANT_ID: Type.String({
    default: '9a3c1e52-7d1b-4c0e-8f43-2b6d5a7e9c10',
    description: 'test mode: the merchant id the Payman simulator takes (its BANK_SIM_MERCHANT_ID)',
  }),
  DIRECT_DEBIT_TIMEOUT_MS: Int({
    default: 10_000,
    minimum: 100,
    maximum: 60_000,
    description: 'time the direct debit provider has to answer one call (a mandate request, a signature, a debit)',
  }),
  SETTLEMENT_CRON: Type.String({
    default: '30 0 * * *',
    pattern: '^\\S+( \\S+){4}$',
    description:
      'settlement: when the daily run starts, a five-field cron expression in Asia/Tehran time (default 00:30)',
  }),
  SETTLEMENT_HOLD_HOURS: Int({
    default: 24,
    minimum: 0,
    maximum: 24 * 90,
    description:
      'settlement: a live payment is settled once it has been verified this long (a margin for disputes and refunds)',
  }),
  STUCK_SWEEP_INTERVAL_SECONDS: Int({
    default: 300,
    minimum: 1,
    maximum: 86_400,
    description:
      'worker: how often the stuck-records sweep runs (a Temporal Schedule; docs/RELIABILITY.md#waiting-states)',
  }),
  STUCK_AFTER_SECONDS: Int({
    default: 600,
    minimum: 1,
    description:
      "a refund pending, a payout without an answer or an event without a delivery this long is sent on by the sweep; added to each waiting state's own window before `cli stuck` and the dargah_stuck_records metric raise it",
  }),
  STUCK_SWEEP_BATCH_SIZE: Int({
    default: 100,
    minimum: 1,
    maximum: 10_000,
    description: 'worker: records of each kind one sweep run sends on at most; the next run goes on',
  }),
  AMOUNT_MIN: Int({ default: 10_000, minimum: 1, description: 'smallest payment amount in rials' }),
  AMOUNT_MAX: Int({
    default: 500_000_000,
    minimum: 1,
    description:
      "largest payment amount in rials, and the largest sum a customer is charged (amount + fee when the customer pays it); keep it at or below the PSP's per-transaction limit",
  }),
  FEE_BPS: Int({ default: 100, minimum: 0, maximum: 10_000, description: 'default fee in basis points of the amount' }),
  FEE_MIN: Int({ default: 1_000, minimum: 0, description: 'default minimum fee in rials' }),
  FEE_MAX: Int({ default: 400_000, minimum: 0, description: 'default maximum fee in rials' }),
  IDEMPOTENCY_TTL_SECONDS: Int({
    default: 86_400,
    minimum: 60,
    description: 'how long Idempotency-Key records are kept',
  }),
  EVENT_RETENTION_DAYS: Int({
    default: 90,
    minimum: 7,
    maximum: 3650,
    description:
      "events and their webhook attempts older than this are pruned (docs/RETENTION.md): the API lists and redelivers events, and the dashboard shows them, this long; longer than a delivery's whole retry schedule",
  }),
  REJECTED_DOCUMENTS_RETENTION_DAYS: Int({
    default: 90,
    minimum: 1,
    maximum: 3650,
    description:
      "business documents the operator rejected are pruned (rows and files) once the merchant's documents have stood rejected this long without a new set",
  }),
  RETENTION_BATCH_SIZE: Int({
    default: 500,
    minimum: 1,
    maximum: 10_000,
    description: 'worker: rows one statement of the retention workflow deletes at most (short statements, short locks)',
  }),
  RETENTION_MAX_BATCHES: Int({
    default: 100,
    minimum: 1,
    maximum: 10_000,
    description: 'worker: batches per table in one retention run (every 10 minutes) at most; the next run goes on',
  }),
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
  WEBHOOK_RETRY_SCHEDULE_SECONDS: Type.String({
    // 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h steps until the retries span about 3 days (77.6 h): docs/WEBHOOKS.md#deliveries.
    default: '0,5,300,1800,7200,18000,36000,36000,36000,36000,36000,36000,36000',
    pattern: '^[0-9]{1,7}(,[0-9]{1,7}){0,19}$',
    description:
      'webhook delivery: seconds to wait before each attempt (the first is usually 0); the default spans about 3 days',
  }),
  WEBHOOK_TIMEOUT_MS: Int({
    default: 10_000,
    minimum: 100,
    maximum: 120_000,
    description: 'webhook delivery: time a receiver has to answer one attempt',
  }),
  WEBHOOK_SECRET_ROTATION_SECONDS: Int({
    default: 86_400,
    minimum: 0,
    description: 'after rotate_secret, how long the old webhook secret still signs deliveries alongside the new one',
  }),
  WEBHOOK_ALLOW_LOOPBACK_IN_TEST: Type.Boolean({
    default: false,
    description:
      "test mode: allow webhook endpoints on localhost/127.0.0.1 (any port) for local development; `npm start` and the tests turn it on. Never on a shared server: a test key could reach the worker host's own services",
  }),
  WEBHOOK_ALLOWED_PORTS: Type.String({
    default: '',
    pattern: '^([0-9]{1,5}(,[0-9]{1,5}){0,31})?$',
    description: 'webhook URLs may use ports 443 and 80; this comma-separated list allows more (e.g. 8443)',
  }),
  WEBHOOK_ALLOWED_NETWORKS: Type.String({
    default: '',
    description:
      "networks of your own (comma-separated CIDRs, e.g. 10.20.0.0/16) where merchants' webhook receivers may be, in both modes, although private: a merchant's server on the operator's network. Only for the merchants you allow there (`npm run cli -- merchants allow-operator-network --merchant <id>`); never a loopback, link-local, multicast, reserved or other special-use range nor one wider than a /8 (refused at start). Live mode still wants https; empty: only public addresses (docs/WEBHOOKS.md#receivers-on-the-operators-network)",
  }),
  WEBHOOK_CA_FILE: Type.String({
    default: '',
    description:
      'a PEM file of the certificate authority that signs receivers on WEBHOOK_ALLOWED_NETWORKS (an internal CA), trusted for them besides the public roots; empty: the public roots only',
  }),
  WEBHOOK_WORKER_MAX_CONCURRENT_ATTEMPTS: Int({
    default: 40,
    minimum: 1,
    description:
      'worker: webhook attempts one worker process runs at once, on the webhook task queue (<TEMPORAL_TASK_QUEUE>-webhooks), apart from the payment slots',
  }),
  WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_MERCHANT: Int({
    default: 5,
    minimum: 1,
    description:
      "worker: webhook attempts of one merchant a worker process runs at once; the merchant's other attempts wait for a slot, so one slow receiver cannot take every slot",
  }),
  WEBHOOK_REDELIVERIES_PER_MINUTE: Int({
    default: 30,
    minimum: 0,
    description:
      'POST /events/{id}/redeliver requests a merchant may make per minute and mode (0: unlimited); beyond it 429 rate_limited',
  }),
  WORKER_MAX_CACHED_WORKFLOWS: Int({
    default: DEFAULT_WORKER_MAX_CACHED_WORKFLOWS,
    minimum: 0,
    maximum: 100_000,
    description:
      "worker: payment workflows kept in memory between their tasks (the Temporal SDK's sticky cache; one evicted is replayed from its short history at its next task). With the heap limit (NODE_OPTIONS=--max-old-space-size) it bounds the worker's memory: docs/OPERATIONS.md#a-workers-memory. 0: the SDK's own sizing from the heap limit (about 600 per GiB)",
  }),
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
  SMTP_URL: Type.String({
    default: '',
    pattern: '^(smtps?://.*)?$',
    description:
      'dashboard email (address confirmation): SMTP server as smtp://user:pass@host:port or smtps://…; empty: each email is printed to standard output instead',
  }),
  NODE_ENV: Type.String({
    default: '',
    description:
      '`production` (the image sets it) turns on production mode, as any live PSP address (SEP_BASE_URL, MELLAT_BASE_URL, …) does: the API and the worker then refuse to start without SMTP_URL, so confirmation and reset links are mailed, never printed',
  }),
  MAIL_FROM: Type.String({
    default: 'Dargah <no-reply@localhost>',
    minLength: 3,
    description: 'dashboard email: the From address',
  }),
  DASHBOARD_SIGN_UPS_PER_CLIENT_PER_HOUR: Int({
    default: 20,
    minimum: 0,
    description:
      'dashboard: sign-ups one client address may make per hour (0: unlimited); beyond it the same answer and nothing done (no hash, merchant, key, workflow or email)',
  }),
  DASHBOARD_SESSION_IDLE_SECONDS: Int({
    default: 1_800,
    minimum: 60,
    description: 'dashboard: a session unused this long ends (30 min)',
  }),
  DASHBOARD_SESSION_MAX_SECONDS: Int({
    default: 43_200,
    minimum: 60,
    description: 'dashboard: a session ends this long after sign-in, however active (12 h)',
  }),
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
  REVIEW_REMINDER_HOURS: Type.Number({
    default: 24,
    exclusiveMinimum: 0,
    maximum: 8_760,
    description:
      'worker: a gateway request under review this long (hours, fractions allowed) raises an operator reminder: a warning in the log and a review_reminder row in onboarding_events',
  }),
  DOCUMENTS_DIR: Type.String({
    default: '.data/documents',
    minLength: 1,
    description:
      "where the merchants' uploaded business documents are kept (relative to the working directory unless absolute); never inside the source tree or anything served. API processes write it, the operator CLI reads it, workers prune the rejected ones (docs/RETENTION.md): give them all the same directory",
  }),
  DOMAIN_VERIFICATION_URL: Type.String({
    default: 'https://{domain}/.well-known/dargah-domain-verification.txt',
    pattern: '^https?://.*\\{domain\\}',
    description:
      "where the gateway fetches a merchant's domain verification file, `{domain}` standing for the domain; a domain is a live callback domain only once the file there holds its token (tests point it at a local server)",
  }),
  DOCUMENTS_QUOTA_BYTES: Int({
    default: DEFAULT_DOCUMENTS_QUOTA_BYTES,
    minimum: 1_048_576,
    description:
      "the most bytes of business documents one merchant may keep in DOCUMENTS_DIR (every submission's files; the sets the operator rejected are pruned when new files replace them, or after REJECTED_DOCUMENTS_RETENTION_DAYS); a submission beyond it is refused and nothing of it is stored",
  }),
  METRICS_HOST: Type.String({
    default: '127.0.0.1',
    minLength: 1,
    description:
      'address the Prometheus /metrics endpoints of the API and the worker listen on (never the public API); docs/OPERATIONS.md',
  }),
  API_METRICS_PORT: Int({
    default: 9464,
    minimum: 0,
    maximum: 65535,
    description: "port of the API process's /metrics (0: a free port, logged)",
  }),
  WORKER_METRICS_PORT: Int({
    default: 9465,
    minimum: 0,
    maximum: 65535,
    description:
      "port of the worker process's /metrics: its own metrics followed by the Temporal SDK's (0: a free port, logged)",
  }),
  TEMPORAL_SDK_METRICS_PORT: Int({
    default: 9466,
    minimum: 0,
    maximum: 65535,
    description:
      "worker: port on METRICS_HOST of the Temporal SDK's own Prometheus exporter, which WORKER_METRICS_PORT's /metrics reads and appends (0: a free port)",
  }),
  TEMPORAL_UI_URL: Type.String({
    default: 'http://localhost:8233',
    pattern: '^https?://',
    description: 'the Temporal Web UI, for the links `npm run cli -- payments show` prints',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level' },
  ),
});

export type Config = Static<typeof ConfigSchema>;
