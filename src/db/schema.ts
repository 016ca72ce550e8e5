/**
 * The tables as Kysely types them: what each row holds, which columns the
 * database fills in, and the `Database` every query is typed by. The SQL
 * that makes them is in migrations/.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { OnboardingStatus } from '../domain/onboarding.ts';
import type { OnboardingEventType } from '../domain/onboarding-workflow.ts';
import type { DocumentType, IdKind } from '../domain/business-documents.ts';
import type { BankReconciliationItemsTable, BankReconciliationRunsTable } from './schema-bank-reconciliation.ts';
import type {
  BeneficiariesTable,
  BeneficiaryPayoutsTable,
  PaymentSplitsTable,
  RefundSplitAllocationsTable,
} from './schema-splits.ts';
import type { CompatCredentialsTable } from './schema-compat.ts';
import type { Defaulted } from './schema-columns.ts';
import type { LedgerEntriesTable, LedgerPostingsTable } from './schema-ledger.ts';
import type { PaymentLinksTable } from './schema-payment-links.ts';
import type { PspHealthTable, PspRoutesTable, PspTerminalReservationsTable } from './schema-psp-routing.ts';

export type * from './schema-bank-reconciliation.ts';
export type * from './schema-compat.ts';
export type * from './schema-ledger.ts';
export type * from './schema-payment-links.ts';
export type * from './schema-psp-routing.ts';

export interface MerchantsTable {
  id: string;
  name: string;
  gateway_status: Defaulted<'none' | 'requested' | 'rejected' | 'approved'>;
  live_mode: Defaulted<number>;
  /** The onboarding workflow's record (src/domain/onboarding.ts); moves only forward, by onboarding_version. */
  onboarding_status: Defaulted<OnboardingStatus>;
  onboarding_version: Defaulted<number>;
  rejection_reason: Defaulted<string | null>;
  onboarding_updated_at: Defaulted<Date | null>;
  fee_bps: number;
  fee_min: number;
  fee_max: number;
  created_at: Date;
  /** The Sheba IBAN settlements are paid to; null: the merchant is skipped by settlement (and reported). */
  settlement_iban: Defaulted<string | null>;
  /** When the operator let the merchant's webhook receivers sit on WEBHOOK_ALLOWED_NETWORKS; null: public receivers only. */
  operator_network_webhooks_at: Defaulted<Date | null>;
}

export interface MerchantDomainsTable {
  merchant_id: string;
  domain: string;
  created_at: Date;
  /** What the merchant publishes to prove the domain is theirs; made when first shown. */
  verification_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the gateway found the token; null: unverified (test payments only). */
  verified_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ApiKeysTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  /** The visible start of the key, used to find the row; not secret. */
  prefix: string;
  /** SHA-256 of the whole key; the key itself is never stored. */
  key_hash: Buffer;
  created_at: Date;
  revoked_at: Defaulted<Date | null>;
  expires_at: Defaulted<Date | null>;
  last_used_at: Defaulted<Date | null>;
  /** When the merchant granted this live key the `refunds` scope (docs/API.md#key-scopes); null: not granted. */
  refunds_granted_at: Defaulted<Date | null>;
}

export interface PaymentsTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  status: string;
  amount: number;
  fee: number;
  refunded_amount: number;
  currency: string;
  merchant_reference: string;
  tracking_code: string;
  reference_id: string | null;
  rrn: string | null;
  card_pan: string | null;
  description: string;
  mobile: string | null;
  callback_url: string;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  paid_at: Date | null;
  verified_at: Date | null;
  verify_deadline_at: Date | null;
  expires_at: Date;
  settlement_status: string;
  /** The merchant's metadata, a JSON object; changed only by the merchant, never by a transition. */
  metadata: Defaulted<string>;
  /** Moves forward only: a retried or replayed write of an older state changes nothing. */
  version: number;
  updated_at: Date;
  /** The PSP that gave the payment its token (docs/psps/routing.md); null before, and on payments older than routing: SEP's. */
  psp: Defaulted<string | null>;
  psp_terminal_id: Defaulted<string | null>;
  /** The protocol that created the payment: `api`, or a compatible one (docs/COMPAT.md). */
  created_via: Defaulted<string>;
  /** ZarinPal's `IRT` when its request was in toman (its verify is then too); null for rials. */
  protocol_currency: Defaulted<string | null>;
  /** `merchant` or `customer` (docs/PAYMENTS.md#who-pays-the-fee). */
  fee_payer: Defaulted<string>;
  /** The fee a customer-pays payment's customer is charged on top of `amount`, fixed at create; 0 when the merchant pays. */
  customer_fee: Defaulted<number>;
  /**
   * What the customer is charged (amount + customer_fee), fixed at create (migration 0056,
   * docs/PAYMENTS.md#how-the-record-keeps-the-charged-sum). Every insert writes it (required here) and
   * nothing updates it; null only on a row a replica of the previous release inserted during the
   * rolling update, read as amount + customer_fee (recordedChargedAmount, CHARGED_AMOUNT_SQL).
   */
  charged_amount: ColumnType<number | null, number, never>;
  /** Who may pay (migration 0037): the allowed cards masked, a JSON array; null when any card may pay. */
  allowed_cards_masked: Defaulted<string | null>;
  /** The allowed cards' keyed hashes (src/psps/card-hash.ts), a JSON array of hex; null when any card may pay. */
  allowed_card_hashes: Defaulted<string | null>;
  /** The payer's national code, masked; null when the merchant named none. */
  national_code_masked: Defaulted<string | null>;
  /** The payment link that started the payment (migration 0038); null for every other payment. */
  payment_link_id: Defaulted<string | null>;
  /** Zibal's trackId (migration 0042): sixteen random digits on a payment Zibal's /v1/request made; null on every other. */
  zibal_track_id: Defaulted<string | null>;
  /** When the one ZarinPal or Zibal verify that answered the capture (100) claimed it; null until then. */
  compat_verify_answered_at: Defaulted<Date | null>;
  /** How it was paid (migration 0053): `card` (the hosted page and a PSP) or `direct_debit` (a mandate's debit). */
  method: Defaulted<string>;
}

export interface IdempotencyKeysTable {
  merchant_id: string;
  mode: 'test' | 'live';
  operation: string;
  idempotency_key: string;
  request_hash: string;
  resource_id: string;
  /** Set while a request holds the key; a crashed holder's lock lapses at this time. */
  locked_until: Date | null;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
}

export interface WebhookEndpointsTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  url: string;
  /** JSON array of event types; null: every type. */
  events: string | null;
  /** In clear, because signing needs it (see src/webhooks/signing.ts); never logged or shown again. */
  secret: string;
  previous_secret: Defaulted<string | null>;
  previous_secret_expires_at: Defaulted<Date | null>;
  status: Defaulted<'enabled' | 'disabled'>;
  disabled_reason: Defaulted<string | null>;
  created_at: Date;
  deleted_at: Defaulted<Date | null>;
  /** Which of its merchant's MAX_ENDPOINTS places in the mode it holds; null once deleted (or an endpoint past the bound made before it). */
  place: Defaulted<number | null>;
}

export interface EventsTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  type: string;
  object_id: string;
  /** The JSON body exactly as sent. */
  body: string;
  created_at: Date;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: string;
  delivery_id: string;
  attempt: number;
  attempted_at: Date;
  response_status: number | null;
  latency_ms: number;
  error: string | null;
  succeeded: number;
}

export interface RefundsTable {
  id: string;
  payment_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  amount: number;
  /** Only forward (src/domain/refund.ts REFUND_STATUSES): `awaiting_approval`, `awaiting_payer`, `pending`, then `succeeded` or `failed`; a final status is never changed. */
  status: 'awaiting_approval' | 'awaiting_payer' | 'pending' | 'succeeded' | 'failed';
  reason: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  succeeded_at: Date | null;
  updated_at: Date;
  /** How it reaches the customer (src/domain/refund.ts RefundMethod; migration 0042: `psp_refund` for every older one). */
  method: Generated<'psp_refund' | 'reversal' | 'iban_payout' | 'payer_card'>;
  /** The Sheba IBAN it is paid to: typed with it (held for approval), or the paying card's account once claimed; null until known. */
  destination_iban: string | null;
  /** Why it waits (or waited) for the operator's approval (migration 0047). */
  held_for: 'typed_iban' | 'balance' | null;
  /** The owner of the paying card's account, as the identity provider named it. */
  owner_name: string | null;
  /** Wrong cards typed on its claim page. */
  claim_attempts: Generated<number>;
}

export interface RateLimitCountersTable {
  /** The limit and whom it counts, e.g. `key:<api key id>`. */
  bucket: string;
  /** Start of the fixed window, in ms since the epoch. */
  window_start: number;
  hits: number;
}

export interface UsersTable {
  id: string;
  merchant_id: string;
  email: string;
  /** argon2id, PHC string form. */
  password_hash: string;
  email_confirmed_at: Defaulted<Date | null>;
  created_at: Date;
  /** The TOTP secret (sealed, src/accounts/secret-box.ts) once two-factor sign-in is on. */
  totp_secret: Defaulted<string | null>;
  /** A secret being set up, not yet confirmed by a first code. */
  totp_pending_secret: Defaulted<string | null>;
  totp_enabled_at: Defaulted<Date | null>;
  /** The last TOTP time step accepted: an older or equal step is refused (no code is used twice). */
  totp_last_step: Defaulted<number | null>;
  /** The user's own HMAC key for their recovery codes' hashes; null for codes hashed before it existed. */
  recovery_code_key: Defaulted<Buffer | null>;
}

export interface UserRecoveryCodesTable {
  /** SHA-256 of the normalized code; the code itself is shown once and never stored. */
  code_hash: Buffer;
  user_id: string;
  created_at: Date;
  used_at: Defaulted<Date | null>;
}

export interface UserSignInChallengesTable {
  /** SHA-256 of the pending sign-in's cookie token. */
  token_hash: Buffer;
  user_id: string;
  created_at: Date;
  expires_at: Date;
  failures: Defaulted<number>;
}

export interface AuditLogTable {
  id: Generated<number>;
  created_at: Date;
  merchant_id: string | null;
  user_id: string | null;
  action: string;
  detail: Defaulted<string>;
  address: Defaulted<string>;
  user_agent: Defaulted<string>;
}

export interface UserSessionsTable {
  /** SHA-256 of the session cookie's token; the token itself is never stored. */
  token_hash: Buffer;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  /** The absolute end of the session, whatever its activity. */
  expires_at: Date;
  /** When this session last proved a second factor; null if it proved only the password. */
  second_factor_at: Defaulted<Date | null>;
}

/** A change of two-step sign-in that waits for the emailed confirmation (src/accounts/two-factor-changes.ts). */
export type TwoFactorChange = 'two_factor_on' | 'two_factor_off' | 'recovery_codes';

export interface UserEmailTokensTable {
  /** SHA-256 of the token in the emailed link. */
  token_hash: Buffer;
  user_id: string;
  /** `two_factor_on`, `two_factor_off`, `recovery_codes`: the emailed confirmation of a change of two-step sign-in. */
  purpose: 'confirm' | 'reset' | TwoFactorChange;
  created_at: Date;
  expires_at: Date;
  used_at: Defaulted<Date | null>;
}

export interface OnboardingEventsTable {
  /** Derived from its cause: `<merchant>:v<version>` for a step, `<merchant>:reminder:<round>` for a reminder. */
  id: string;
  merchant_id: string;
  type: OnboardingEventType;
  status: OnboardingStatus;
  reason: string | null;
  created_at: Date;
}

export interface MerchantDocumentSubmissionsTable {
  id: string;
  merchant_id: string;
  legal_name: string;
  id_kind: IdKind;
  national_id: string;
  iban: string;
  /** `draft` until the onboarding workflow accepts it. */
  status: 'draft' | 'submitted';
  created_at: Date;
  submitted_at: Defaulted<Date | null>;
}

export interface MerchantDocumentFilesTable {
  id: string;
  merchant_id: string;
  submission_id: string;
  original_name: string;
  /** From the file's content, never from its name or the browser. */
  content_type: DocumentType;
  size_bytes: number;
  sha256: Buffer;
  created_at: Date;
}

export interface SettlementsTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  status: 'pending' | 'paid' | 'failed';
  gross: number;
  fees: number;
  refunds: number;
  /** The beneficiaries' shares it pays out (their own transfers). */
  splits: Generated<number>;
  net: number;
  payment_count: number;
  refund_count: number;
  cutoff_at: Date;
  iban: string;
  payout_attempt: number;
  bank_reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  paid_at: Date | null;
  failed_at: Date | null;
  updated_at: Date;
}

export interface SettlementLinesTable {
  kind: 'payment' | 'refund' | 'refund_return' | 'split';
  object_id: string;
  settlement_id: string;
  payment_id: string;
  /** Signed rials: a payment's amount, a refund's amount negated, a failed refund's return, a beneficiary's share negated. */
  amount: number;
  /** The payment's fee on a payment line; 0 otherwise. */
  fee: number;
  /** The beneficiary's IBAN on a split line; null otherwise. */
  iban: ColumnType<string | null, string | null | undefined, never>;
  created_at: Date;
}

/** A PSP sale and the one payment it belongs to (src/db/sale-claims.ts). */
export interface PspSaleClaimsTable {
  mode: 'test' | 'live';
  psp: string;
  terminal_id: string;
  reference_id: string;
  payment_id: string;
  card_pan: string | null;
  /** HMAC-SHA256 under CARD_HASH_KEY of the PSP's SHA-256 of the card (src/psps/card-hash.ts). */
  card_hash: string | null;
  claimed_at: Date;
}

/** A paid return for a payment already ended, and what became of its sale (src/db/late-returns.ts). */
export interface LateBankReturnsTable {
  payment_id: string;
  reference_id: string;
  mode: 'test' | 'live';
  psp: string;
  payment_status: string;
  outcome: string;
  recorded_at: Date;
}

/** A customer's direct debit mandate at a provider (docs/SUBSCRIPTIONS.md#mandates). */
export interface MandatesTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  provider: string;
  status: string;
  version: Generated<number>;
  mobile: string;
  national_code: string | null;
  max_amount: number;
  max_daily_count: number;
  max_monthly_count: number;
  expires_at: Date;
  return_url: string;
  merchant_reference: string;
  provider_authority: string | null;
  signature_sealed: string | null;
  failure_code: string | null;
  debits_admitted: Generated<number>;
  /** The bank the customer chose on Dargah's bank page (migration 0055); null before a choice. */
  bank_code: string | null;
  bank_name: string | null;
  created_at: Date;
  activated_at: Date | null;
  ended_at: Date | null;
}

/** A debit of a mandate, one per mandate and idempotency key (docs/SUBSCRIPTIONS.md#limits). */
export interface MandateDebitsTable {
  id: string;
  mandate_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  idempotency_key: string;
  amount: number;
  merchant_reference: string;
  payment_id: string;
  day: string;
  month: string;
  /** `reserved` (counted, not taken yet), `taken` (the provider took the money) or `failed` (counts given back). */
  status: string;
  created_at: Date;
  /** The provider's name of the debit's transaction, recorded before it is taken (migration 0053). */
  provider_authority: Defaulted<string | null>;
  /** The provider's reference of the money taken; null until taken. */
  provider_reference: Defaulted<string | null>;
  taken_at: Defaulted<Date | null>;
}

/** What a mandate's Tehran day (`d:…`) or month (`m:…`) has used of its count; a CHECK holds used <= max. */
export interface MandateUsageTable {
  mandate_id: string;
  period: string;
  used: Generated<number>;
  max: number;
}

/** A plan of direct debit: an amount every interval (docs/SUBSCRIPTIONS.md#subscriptions). */
export interface PlansTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  name: string;
  amount: number;
  interval: string;
  interval_days: number | null;
  created_at: Date;
}

/** A plan charged on a mandate every period by its workflow; written only by it, versioned. */
export interface SubscriptionsTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  plan_id: string;
  mandate_id: string;
  status: string;
  version: Generated<number>;
  amount: number;
  anchor_at: Date;
  current_period: Generated<number>;
  current_period_start: Date;
  current_period_end: Date;
  cancel_at_period_end: Generated<boolean>;
  failed_attempts: Generated<number>;
  last_payment_id: Defaulted<string | null>;
  cancel_reason: Defaulted<string | null>;
  created_at: Date;
  canceled_at: Defaulted<Date | null>;
}

export interface Database {
  merchants: MerchantsTable;
  merchant_domains: MerchantDomainsTable;
  api_keys: ApiKeysTable;
  compat_credentials: CompatCredentialsTable;
  payments: PaymentsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  events: EventsTable;
  webhook_attempts: WebhookAttemptsTable;
  refunds: RefundsTable;
  rate_limit_counters: RateLimitCountersTable;
  users: UsersTable;
  user_sessions: UserSessionsTable;
  user_email_tokens: UserEmailTokensTable;
  user_recovery_codes: UserRecoveryCodesTable;
  user_sign_in_challenges: UserSignInChallengesTable;
  audit_log: AuditLogTable;
  onboarding_events: OnboardingEventsTable;
  merchant_document_submissions: MerchantDocumentSubmissionsTable;
  merchant_document_files: MerchantDocumentFilesTable;
  ledger_postings: LedgerPostingsTable;
  ledger_entries: LedgerEntriesTable;
  settlements: SettlementsTable;
  settlement_lines: SettlementLinesTable;
  psp_routes: PspRoutesTable;
  psp_health: PspHealthTable;
  psp_terminal_reservations: PspTerminalReservationsTable;
  bank_reconciliation_runs: BankReconciliationRunsTable;
  bank_reconciliation_items: BankReconciliationItemsTable;
  payment_links: PaymentLinksTable;
  beneficiaries: BeneficiariesTable;
  payment_splits: PaymentSplitsTable;
  beneficiary_payouts: BeneficiaryPayoutsTable;
  refund_split_allocations: RefundSplitAllocationsTable;
  psp_sale_claims: PspSaleClaimsTable;
  late_bank_returns: LateBankReturnsTable;
  mandates: MandatesTable;
  mandate_debits: MandateDebitsTable;
  mandate_usage: MandateUsageTable;
  plans: PlansTable;
  subscriptions: SubscriptionsTable;
}

export type PaymentRow = Selectable<PaymentsTable>;
export type MandateRow = Selectable<MandatesTable>;
export type MandateDebitRow = Selectable<MandateDebitsTable>;
export type PlanRow = Selectable<PlansTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type RefundRow = Selectable<RefundsTable>;
export type SettlementRow = Selectable<SettlementsTable>;
export type SettlementLineRow = Selectable<SettlementLinesTable>;
export type NewPaymentRow = Insertable<PaymentsTable>;
export type PaymentLinkRow = Selectable<PaymentLinksTable>;
