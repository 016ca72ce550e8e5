/**
 * How long each MySQL table's rows are kept (docs/RETENTION.md): one rule per
 * table the migrations create, so a table without a rule fails the suite
 * (test/unit/domain/retention.test.ts checks the names; the main suite checks
 * them against the database's own list). A rule is either `kept` — the row is
 * a business record, an account or a setting, and nothing deletes it by age —
 * or `pruned` — the retention workflow (workflows/retention.ts) deletes the
 * rows older than their period, a bounded batch at a time.
 */

/** The business rule for records of money and of the merchants behind it. */
export const RECORDS_KEPT =
  "kept for at least 10 years; nothing deletes them; archiving old rows to cold storage (by partition) is the operator's step";

export interface KeptRule {
  rule: 'kept';
  /** Why nothing deletes these rows by age. */
  why: string;
}

export interface PrunedRule {
  rule: 'pruned';
  /** The column the age of a row is measured from. */
  age: string;
  /** After how long, in words; `setting` names the configuration that sets it, when one does. */
  after: string;
  setting?: string;
  /** What else must hold before a row goes. */
  only_if?: string;
  why: string;
}

export type RetentionRule = KeptRule | PrunedRule;

const record = (what: string): KeptRule => ({ rule: 'kept', why: `${what}: ${RECORDS_KEPT}` });
const account = (what: string): KeptRule => ({
  rule: 'kept',
  why: `${what}; kept while the merchant is, and as long as the records that name it`,
});
const setting = (what: string): KeptRule => ({
  rule: 'kept',
  why: `${what}; one row per setting in force, replaced or deleted by the command that changes it, never by age`,
});

/** Every table, by name. */
export const RETENTION_RULES = {
  // Money: what the law and the accountants need. The Direct Taxes Act and the Commercial Code expect books and
  // their supporting documents kept about 10 years; the Central Bank's AML rules expect transaction records kept
  // at least 5 years after the relationship ends. 10 years covers both as a business rule, not legal advice.
  payments: record('each payment, its amounts, its bank references and its status'),
  refunds: record('each refund and its outcome at the bank'),
  ledger_postings: record('the double-entry ledger (append-only: its triggers refuse UPDATE and DELETE)'),
  ledger_entries: record('the double-entry ledger (append-only: its triggers refuse UPDATE and DELETE)'),
  settlements: record('each payout to a merchant'),
  settlement_lines: record('what each settlement paid for'),
  payment_splits: record("a split payment's shares for its beneficiaries"),
  refund_split_allocations: record('what each refund of a split payment took from each share'),
  beneficiary_payouts: record("each transfer of a beneficiary's shares"),
  bank_reconciliation_runs: record('the proof that a day was reconciled with the PSP before it was settled'),
  bank_reconciliation_items: record('each difference a bank reconciliation found'),
  psp_sale_claims: record('each PSP sale and the one payment it belongs to, with what the PSP said of the card'),
  late_bank_returns: record('each paid return for an ended payment, and whether the PSP gave the money back'),
  mandates: record("each direct debit mandate the customer signed: its debits' payments name it"),
  mandate_debits: record('each debit of a mandate, the payment it made and the period whose count it took'),
  mandate_usage: record("what each day and month of a mandate used of its counts: the limits' proof"),
  subscriptions: record("each subscription of a plan on a mandate: its charges' payments are its debits"),
  plans: account("the merchant's plans: its subscriptions name them"),
  audit_log: record('who did what in the dashboard (keys, refunds, webhooks, the settlement IBAN)'),
  onboarding_events: record(
    "the onboarding's steps and the operator's decisions with their reasons (know-your-customer)",
  ),
  // Accounts and what the records name.
  merchants: account('the merchant, its fee plan and settlement IBAN'),
  merchant_domains: account("the merchant's site domains (deleted by the merchant, never by age)"),
  users: account("the merchant's dashboard users"),
  user_recovery_codes: account("a user's two-step sign-in recovery codes (at most ten, replaced as a set)"),
  api_keys: account('API keys, revoked ones too: a key prefix in a log or an audit entry must still name its merchant'),
  compat_credentials: account('the ZarinPal and Zibal merchant codes'),
  webhook_endpoints: account('webhook endpoints, deleted ones too (soft delete): the delivery attempts name them'),
  beneficiaries: account('the IBANs a merchant splits payments to: the splits and payouts name them'),
  payment_links: account('payment links: the payments they started name them'),
  // Settings: bounded by what is configured, not by time.
  psp_routes: setting("a merchant's PSP route"),
  psp_terminal_reservations: setting('a PSP terminal reserved for named merchants'),
  psp_health: setting("each PSP terminal's circuit breaker (its current state, not samples)"),
  kysely_migration: setting('the migrations applied (the migrator reads every row)'),
  kysely_migration_lock: setting("the migrator's lock"),
  // Pruned.
  idempotency_keys: {
    rule: 'pruned',
    age: 'expires_at',
    after: 'at expiry (IDEMPOTENCY_TTL_SECONDS after the request)',
    setting: 'IDEMPOTENCY_TTL_SECONDS',
    only_if: 'no request holds the key right now (locked_until passed)',
    why: 'an expired key replays nothing: the same key is a new request',
  },
  webhook_attempts: {
    rule: 'pruned',
    age: 'attempted_at',
    after: 'EVENT_RETENTION_DAYS (90 days)',
    setting: 'EVENT_RETENTION_DAYS',
    why: 'the attempts are shown with their event; a delivery retries for about 3 days, so 90 days is long after its last attempt',
  },
  events: {
    rule: 'pruned',
    age: 'created_at',
    after: 'EVENT_RETENTION_DAYS (90 days)',
    setting: 'EVENT_RETENTION_DAYS',
    only_if: 'none of its delivery attempts is left (a redelivery keeps it until its own attempts age out)',
    why: 'the API lists and redelivers events, and the dashboard shows them, for 90 days; the payment or refund itself is kept',
  },
  user_sessions: {
    rule: 'pruned',
    age: 'expires_at, last_seen_at',
    after: 'once ended: past expires_at, or unused for DASHBOARD_SESSION_IDLE_SECONDS',
    setting: 'DASHBOARD_SESSION_IDLE_SECONDS',
    why: 'an ended session opens nothing; its row only waits for a cookie that will be refused',
  },
  user_email_tokens: {
    rule: 'pruned',
    age: 'expires_at',
    after: 'at expiry',
    why: 'an expired link is refused exactly as an unknown one is',
  },
  user_sign_in_challenges: {
    rule: 'pruned',
    age: 'expires_at',
    after: 'at expiry',
    why: 'an expired half-done sign-in is refused exactly as an unknown one is',
  },
  rate_limit_counters: {
    rule: 'pruned',
    age: 'window_start',
    after: '2 days (the longest window, RATE_LIMIT_WINDOW_SECONDS at most, is 1 day)',
    why: 'a counter is read only while its window is current',
  },
  merchant_document_files: {
    rule: 'pruned',
    age: "the merchant's onboarding_updated_at (rejected sets), the submission's created_at (drafts)",
    after: 'REJECTED_DOCUMENTS_RETENTION_DAYS (90 days) after the rejection; a draft after 7 days',
    setting: 'REJECTED_DOCUMENTS_RETENTION_DAYS',
    only_if:
      "the set is a rejected one (the merchant's documents still stand rejected) or a draft never taken; the file in DOCUMENTS_DIR goes with its row",
    why: 'identity documents the gateway will not use are not kept; the approved set and the one under review are kept with the merchant',
  },
  merchant_document_submissions: {
    rule: 'pruned',
    age: "the merchant's onboarding_updated_at (rejected sets), created_at (drafts)",
    after: 'REJECTED_DOCUMENTS_RETENTION_DAYS (90 days) after the rejection; a draft after 7 days',
    setting: 'REJECTED_DOCUMENTS_RETENTION_DAYS',
    only_if: 'as its files, once none of them is left; the rejection and its reason stay in onboarding_events',
    why: 'as its files',
  },
} as const satisfies Record<string, RetentionRule>;

export type RetainedTable = keyof typeof RETENTION_RULES;
export type PrunedTable = {
  [T in RetainedTable]: (typeof RETENTION_RULES)[T]['rule'] extends 'pruned' ? T : never;
}[RetainedTable];

/**
 * The pruned tables in the order a run takes them: a row before the row it references
 * (attempts before their events, files before their submission), so no foreign key is in the way.
 */
export const PRUNE_ORDER: readonly PrunedTable[] = [
  'idempotency_keys',
  'webhook_attempts',
  'events',
  'user_sessions',
  'user_email_tokens',
  'user_sign_in_challenges',
  'rate_limit_counters',
  'merchant_document_files',
  'merchant_document_submissions',
];

/** Fixed periods: what no setting decides. */
export const RATE_LIMIT_COUNTER_KEEP_MS = 2 * 86_400_000;
export const DOCUMENT_DRAFT_KEEP_MS = 7 * 86_400_000;

/** The workflow that prunes, run by the Schedule below (created by every worker at start). */
export const RETENTION_WORKFLOW = 'retentionWorkflow';
export const RETENTION_SCHEDULE_ID = 'dargah-retention';
export const RETENTION_EVERY_MS = 10 * 60 * 1000;

export interface RetentionInput {
  /** Rows one statement deletes at most: short statements, short locks. */
  batch_size: number;
  /** Batches per table in one run at most; the next run goes on. */
  max_batches: number;
}

/** Rows deleted in one run, by table (every table of the plan, 0 included). */
export type RetentionResult = Record<string, number>;
