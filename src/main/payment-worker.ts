/**
 * The payment worker: the workflow bundle and every activity, with their
 * real dependencies (MySQL, the bank, the Temporal client for webhook
 * deliveries). Built here, in an entry point, because the worker is where
 * workflows and activities meet.
 */
import { directDebitProviders } from '../direct-debit/providers/registry.ts';
import { admitSubscriptionCharge } from '../direct-debit/subscriptions.ts';
import { customerUrlOf } from '../direct-debit/customer-links.ts';
import { secretBox } from '../accounts/secret-box.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  bundleWorkflowCode,
  NativeConnection,
  Runtime,
  Worker,
  type LogLevel,
  type WorkflowBundleOption,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { createActivities } from '../../activities/index.ts';
import { documentStore } from '../adapters/document-store.ts';
import { createWebhookActivities, type WebhookActivities } from '../../activities/webhooks.ts';
import { PayaPayouts } from '../adapters/payout.ts';
import { SepClient } from '../psps/sep/client.ts';
import { configuredTerminals, pspClientsFromConfig, type PspClients } from '../psps/clients.ts';
import { breakerGaugeValue, breakerSettings } from '../domain/psp-breaker.ts';
import { PspHealthStore } from '../db/psp-health.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { webhookTaskQueue } from '../domain/webhook-delivery.ts';
import { serializeError, type Logger } from '../logger.ts';
import { createMailer, type Mailer } from '../adapters/mailer.ts';
import {
  temporalWorkerTracing,
  tracingActive,
  tracingConfigured,
  WORKFLOW_TRACING_MODULE,
} from '../observability/tracing.ts';
import { readPspBreakersWith } from '../observability/metrics.ts';
import { cachedWorkflowBundle } from './workflow-bundle-cache.ts';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/**
 * The workflow bundle `npm run build` makes ahead of time (dist/workflow-bundle.js, beside the
 * compiled code this module becomes). A compiled worker runs only it: it starts without webpack,
 * and every worker of one build runs the same workflow code. From the sources (Node running TypeScript) there is
 * none, and the worker bundles the workflows when it starts.
 */
export const PREBUILT_BUNDLE_PATH = fileURLToPath(new URL('../../workflow-bundle.js', import.meta.url));

/** The bundle a worker process runs: the prebuilt one when this is compiled code (refusing to start without it), else undefined (bundle at start). */
export function prebuiltWorkflowBundle(compiled = import.meta.url.endsWith('.js')): WorkflowBundleOption | undefined {
  if (!compiled) return undefined;
  if (!existsSync(PREBUILT_BUNDLE_PATH))
    throw new Error(
      `the workflow bundle ${PREBUILT_BUNDLE_PATH} is missing: run \`npm run build\`, which makes it with the compiled code.`,
    );
  return { codePath: PREBUILT_BUNDLE_PATH };
}

/**
 * Bundles the workflow code once; tests and benchmarks reuse the bundle across workers. With
 * `tracing` (by default: when an OTLP collector is configured) the OpenTelemetry workflow
 * interceptors are bundled in; they emit no commands, so histories replay with or without them
 * (the suite's bundle has them: its replay tests prove it on the committed histories).
 */
export function bundleWorkflows({
  tracing = tracingConfigured(),
}: { tracing?: boolean } = {}): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    ...(tracing ? { workflowInterceptorModules: [WORKFLOW_TRACING_MODULE] } : {}),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
  });
}

/** bundleWorkflows, or the bundle it made before from the same sources (workflow-bundle-cache.ts). */
export function sourcesWorkflowBundle(tracing: boolean): Promise<WorkflowBundleWithSourceMap> {
  return cachedWorkflowBundle(tracing, () => bundleWorkflows({ tracing }));
}

let runtimeInstalled = false;
/**
 * Sends the Temporal SDK's own logs (warnings and worse) to our structured logger and, given
 * `prometheusAddress` (host:port), serves the SDK's worker metrics there (worker.ts appends
 * them to the worker's /metrics). Once per process: the first call decides.
 */
export function installTemporalRuntime(logger: Logger, prometheusAddress?: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const forward = (level: LogLevel, message: string, meta?: Record<string, unknown>) => {
    const target = level === 'ERROR' ? 'error' : level === 'WARN' ? 'warn' : 'debug';
    // The SDK logs an activity's failure as its error object, under any name: each goes through the allow-list.
    const safe = Object.fromEntries(
      Object.entries(meta ?? {}).map(([k, v]) => [k, v instanceof Error ? serializeError(v) : v]),
    );
    logger[target]({ component: 'temporal-sdk', ...safe }, message);
  };
  Runtime.install({
    ...(prometheusAddress === undefined
      ? {}
      : {
          telemetryOptions: {
            metrics: { prometheus: { bindAddress: prometheusAddress, useSecondsForDurations: true } },
          },
        }),
    logger: {
      log: forward,
      trace: (m, meta) => forward('TRACE', m, meta),
      debug: (m, meta) => forward('DEBUG', m, meta),
      info: (m, meta) => forward('INFO', m, meta),
      warn: (m, meta) => forward('WARN', m, meta),
      error: (m, meta) => forward('ERROR', m, meta),
    },
  });
}

export interface PaymentWorkerOptions {
  config: Pick<
    Config,
    | 'TEMPORAL_ADDRESS'
    | 'TEMPORAL_NAMESPACE'
    | 'TEMPORAL_TASK_QUEUE'
    | 'WEBHOOK_RETRY_SCHEDULE_SECONDS'
    | 'WEBHOOK_TIMEOUT_MS'
    | 'WEBHOOK_ALLOW_LOOPBACK_IN_TEST'
    | 'WEBHOOK_ALLOWED_PORTS'
    | 'WEBHOOK_ALLOWED_NETWORKS'
    | 'WEBHOOK_CA_FILE'
    | 'SETTLEMENT_HOLD_HOURS'
    | 'REFUND_WINDOW_SECONDS'
    | 'PSP_BREAKER_FAILURES'
    | 'PSP_BREAKER_WINDOW_SECONDS'
    | 'PSP_BREAKER_OPEN_SECONDS'
    | 'PAYMAN_BASE_URL'
    | 'PAYMAN_PAGE_URL'
    | 'PAYMAN_MERCHANT_ID'
    | 'SANDBOX_PAYMAN_URL'
    | 'SANDBOX_PAYMAN_MERCHANT_ID'
    | 'DIRECT_DEBIT_TIMEOUT_MS'
    | 'DASHBOARD_SECRETS_KEY'
    | 'PAYMENT_TTL_SECONDS'
    | 'AMOUNT_MAX'
  > &
    Partial<
      Pick<
        Config,
        | 'WORKER_MAX_CACHED_WORKFLOWS'
        | 'WEBHOOK_WORKER_MAX_CONCURRENT_ATTEMPTS'
        | 'WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_MERCHANT'
      >
    > &
    Pick<Config, 'REVIEW_REMINDER_HOURS' | 'PUBLIC_BASE_URL' | 'SMTP_URL' | 'MAIL_FROM' | 'CARD_HASH_KEY'> &
    Pick<
      Config,
      'EVENT_RETENTION_DAYS' | 'REJECTED_DOCUMENTS_RETENTION_DAYS' | 'DASHBOARD_SESSION_IDLE_SECONDS' | 'DOCUMENTS_DIR'
    > &
    Parameters<typeof pspClientsFromConfig>[0];
  db: Db;
  /** Lets activities start webhook deliveries as workflows of their own. */
  temporal: Client;
  logger: Logger;
  /** Made by bundleWorkflows (tests, the benchmark) or ahead of time (prebuiltWorkflowBundle); else bundled at start. */
  bundle?: WorkflowBundleOption;
  connection?: NativeConnection;
  /** Webhook activities shared with the webhook worker (one count of each merchant's attempts per process). */
  webhookActivities?: WebhookActivities;
  /** The onboarding decision emails; by default SMTP_URL's server (or standard output without one). */
  mailer?: Mailer;
  /** The PSP terminals per mode; by default those of the configuration (a test gives terminals of its own simulators). */
  psps?: PspClients;
}

/**
 * The workflow code and what traces need: bundled here with the workflow interceptors when tracing
 * is on (a given bundle was made by bundleWorkflows); the sink they export through is always given.
 */
function workflowCode(bundle: WorkflowBundleOption | undefined) {
  const tracing = temporalWorkerTracing();
  const code =
    bundle === undefined
      ? { workflowsPath: WORKFLOWS_PATH, bundlerOptions: { ignoreModules: [] } }
      : { workflowBundle: bundle };
  const workflowModules = bundle === undefined && tracingActive() ? { workflowModules: [WORKFLOW_TRACING_MODULE] } : {};
  return {
    ...code,
    interceptors: { activity: tracing.activityInterceptors, ...workflowModules },
    sinks: tracing.sinks,
  };
}

/**
 * The worker of the payment task queue: payment workflows and every
 * activity. It keeps the webhook delivery workflow and its activities too, so
 * that deliveries started on this queue before deliveries got their own
 * queue finish here (they replay their history; nothing new starts here).
 */
export async function createPaymentWorker({
  config,
  db,
  temporal,
  logger,
  bundle,
  connection,
  webhookActivities,
  mailer,
  psps,
}: PaymentWorkerOptions): Promise<Worker> {
  installTemporalRuntime(logger);
  if (config.CARD_HASH_KEY === '')
    logger.warn(
      'CARD_HASH_KEY is not set: the allowed cards of payments are hashed under a public key (set it in production)',
    );
  const conn = connection ?? (await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS }));
  const configured = pspClientsFromConfig(config);
  const clients = psps ?? configured;
  const health = new PspHealthStore(db, breakerSettings(config));
  const terminals = (['test', 'live'] as const).flatMap((mode) =>
    configuredTerminals(clients, mode).map((t) => ({ mode, ...t })),
  );
  readPspBreakersWith(async () =>
    (await health.states(terminals)).map((h) => ({
      psp: h.psp,
      terminal: h.terminal_id,
      mode: h.mode,
      value: breakerGaugeValue(h.state),
    })),
  );
  // The simulator's SEP terminal a test gives, else the configuration's (none when SANDBOX_SEP_URL is empty).
  const testPayoutBank = clients.test.sep instanceof SepClient ? clients.test.sep : configured.test.sep;
  const activities = createActivities({
    db,
    psps: clients,
    health,
    // Payouts go through the live SEP terminal: settlement is of live money only.
    payouts: configured.live.sep === undefined ? undefined : new PayaPayouts(configured.live.sep),
    // A refund paid to an IBAN goes through its mode's bank: the simulator's test terminal (the one this
    // worker speaks to, a test's own when it gives one), the live SEP terminal for live money.
    refundPayouts: {
      ...(testPayoutBank === undefined ? {} : { test: new PayaPayouts(testPayoutBank) }),
      ...(configured.live.sep === undefined ? {} : { live: new PayaPayouts(configured.live.sep) }),
    },
    logger: logger.child({ component: 'activities' }),
    temporal,
    config,
    mailer: mailer ?? createMailer(config),
    documents: documentStore(config),
    // The same box as the dashboard's two-step secrets (docs/SUBSCRIPTIONS.md#mandates).
    directDebit: {
      providers: directDebitProviders(config),
      box: secretBox(config.DASHBOARD_SECRETS_KEY),
      // A subscription's charge goes through the debit service's one admission.
      admitCharge: (asked) => admitSubscriptionCharge({ db, config }, asked),
      // Each subscription event carries the customer's signed page, as the API's answers do.
      customerUrl: customerUrlOf(config),
    },
  });
  return Worker.create({
    connection: conn,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    ...workflowCode(bundle),
    ...(config.WORKER_MAX_CACHED_WORKFLOWS ? { maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS } : {}),
    activities: { ...activities, ...webhookActivities },
  });
}

/** Webhook delivery workflows kept in memory between their tasks: they sleep for minutes to hours between attempts. */
const WEBHOOK_CACHED_WORKFLOWS = 200;

/**
 * The worker of the webhook task queue (<TEMPORAL_TASK_QUEUE>-webhooks):
 * delivery workflows and their activities only, with slots of their own
 * (WEBHOOK_WORKER_MAX_CONCURRENT_ATTEMPTS), so receivers that hang until
 * their timeout can only make other deliveries wait, never a payment.
 */
export async function createWebhookWorker({
  config,
  db,
  temporal,
  logger,
  bundle,
  connection,
  webhookActivities,
}: PaymentWorkerOptions): Promise<Worker> {
  installTemporalRuntime(logger);
  const conn = connection ?? (await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS }));
  const activities =
    webhookActivities ??
    createWebhookActivities({ db, logger: logger.child({ component: 'activities' }), temporal, config });
  const slots = config.WEBHOOK_WORKER_MAX_CONCURRENT_ATTEMPTS ?? 40;
  return Worker.create({
    connection: conn,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: webhookTaskQueue(config.TEMPORAL_TASK_QUEUE),
    ...workflowCode(bundle),
    maxCachedWorkflows: WEBHOOK_CACHED_WORKFLOWS,
    maxConcurrentWorkflowTaskExecutions: 10,
    maxConcurrentActivityTaskExecutions: slots,
    activities,
  });
}

/** Both workers of a worker process, over one connection, sharing the webhook activities (and their per-merchant count). */
export async function createWorkers(options: PaymentWorkerOptions): Promise<{ payments: Worker; webhooks: Worker }> {
  installTemporalRuntime(options.logger);
  const connection =
    options.connection ?? (await NativeConnection.connect({ address: options.config.TEMPORAL_ADDRESS }));
  const webhookActivities =
    options.webhookActivities ??
    createWebhookActivities({
      db: options.db,
      logger: options.logger.child({ component: 'activities' }),
      temporal: options.temporal,
      config: options.config,
    });
  // From the sources, one bundle for both workers (each would otherwise bundle the same code again),
  // kept on disk for the next start while the sources stay the same (workflow-bundle-cache.ts).
  const bundle = options.bundle ?? (await sourcesWorkflowBundle(tracingActive()));
  const shared = { ...options, connection, webhookActivities, bundle };
  return { payments: await createPaymentWorker(shared), webhooks: await createWebhookWorker(shared) };
}
