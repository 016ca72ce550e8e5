/**
 * The dashboard's pages, rendered with Eta from the templates beside this
 * file. Eta escapes every `<%= %>` output; the only raw output (`<%~ %>`) is
 * the layout's body, which Eta itself rendered and escaped.
 */
import type { DomainVerificationState } from '../merchants/domain-verification.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Beneficiary } from '../domain/split-schemas.ts';
import type { KeyMode, KeyScope } from '../domain/merchant.ts';
import { stylesheet } from '../http/stylesheet.ts';
import { localDigits } from '../http/words.ts';
import { formatRials, strings, type Lang, type Strings } from './i18n.ts';
import type { GatewayStatus, OnboardingStatus } from '../domain/onboarding.ts';
import type { RouteEntry } from '../domain/psp-routing.ts';
import { onboardingView } from './onboarding-steps.ts';
import { credentialView, type CompatSection } from './credential-views.ts';

const eta = new Eta({ views: fileURLToPath(new URL('./templates', import.meta.url)), cache: true, autoEscape: true });

/** The stylesheet: the shared base and the dashboard's own rules. */
export const DASHBOARD_CSS = stylesheet(
  '/dashboard/assets/dashboard.css',
  readFileSync(fileURLToPath(new URL('./assets/dashboard.css', import.meta.url))),
);
const cssHref = DASHBOARD_CSS.href;

export type Section =
  | 'overview'
  | 'payments'
  | 'links'
  | 'directDebit'
  | 'settlements'
  | 'webhooks'
  | 'developers'
  | 'settings'
  | 'security';

export interface ViewContext {
  lang: Lang;
  /** The language switch's link (this page in the other language); none on pages reached by a post. */
  switchHref?: string;
  /** Signed in: the navigation and the sign-out form (which needs the CSRF token). */
  user?: { email: string; section?: Section };
  csrfToken: string;
}

export interface LayoutData {
  title: string;
  testMode?: boolean;
  narrow?: boolean;
  notice?: string;
  error?: string;
  /** The API's own words for a refusal (English), under `error`. */
  errorDetail?: string;
}

const langSuffix = (lang: Lang) => (lang === 'en' ? '?lang=en' : '');

/** Renders a template of templates/ inside the layout (shared by the page modules of the dashboard). */
export function render(template: string, context: ViewContext, data: LayoutData & Record<string, unknown>): string {
  const t = strings(context.lang);
  const nav = context.user
    ? (
        [
          ['overview', '/dashboard/overview', t.navOverview],
          ['payments', '/dashboard/payments', t.navPayments],
          ['links', '/dashboard/links', t.navLinks],
          ['directDebit', '/dashboard/subscriptions', t.navDirectDebit],
          ['settlements', '/dashboard/settlements', t.navSettlements],
          ['webhooks', '/dashboard/webhooks', t.navWebhooks],
          ['developers', '/dashboard/developers', t.navDevelopers],
          ['settings', '/dashboard/settings', t.navSettings],
          ['security', '/dashboard/security', t.navSecurity],
        ] as const
      ).map(([section, href, label]) => ({ href, label, current: context.user?.section === section }))
    : [];
  return eta.render(template, {
    ...data,
    t,
    lang: context.lang,
    dir: context.lang === 'fa' ? 'rtl' : 'ltr',
    cssHref,
    switchHref: context.switchHref,
    user: context.user,
    nav,
    csrfToken: context.csrfToken,
  });
}

export interface Field {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete: string;
  value: string;
  hint?: string;
  ltr?: boolean;
  inputmode?: 'numeric' | 'text';
}

export function signUpPage(
  context: ViewContext,
  values: { email: string; business_name: string },
  error?: string,
): string {
  const t = strings(context.lang);
  const fields: Field[] = [
    {
      name: 'business_name',
      label: t.businessName,
      type: 'text',
      autocomplete: 'organization',
      value: values.business_name,
    },
    { name: 'email', label: t.email, type: 'email', autocomplete: 'email', value: values.email, ltr: true },
    {
      name: 'password',
      label: t.password,
      type: 'password',
      autocomplete: 'new-password',
      value: '',
      hint: t.passwordHint,
      ltr: true,
    },
  ];
  return render('auth', context, {
    title: t.signUpTitle,
    narrow: true,
    heading: t.signUpTitle,
    intro: t.signUpIntro,
    error,
    fields,
    action: '/dashboard/sign-up',
    button: t.signUpButton,
    other: { text: t.haveAccount, href: '/dashboard/sign-in', label: t.signInButton },
  });
}

export function signInPage(
  context: ViewContext,
  values: { email: string },
  options: { error?: string; notice?: string } = {},
): string {
  const t = strings(context.lang);
  const fields: Field[] = [
    { name: 'email', label: t.email, type: 'email', autocomplete: 'username', value: values.email, ltr: true },
    { name: 'password', label: t.password, type: 'password', autocomplete: 'current-password', value: '', ltr: true },
  ];
  return render('auth', context, {
    title: t.signInTitle,
    narrow: true,
    heading: t.signInTitle,
    ...options,
    fields,
    action: '/dashboard/sign-in',
    button: t.signInButton,
    other: { text: t.noAccount, href: '/dashboard/sign-up', label: t.signUpButton },
    forgot: { href: '/dashboard/forgot-password', label: t.forgotPasswordLink },
  });
}

/** A page with a heading and a sentence: "check your email", "confirmed", and the error pages. */
export function messagePage(
  context: ViewContext,
  words: { title: string; text: string },
  options: { kind?: 'success' | 'info' | 'error'; requestId?: string; link?: { href: string; label: string } } = {},
): string {
  return render('message', context, {
    title: words.title,
    narrow: true,
    text: words.text,
    kind: options.kind ?? 'info',
    requestId: options.requestId,
    link: options.link,
  });
}

export type MessageKind = 'not_found' | 'forbidden' | 'bad_request' | 'unavailable' | 'error';

export function errorWords(kind: MessageKind, t: Strings): { title: string; text: string } {
  const words: Record<MessageKind, [string, string]> = {
    not_found: [t.notFoundTitle, t.notFoundText],
    forbidden: [t.forbiddenTitle, t.forbiddenText],
    bad_request: [t.badRequestTitle, t.badRequestText],
    unavailable: [t.unavailableTitle, t.unavailableText],
    error: [t.errorTitle, t.errorText],
  };
  const [title, text] = words[kind];
  return { title, text };
}

/** A list's link: the path with the parameters that have a value. */
export function hrefWith(path: string, params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, v);
  const text = search.toString();
  return `${path}${text === '' ? '' : `?${text}`}`;
}

export interface KeyRow {
  id: string;
  mode: KeyMode;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  scopes: readonly KeyScope[];
}

export function developersPage(
  context: ViewContext,
  account: {
    onboarding_status: OnboardingStatus;
    gateway_status: GatewayStatus;
    rejection_reason: string | null;
    live_mode: boolean;
    keys: KeyRow[];
    liveKeyMissing: ('live_mode' | 'two_factor')[];
    /** The merchant's PSP route per mode, read-only (docs/psps/routing.md). */
    routes?: { mode: 'test' | 'live'; source: 'merchant' | 'default'; entries: RouteEntry[] }[];
  },
  options: {
    newKey?: string;
    notice?: string;
    error?: string;
    refusedMissing?: ('live_mode' | 'two_factor')[];
    compat?: CompatSection;
  } = {},
): string {
  const { lang } = context;
  const t = strings(lang);
  const now = Date.now();
  return render('developers', context, {
    title: t.developersTitle,
    ...options,
    gatewayStatus: t[`gateway_${account.gateway_status}`],
    liveMode: account.live_mode ? t.liveOn : t.liveOff,
    liveKeyMissing: account.liveKeyMissing.map((m) => t[`liveKeyNeeds_${m}`]),
    refusedMissing: options.refusedMissing?.map((m) => t[`liveKeyNeeds_${m}`]),
    rollChoices: [
      { seconds: 0, label: t.rollNow },
      { seconds: 3_600, label: t.roll1h },
      { seconds: 86_400, label: t.roll24h },
      { seconds: 604_800, label: t.roll7d },
    ],
    onboarding: onboardingView(account.onboarding_status, account.rejection_reason, t),
    routes: (account.routes ?? []).map((route) => ({
      mode: t[`mode_${route.mode}`],
      modeKey: route.mode,
      source: route.source === 'merchant' ? t.pspRouteMerchant : t.pspRouteDefault,
      entries: route.entries.map((e) => ({
        psp: e.psp,
        terminal: e.terminal_id,
        priority: localDigits(String(e.priority + 1), lang),
        weight: localDigits(String(e.weight), lang),
        amounts:
          e.min_amount === null && e.max_amount === null
            ? t.pspAnyAmount
            : `${e.min_amount === null ? '' : formatRials(e.min_amount, lang)} – ${e.max_amount === null ? '' : formatRials(e.max_amount, lang)}`,
      })),
    })),
    keys: account.keys.map((k) => ({
      id: k.id,
      prefix: k.prefix,
      ...credentialView(k, lang, now),
      scopes: k.mode === 'test' ? t.keyScopesTest : k.scopes.includes('refunds') ? t.keyScopeRefunds : t.keyScopesNone,
      // Only a live key's scope is granted or withdrawn (a test key holds every scope).
      refunds: k.mode === 'live' ? (k.scopes.includes('refunds') ? 'withdraw' : 'grant') : undefined,
    })),
  });
}

export function settingsPage(
  context: ViewContext,
  account: { domains: DomainVerificationState[]; email: string; beneficiaries: Beneficiary[] },
  options: {
    notice?: string;
    error?: string;
    domainValue?: string;
    beneficiaryError?: string;
    beneficiaryValue?: { iban: string; name: string };
  } = {},
): string {
  const t = strings(context.lang);
  return render('settings', context, {
    title: t.settingsTitle,
    notice: options.notice,
    error: options.error,
    domainValue: options.domainValue ?? '',
    beneficiaryError: options.beneficiaryError,
    beneficiaryValue: options.beneficiaryValue ?? { iban: '', name: '' },
    beneficiaries: account.beneficiaries,
    domains: account.domains,
    email: account.email,
  });
}

export { langSuffix };
