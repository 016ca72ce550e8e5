/**
 * Words of the developers page's section on ZarinPal's and Zibal's protocols (docs/COMPAT.md),
 * spread into the dashboard's dictionaries (i18n.ts). Persian first; the English one is typed from
 * it, so both have the same keys.
 */
const fa = {
  compatTitle: 'انتقال از زرین‌پال یا زیبال',
  compatText:
    'کد یا افزونه‌ای که برای پروتکل نسخهٔ ۴ زرین‌پال یا نسخهٔ ۱ زیبال نوشته شده، با درگاه کار می‌کند اگر نشانی درگاه را به نشانی این درگاه تغییر دهید و مقدارهای زیر را به جای شناسهٔ پذیرندهٔ قبلی بگذارید.',
  compatProtocol: 'پروتکل',
  compatValueEnds: 'پایان مقدار',
  compatNone: 'هنوز مقداری ساخته نشده است.',
  compatZarinpal: 'merchant_id زرین‌پال',
  compatZibal: 'merchant زیبال',
  compatIssueTest: 'ساخت مقدارهای آزمایشی',
  compatIssueLive: 'ساخت مقدارهای واقعی',
  compatRevokeTest: 'باطل کردن مقدارهای آزمایشی',
  compatRevokeLive: 'باطل کردن مقدارهای واقعی',
  compatNewTitle: 'مقدارهای تازهٔ شما',
  compatNewText:
    'این مقدارها فقط همین یک بار نمایش داده می‌شوند. مقدارهای قبلی همین حالت پس از زمانی که انتخاب کردید کار نمی‌کنند.',
  compatRevokedText: 'مقدارهای این حالت باطل شدند.',
  audit_compat_credentials_issued: 'ساخت مقدارهای زرین‌پال و زیبال',
  audit_compat_credentials_revoked: 'ابطال مقدارهای زرین‌پال و زیبال',
};

type CompatWords = typeof fa;

const en: CompatWords = {
  compatTitle: 'Moving from ZarinPal or Zibal',
  compatText:
    "Code or plugins written for ZarinPal's v4 or Zibal's v1 protocol work with this gateway when you change the gateway's address to this one and paste these values where the old merchant id was.",
  compatProtocol: 'Protocol',
  compatValueEnds: 'Value ends with',
  compatNone: 'No values made yet.',
  compatZarinpal: 'ZarinPal merchant_id',
  compatZibal: 'Zibal merchant',
  compatIssueTest: 'Make test values',
  compatIssueLive: 'Make live values',
  compatRevokeTest: 'Revoke test values',
  compatRevokeLive: 'Revoke live values',
  compatNewTitle: 'Your new values',
  compatNewText:
    "These values are shown this once only. The mode's earlier values stop working after the time you chose.",
  compatRevokedText: "This mode's values were revoked.",
  audit_compat_credentials_issued: 'ZarinPal and Zibal values made',
  audit_compat_credentials_revoked: 'ZarinPal and Zibal values revoked',
};

export const COMPAT_WORDS = { fa, en } as const;
