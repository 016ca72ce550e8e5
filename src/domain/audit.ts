/**
 * Every action the merchant's audit log records (docs/DASHBOARD.md#audit-log),
 * in one list: the Security page names each in both languages
 * (src/dashboard/i18n.ts, `audit_<action>`), and the compiler refuses an
 * action missing from either. To record a new kind of action, add it here,
 * give it its words, and record it with `auditAction` (src/accounts/audit.ts; the CLI calls
 * `recordAudit`, src/db/audit.ts).
 */
export const AUDIT_ACTIONS = [
  // The account
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'sign_out_everywhere',
  'password_reset_requested',
  'password_reset',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_failed',
  'recovery_code_used',
  'two_factor_change_requested',
  'recovery_codes_renewed',
  'step_up',
  'live_action_refused',
  // API & gateway
  'key_created',
  'key_revoked',
  'key_rolled',
  'key_scope_granted',
  'key_scope_withdrawn',
  'compat_credentials_issued',
  'compat_credentials_revoked',
  'gateway_requested',
  // Settings
  'domain_added',
  'domain_removed',
  'domain_verified',
  'beneficiary_registered',
  'settings_changed',
  // Recorded by other parts of the dashboard as they are built
  'documents_submitted',
  'live_mode_activated',
  'refund_requested',
  'webhook_endpoint_created',
  'webhook_endpoint_changed',
  'webhook_endpoint_deleted',
  'webhook_event_redelivered',
  'payment_link_created',
  'payment_link_deactivated',
  'subscription_canceled',
  'mandate_canceled',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const isAuditAction = (text: string): text is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(text);
