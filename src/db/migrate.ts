import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { createConnection } from 'mysql2/promise';
import * as initial from './migrations/0001_initial.ts';
import * as refunds from './migrations/0002_refunds.ts';
import * as webhooks from './migrations/0003_webhooks.ts';
import * as rateLimits from './migrations/0004_rate_limits.ts';
import * as binaryIdempotencyKeys from './migrations/0005_binary_idempotency_keys.ts';
import * as reconciliationIndexes from './migrations/0006_reconciliation_indexes.ts';
import * as paymentMetadata from './migrations/0007_payment_metadata.ts';
import * as dropBankOperations from './migrations/0008_drop_bank_operations.ts';
import * as accounts from './migrations/0009_accounts.ts';
import * as twoFactor from './migrations/0013_two_factor.ts';
import * as auditLog from './migrations/0014_audit_log.ts';
import * as paymentsByVerifiedAt from './migrations/0016_payments_by_verified_at.ts';
import * as onboarding from './migrations/0010_onboarding.ts';
import * as ledger from './migrations/0020_ledger.ts';
import * as settlements from './migrations/0021_settlements.ts';
import * as webhookBacklogIndex from './migrations/0025_webhook_backlog_index.ts';
import * as waitingStatesIndexes from './migrations/0026_waiting_states_indexes.ts';
import * as merchantDomainVerification from './migrations/0030_merchant_domain_verification.ts';
import * as stepUpAndRecoveryCodeKeys from './migrations/0031_step_up_and_recovery_code_keys.ts';
import * as pspRouting from './migrations/0032_psp_routing.ts';
import * as pspTerminalReservations from './migrations/0033_psp_terminal_reservations.ts';
import * as bankReconciliation from './migrations/0034_bank_reconciliation.ts';
import * as compatCredentials from './migrations/0035_compat_credentials.ts';
import * as feePayer from './migrations/0036_fee_payer.ts';
import * as payerRestriction from './migrations/0037_payer_restriction.ts';
import * as paymentLinks from './migrations/0038_payment_links.ts';
import * as splits from './migrations/0039_splits.ts';
import * as retentionIndexes from './migrations/0040_retention_indexes.ts';
import * as beneficiaryPayoutAttempts from './migrations/0041_beneficiary_payout_attempts.ts';
import * as compatTrackIdsAndVerifyClaims from './migrations/0042_compat_track_ids_and_verify_claims.ts';
import * as bankReferenceLength from './migrations/0043_bank_reference_length.ts';
import * as refundMethods from './migrations/0044_refund_methods.ts';
import * as pspSaleClaims from './migrations/0045_psp_sale_claims.ts';
import * as webhookEndpointPlaces from './migrations/0046_webhook_endpoint_places.ts';
import * as lateBankReturns from './migrations/0050_late_bank_returns.ts';
import * as operatorNetworkWebhooks from './migrations/0049_operator_network_webhooks.ts';
import * as apiKeyRefundScope from './migrations/0051_api_key_refund_scope.ts';
import * as refundsToPayer from './migrations/0047_refunds_to_payer.ts';
import * as mandates from './migrations/0052_mandates.ts';
import * as directDebitPayments from './migrations/0053_direct_debit_payments.ts';
import * as subscriptions from './migrations/0054_subscriptions.ts';
import * as mandateBank from './migrations/0055_mandate_bank.ts';
import * as chargedAmount from './migrations/0056_charged_amount.ts';
import { databaseName, mysqlPoolOptions, serverUrl, type Db } from './database.ts';

/** Every migration, in order. Listed here (not read from disk) so the set is checked by the compiler. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_refunds': refunds,
  '0003_webhooks': webhooks,
  '0004_rate_limits': rateLimits,
  '0005_binary_idempotency_keys': binaryIdempotencyKeys,
  '0006_reconciliation_indexes': reconciliationIndexes,
  '0007_payment_metadata': paymentMetadata,
  '0008_drop_bank_operations': dropBankOperations,
  '0009_accounts': accounts,
  '0013_two_factor': twoFactor,
  '0014_audit_log': auditLog,
  '0016_payments_by_verified_at': paymentsByVerifiedAt,
  '0010_onboarding': onboarding,
  '0020_ledger': ledger,
  '0021_settlements': settlements,
  '0025_webhook_backlog_index': webhookBacklogIndex,
  '0026_waiting_states_indexes': waitingStatesIndexes,
  '0030_merchant_domain_verification': merchantDomainVerification,
  '0031_step_up_and_recovery_code_keys': stepUpAndRecoveryCodeKeys,
  '0032_psp_routing': pspRouting,
  '0033_psp_terminal_reservations': pspTerminalReservations,
  '0034_bank_reconciliation': bankReconciliation,
  '0035_compat_credentials': compatCredentials,
  '0036_fee_payer': feePayer,
  '0037_payer_restriction': payerRestriction,
  '0038_payment_links': paymentLinks,
  '0039_splits': splits,
  '0040_retention_indexes': retentionIndexes,
  '0041_beneficiary_payout_attempts': beneficiaryPayoutAttempts,
  '0042_compat_track_ids_and_verify_claims': compatTrackIdsAndVerifyClaims,
  '0043_bank_reference_length': bankReferenceLength,
  '0044_refund_methods': refundMethods,
  '0045_psp_sale_claims': pspSaleClaims,
  '0046_webhook_endpoint_places': webhookEndpointPlaces,
  '0050_late_bank_returns': lateBankReturns,
  '0049_operator_network_webhooks': operatorNetworkWebhooks,
  '0051_api_key_refund_scope': apiKeyRefundScope,
  '0052_mandates': mandates,
  '0053_direct_debit_payments': directDebitPayments,
  '0054_subscriptions': subscriptions,
  '0055_mandate_bank': mandateBank,
  '0056_charged_amount': chargedAmount,
  '0047_refunds_to_payer': refundsToPayer,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

/** Runs pending migrations; Kysely's MySQL lock makes concurrent callers safe. */
export async function migrateToLatest(db: Db): Promise<void> {
  // Migrations are independent of one another, so one added with an earlier name than a migration a
  // database already ran (branches landing in another order) is run rather than refused.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    throw new Error(
      `migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Creates the database named in the URL when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const connection = await createConnection(mysqlPoolOptions(serverUrl(url)));
  try {
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await connection.end();
  }
}

/** Drops and recreates the database: for the test bootstrap only. */
export async function recreateDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  const connection = await createConnection(mysqlPoolOptions(serverUrl(url)));
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
}
