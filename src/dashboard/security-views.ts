/**
 * The dashboard's account-security pages (docs/DASHBOARD.md#security):
 * password reset, the second step of a two-factor sign-in, two-factor set-up
 * and its recovery codes, and the Security page with the audit log.
 */
import QRCode from 'qrcode';
import type { AuditRow } from '../accounts/audit.ts';
import { isAuditAction } from '../domain/audit.ts';
import { localDigits } from '../http/words.ts';
import { formatTime, strings } from './i18n.ts';
import { render, type Field, type ViewContext } from './views.ts';

export function forgotPasswordPage(context: ViewContext, values: { email: string }): string {
  const t = strings(context.lang);
  const fields: Field[] = [
    { name: 'email', label: t.email, type: 'email', autocomplete: 'username', value: values.email, ltr: true },
  ];
  return render('auth', context, {
    title: t.forgotTitle,
    narrow: true,
    heading: t.forgotTitle,
    intro: t.forgotIntro,
    fields,
    action: '/dashboard/forgot-password',
    button: t.forgotButton,
    other: { text: t.haveAccount, href: '/dashboard/sign-in', label: t.signInButton },
  });
}

export function resetPasswordPage(context: ViewContext, token: string, error?: string): string {
  const t = strings(context.lang);
  const fields: Field[] = [
    {
      name: 'password',
      label: t.newPassword,
      type: 'password',
      autocomplete: 'new-password',
      value: '',
      hint: t.passwordHint,
      ltr: true,
    },
  ];
  return render('auth', context, {
    title: t.resetTitle,
    narrow: true,
    heading: t.resetTitle,
    error,
    fields,
    hidden: { token },
    action: '/dashboard/reset',
    button: t.resetButton,
  });
}

/** The code box: a 6-digit TOTP code or, where taken, a recovery code (letters too, so not numeric-only). */
const codeField = (label: string, hint?: string): Field => ({
  name: 'code',
  label,
  type: 'text',
  autocomplete: 'one-time-code',
  value: '',
  ...(hint !== undefined ? { hint } : {}),
  ltr: true,
  inputmode: 'text',
});

export function twoFactorSignInPage(context: ViewContext, error?: string): string {
  const t = strings(context.lang);
  return render('auth', context, {
    title: t.twoFactorSignInTitle,
    narrow: true,
    heading: t.twoFactorSignInTitle,
    intro: t.twoFactorSignInIntro,
    error,
    fields: [codeField(t.twoFactorCode, t.twoFactorCodeHint)],
    action: '/dashboard/sign-in/two-factor',
    button: t.verifyButton,
  });
}

/** The secret in groups of four, as authenticator apps let it be typed. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export async function twoFactorSetupPage(
  context: ViewContext,
  setup: { secret: string; uri: string; token: string },
  error?: string,
): Promise<string> {
  const t = strings(context.lang);
  // The QR code as SVG markup made by `qrcode` from our own URI (base32, the issuer and the address): no script, no image request.
  const qrSvg = await QRCode.toString(setup.uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return render('two-factor-setup', context, {
    title: t.setupTitle,
    error,
    secret: grouped(setup.secret),
    uri: setup.uri,
    qrSvg,
    token: setup.token,
    field: { ...codeField(t.twoFactorCode), inputmode: 'numeric' },
  });
}

/** The code that completes turning two-step sign-in off, or new recovery codes, once the emailed link is opened. */
export function twoFactorCodePage(
  context: ViewContext,
  form: { change: 'two_factor_off' | 'recovery_codes'; action: string; token: string },
  error?: string,
): string {
  const t = strings(context.lang);
  const heading = form.change === 'two_factor_off' ? t.disableTwoFactor : t.newRecoveryCodes;
  return render('auth', context, {
    title: heading,
    narrow: true,
    heading,
    intro: t.disableTwoFactorHint,
    error,
    fields: [codeField(t.twoFactorCode, t.twoFactorCodeHint)],
    hidden: { token: form.token },
    action: form.action,
    button: heading,
  });
}

/** The step-up: a code, then back to the page of the live action (`back`, a dashboard path). */
export function stepUpPage(context: ViewContext, back: string, error?: string): string {
  const t = strings(context.lang);
  return render('auth', context, {
    title: t.stepUpTitle,
    narrow: true,
    heading: t.stepUpTitle,
    intro: t.stepUpIntro,
    error,
    fields: [codeField(t.twoFactorCode, t.twoFactorCodeHint)],
    hidden: { return: back },
    action: '/dashboard/step-up',
    button: t.verifyButton,
  });
}

export function recoveryCodesPage(
  context: ViewContext,
  codes: string[],
  change: 'two_factor_on' | 'recovery_codes',
): string {
  const t = strings(context.lang);
  return render('recovery-codes', context, { title: t.recoveryTitle, codes, renewed: change === 'recovery_codes' });
}

export function securityPage(
  context: ViewContext,
  account: {
    twoFactor: { enabled: boolean; recoveryCodesLeft: number };
    audit: AuditRow[];
    olderHref?: string;
    newestHref?: string;
  },
  options: { notice?: string; error?: string } = {},
): string {
  const { lang } = context;
  const t = strings(lang);
  return render('security', context, {
    title: t.securityTitle,
    ...options,
    twoFactor: {
      enabled: account.twoFactor.enabled,
      state: account.twoFactor.enabled ? t.twoFactorOn : t.twoFactorOff,
      recoveryCodesLeft: localDigits(String(account.twoFactor.recoveryCodesLeft), lang),
    },
    passwordField: {
      name: 'password',
      label: t.password,
      type: 'password',
      autocomplete: 'current-password',
      value: '',
      hint: t.twoFactorRequestHint,
      ltr: true,
    } satisfies Field,
    entries: account.audit.map((e) => ({
      id: e.id,
      action: e.action,
      label: isAuditAction(e.action) ? t[`audit_${e.action}`] : e.action,
      when: formatTime(e.created_at, lang),
      email: e.email ?? '—',
      detail: e.detail,
      address: e.address,
      userAgent: e.user_agent,
    })),
    olderHref: account.olderHref,
    newestHref: account.newestHref,
  });
}
