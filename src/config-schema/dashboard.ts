/**
 * The settings of the dashboard and of merchant onboarding (src/config-schema.ts): the dashboard's
 * email, production mode, sign-ups and sessions, and the gateway request's review reminder, the
 * merchants' business documents (their directory and quota) and where a domain's verification file is
 * fetched. Together, as what the merchant-facing side of the gateway reads.
 */
import { Type } from '@sinclair/typebox';
import { Int } from './setting.ts';

/** Two submissions of three files at their largest (5 MB each). */
export const DEFAULT_DOCUMENTS_QUOTA_BYTES = 2 * 3 * 5 * 1024 * 1024;

/** The dashboard's email, production mode (which requires SMTP_URL), sign-ups and sessions. */
export const dashboardSettings = {
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
};

/** Onboarding: the review reminder, the merchants' business documents, and where a domain's verification file is fetched. */
export const onboardingSettings = {
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
};
