/**
 * Every setting the gateway reads from its environment, with defaults that
 * work on a developer machine. One schema validates and documents them; the
 * configuration table in docs/CONFIGURATION.md is generated from it. This
 * module composes it from the settings of each area, one file an area, under
 * src/config-schema/:
 * - database.ts: MySQL and Temporal, and the worker's cache of workflows;
 * - http.ts: where the API listens, and the limits on what is asked of it;
 * - payments.ts: a payment's windows, the bank, the PSPs' breakers and settings, the identity
 *   provider, amounts and fees;
 * - direct-debit.ts: ZarinPal's Payman;
 * - schedules.ts: settlement, the stuck-records sweep and retention;
 * - security.ts: the pages' signing secret, the trusted proxies, the body limit, the secret keys;
 * - webhooks.ts: webhook deliveries;
 * - dashboard.ts: the dashboard's email and sessions, and onboarding's documents;
 * - observability.ts: the metrics endpoints, the Temporal UI and the log level;
 * - setting.ts: the whole-number setting they share.
 * The settings are spread in the table's order, which is not the areas' (the generated table keeps
 * the order it has always had), so each area exports its runs of settings apart.
 */
import { Type, type Static } from '@sinclair/typebox';
import { dashboardSettings, onboardingSettings } from './config-schema/dashboard.ts';
import { databaseSettings, workerCacheSettings } from './config-schema/database.ts';
import { directDebitSettings } from './config-schema/direct-debit.ts';
import { listenSettings, rateLimitSettings } from './config-schema/http.ts';
import { observabilitySettings } from './config-schema/observability.ts';
import { amountSettings, identitySettings, paymentBankSettings } from './config-schema/payments.ts';
import { retentionSettings, settlementSweepSettings } from './config-schema/schedules.ts';
import { requestTrustSettings, secretKeySettings } from './config-schema/security.ts';
import { webhookSettings } from './config-schema/webhooks.ts';

export {
  DEFAULT_DATABASE_ACQUIRE_TIMEOUT_MS,
  DEFAULT_DATABASE_POOL_SIZE,
  DEFAULT_DATABASE_QUERY_TIMEOUT_MS,
  DEFAULT_WORKER_MAX_CACHED_WORKFLOWS,
} from './config-schema/database.ts';
export { DEFAULT_DOCUMENTS_QUOTA_BYTES } from './config-schema/dashboard.ts';

/** A setting's problem, in a sentence that names the setting: the process refuses to start with it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const ConfigSchema = Type.Object({
  ...databaseSettings,
  ...listenSettings,
  ...paymentBankSettings,
  ...identitySettings,
  ...directDebitSettings,
  ...settlementSweepSettings,
  ...amountSettings,
  ...retentionSettings,
  ...requestTrustSettings,
  ...webhookSettings,
  ...workerCacheSettings,
  ...rateLimitSettings,
  ...dashboardSettings,
  ...secretKeySettings,
  ...onboardingSettings,
  ...observabilitySettings,
});

export type Config = Static<typeof ConfigSchema>;
