/**
 * The merchant dashboard under /dashboard (docs/DASHBOARD.md): sign-up,
 * email confirmation, sign-in and sign-out, payments, API keys and the
 * gateway request, site domains. Server-rendered like the hosted pages:
 * Persian by default, English with `?lang=en` (kept in a cookie), no script
 * at all, the same strict CSP, and a CSRF token on every form. Every change
 * goes through the same services the CLI and the API use, and every action
 * is recorded in the merchant's audit log (src/db/audit.ts).
 */
import { randomBytes } from 'node:crypto';
import Router, { type RouterContext } from '@koa/router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { DomainError } from '../errors.ts';
import { tenantOf } from '../domain/merchant.ts';
import { PAYMENT_STATUSES, type PaymentStatus } from '../domain/payment.ts';
import { listPayments } from '../payments/service.ts';
import { AccountError, checkCredentials, confirmEmail, signUp, type SignedInUser } from '../accounts/accounts.ts';
import { endAllSessions, endSession, sessionUser, startSession } from '../accounts/sessions.ts';
import { createDashboardKey, LiveKeyRefused, liveKeyMissing, rollDashboardKey } from '../accounts/dashboard-keys.ts';
import { checkResetLink, requestPasswordReset, resetPassword } from '../accounts/password-reset.ts';
import { secretBox } from '../accounts/secret-box.ts';
import { challengeStands, CHALLENGE, disableTwoFactor, enableTwoFactor, passChallenge, pendingTotpSecret, startChallenge, totpUri, twoFactorStatus } from '../accounts/two-factor.ts';
import { listAudit, recordAudit } from '../db/audit.ts';
import type { AuditAction } from '../domain/audit.ts';
import { parseKey } from '../merchants/keys.ts';
import { normalizeDomain, OnboardingError } from '../merchants/merchants.ts';
import { activateLiveMode, addDomain, listMerchantKeys, merchantSummary, removeDomain, requestGateway, revokeMerchantKey } from '../merchants/onboarding.ts';
import { currentDocuments, DocumentsInvalid, submitDocuments } from '../merchants/documents.ts';
import { OnboardingRefused } from '../domain/onboarding.ts';
import { documentStore } from '../adapters/document-store.ts';
import { readMultipartForm, MultipartRefused } from './multipart.ts';
import { documentsPage } from './onboarding-views.ts';
import { csrfGuard } from '../http/csrf.ts';
import { setSecurityHeaders } from '../http/page-headers.ts';
import { isDependencyFailure, RETRY_AFTER_SECONDS } from '../http/dependencies.ts';
import { strings, type Lang } from './i18n.ts';
import { CURSOR, modeOf, Refusal, UUID, type DashboardDependencies, type DashboardKit, type Request, type SignedInRequest } from './kit.ts';
import { overviewPages } from './overview-routes.ts';
import { paymentPages } from './payment-routes.ts';
import { settlementPages } from './settlement-routes.ts';
import { webhookPages } from './webhook-routes.ts';
import {
  DASHBOARD_CSS,
  developersPage,
  errorWords,
  messagePage,
  paymentsPage,
  settingsPage,
  signInPage,
  signUpPage,
  type Section,
  type ViewContext,
} from './views.ts';
import { forgotPasswordPage, recoveryCodesPage, resetPasswordPage, securityPage, twoFactorSetupPage, twoFactorSignInPage } from './security-views.ts';

export type { DashboardDependencies };

const LANG_COOKIE = 'dargah_lang';
/** Dashboard forms carry a few short fields; anything bigger is not ours. */
const FORM_LIMIT_BYTES = 8_192;
const AUDIT_PAGE = 20;
/** How long the old key keeps working after a roll: the choices the form offers (now, 1 h, 24 h, 7 days). */
const ROLL_EXPIRIES = new Set([0, 3_600, 86_400, 604_800]);

export function dashboardRoutes(deps: DashboardDependencies): Router {
  const { config, db, logger, mailer, temporal } = deps;
  const router = new Router();
  const onboarding = { db, temporal, config };
  const store = documentStore(config);
  const secure = config.PUBLIC_BASE_URL.startsWith('https:');
  // __Host-: the browser keeps the cookie to this exact host, on https only, for every path.
  const sessionCookie = secure ? '__Host-dargah_session' : 'dargah_session';
  // A sign-in waiting for its second factor: its own short-lived cookie, never a session.
  const challengeCookie = secure ? '__Host-dargah_sign_in' : 'dargah_sign_in';
  const box = secretBox(config.DASHBOARD_SECRETS_KEY);
  if (!box.sealing) logger.warn('DASHBOARD_SECRETS_KEY is not set: two-factor secrets are stored unsealed in MySQL (set it in production)');
  const csrf = csrfGuard({
    secret: config.PAGES_CSRF_SECRET === '' ? randomBytes(32).toString('base64url') : config.PAGES_CSRF_SECRET,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    cookie: 'dargah_dashboard_csrf',
    path: '/dashboard',
    purpose: 'dargah-dashboard-csrf',
  });

  // Written by hand: koa's cookie helper refuses `Secure` when TLS ends at a proxy in front of us.
  const setSessionCookie = (ctx: Context, token: string) =>
    ctx.append('Set-Cookie', `${sessionCookie}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
  const clearSessionCookie = (ctx: Context) =>
    ctx.append('Set-Cookie', `${sessionCookie}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`);
  const setChallengeCookie = (ctx: Context, token: string) =>
    ctx.append('Set-Cookie', `${challengeCookie}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${CHALLENGE.seconds}${secure ? '; Secure' : ''}`);
  const clearChallengeCookie = (ctx: Context) =>
    ctx.append('Set-Cookie', `${challengeCookie}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`);

  /** One audit entry for this request: its client address and user agent, and whom it concerns. */
  const audit = (ctx: Context, action: AuditAction, who: { userId: string; merchantId: string } | undefined, detail?: string) =>
    recordAudit(db, { action, ...(who ?? {}), ...(detail !== undefined ? { detail } : {}), address: ctx.ip, userAgent: ctx.get('user-agent') });

  /** `?lang=` picks the language and the cookie keeps it; otherwise the cookie's, or Persian. */
  const languageOf = (ctx: Context): Lang => {
    const asked = ctx.query.lang;
    if (asked === 'en' || asked === 'fa') {
      ctx.append('Set-Cookie', `${LANG_COOKIE}=${asked}; Path=/dashboard; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`);
      return asked;
    }
    return ctx.cookies.get(LANG_COOKIE) === 'en' ? 'en' : 'fa';
  };

  const switchHref = (ctx: Context, lang: Lang): string => {
    const query = new URLSearchParams(ctx.querystring);
    query.set('lang', lang === 'fa' ? 'en' : 'fa');
    return `${ctx.path}?${query.toString()}`;
  };

  const fail = (ctx: Context, lang: Lang, error: unknown) => {
    let refusal: Refusal;
    if (error instanceof Refusal) refusal = error;
    else if (error instanceof DomainError && error.code === 'validation_failed') refusal = new Refusal(400, 'bad_request');
    // Another merchant's (or mode's) object is not found, exactly as through the API.
    else if (error instanceof DomainError && error.status === 404) refusal = new Refusal(404, 'not_found');
    else if (isDependencyFailure(error)) {
      logger.warn({ request_id: ctx.state.requestId, err: error instanceof Error ? error.message : String(error), path: ctx.path }, 'dependency unavailable');
      ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      refusal = new Refusal(503, 'unavailable');
    } else {
      logger.error({ request_id: ctx.state.requestId, err: error, method: ctx.method, path: ctx.path }, 'unexpected error');
      refusal = new Refusal(500, 'error');
    }
    ctx.status = refusal.status;
    ctx.type = 'html';
    const requestId = refusal.status >= 500 ? (ctx.state.requestId as string | undefined) : undefined;
    const t = strings(lang);
    ctx.body = messagePage(
      { lang, csrfToken: '', ...(ctx.method === 'GET' ? { switchHref: switchHref(ctx, lang) } : {}) },
      errorWords(refusal.kind, t),
      { kind: refusal.kind === 'not_found' ? 'info' : 'error', requestId, link: { href: '/dashboard', label: t.dashboard } },
    );
  };

  /** Every dashboard page: security headers, no caching (pages hold tokens and the merchant's data), errors as pages. */
  function page(handler: (request: Request) => Promise<void>): (ctx: RouterContext) => Promise<void>;
  function page(handler: (request: SignedInRequest) => Promise<void>, signedIn: true): (ctx: RouterContext) => Promise<void>;
  function page(handler: (request: SignedInRequest) => Promise<void>, signedIn = false) {
    return async (ctx: RouterContext): Promise<void> => {
      setSecurityHeaders(ctx);
      ctx.set('Cache-Control', 'no-store');
      const lang = languageOf(ctx);
      try {
        const token = ctx.cookies.get(sessionCookie);
        const user = await sessionUser(db, config, token);
        if (signedIn && user === undefined) {
          if (token !== undefined) clearSessionCookie(ctx);
          ctx.status = 303;
          ctx.redirect(`/dashboard/sign-in${token !== undefined ? '?ended=1' : ''}`);
          return;
        }
        let csrfToken: string | undefined;
        const view = (section?: Section): ViewContext => {
          csrfToken ??= csrf.issue(ctx);
          return {
            lang,
            csrfToken,
            ...(ctx.method === 'GET' ? { switchHref: switchHref(ctx, lang) } : {}),
            ...(user !== undefined ? { user: { email: user.email, section } } : {}),
          };
        };
        await handler({ ctx, lang, view, user: user! });
      } catch (error) {
        fail(ctx, lang, error);
      }
    };
  }

  /** A form post's fields, once its CSRF token and origin are checked. */
  const readForm = async (ctx: Context): Promise<URLSearchParams> => {
    if (!ctx.request.is('application/x-www-form-urlencoded')) throw new Refusal(400, 'bad_request');
    let text: string;
    try {
      text = await getRawBody(ctx.req, { limit: FORM_LIMIT_BYTES, length: ctx.get('content-length') || undefined, encoding: 'utf8' });
    } catch (error) {
      throw (error as { type?: string }).type === 'entity.too.large' ? new Refusal(413, 'bad_request') : new Refusal(400, 'bad_request');
    }
    const form = new URLSearchParams(text);
    if (!csrf.accepts(ctx, form)) throw new Refusal(403, 'forbidden');
    return form;
  };

  const html = (ctx: Context, body: string, status = 200) => {
    ctx.status = status;
    ctx.type = 'html';
    ctx.body = body;
  };
  const seeOther = (ctx: Context, location: string) => {
    ctx.status = 303;
    ctx.redirect(location);
  };

  router.get(DASHBOARD_CSS.path, (ctx) => {
    setSecurityHeaders(ctx);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = DASHBOARD_CSS.type;
    ctx.body = DASHBOARD_CSS.content;
  });

  router.get(
    '/dashboard',
    page(async ({ ctx }) => {
      seeOther(ctx, (await sessionUser(db, config, ctx.cookies.get(sessionCookie))) === undefined ? '/dashboard/sign-in' : '/dashboard/overview');
    }),
  );

  // ---- Account: sign-up, confirmation, sign-in, sign-out ----

  router.get(
    '/dashboard/sign-up',
    page(async ({ ctx, view }) => {
      html(ctx, signUpPage(view(), { email: '', business_name: '' }));
    }),
  );

  router.post(
    '/dashboard/sign-up',
    page(async ({ ctx, lang, view }) => {
      const form = await readForm(ctx);
      const values = { email: form.get('email') ?? '', business_name: form.get('business_name') ?? '' };
      try {
        await signUp({ db, config, mailer, temporal }, { email: values.email, password: form.get('password') ?? '', businessName: values.business_name, lang });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        html(ctx, signUpPage(view(), values, strings(lang)[`error_${error.code}`]), 422);
        return;
      }
      seeOther(ctx, '/dashboard/sign-up/sent');
    }),
  );

  router.get(
    '/dashboard/sign-up/sent',
    page(async ({ ctx, lang, view }) => {
      const t = strings(lang);
      html(ctx, messagePage(view(), { title: t.checkEmailTitle, text: t.checkEmailText }, { kind: 'info' }));
    }),
  );

  router.get(
    '/dashboard/confirm',
    page(async ({ ctx, lang, view }) => {
      const t = strings(lang);
      const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
      try {
        await confirmEmail(db, token);
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        html(ctx, messagePage(view(), { title: t.badRequestTitle, text: t.error_invalid_link }, { kind: 'error' }), 400);
        return;
      }
      html(ctx, messagePage(view(), { title: t.confirmedTitle, text: t.confirmedText }, { kind: 'success', link: { href: '/dashboard/sign-in', label: t.signInButton } }));
    }),
  );

  router.get(
    '/dashboard/sign-in',
    page(async ({ ctx, lang, view }) => {
      const t = strings(lang);
      const notice =
        ctx.query.signed_out === '1' ? t.signedOutText : ctx.query.ended === '1' ? t.sessionEndedText : ctx.query.challenge_ended === '1' ? t.challengeEndedText : undefined;
      html(ctx, signInPage(view(), { email: '' }, { notice }));
    }),
  );

  router.post(
    '/dashboard/sign-in',
    page(async ({ ctx, lang, view }) => {
      const form = await readForm(ctx);
      const email = form.get('email') ?? '';
      let user: SignedInUser;
      try {
        user = await checkCredentials(db, { email, password: form.get('password') ?? '', address: ctx.ip });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        await audit(ctx, 'sign_in_failed', error.subject, error.code);
        html(ctx, signInPage(view(), { email }, { error: strings(lang)[`error_${error.code}`] }), 401);
        return;
      }
      if (user.twoFactor) {
        // The password was right; the session waits for the second factor.
        setChallengeCookie(ctx, await startChallenge(db, user.userId));
        seeOther(ctx, '/dashboard/sign-in/two-factor');
        return;
      }
      await signIn(ctx, user, 'password');
    }),
  );

  /** Starts the session of a user who passed every step of sign-in. */
  const signIn = async (ctx: Context, user: SignedInUser, how: string) => {
    // A new session id at every sign-in: a session planted before it (fixation) never becomes a signed-in one.
    const token = await startSession(db, config, user.userId, ctx.cookies.get(sessionCookie));
    setSessionCookie(ctx, token);
    await audit(ctx, 'sign_in', user, how);
    seeOther(ctx, '/dashboard/overview');
  };

  router.get(
    '/dashboard/sign-in/two-factor',
    page(async ({ ctx, view }) => {
      if (!(await challengeStands(db, ctx.cookies.get(challengeCookie)))) {
        seeOther(ctx, '/dashboard/sign-in?challenge_ended=1');
        return;
      }
      html(ctx, twoFactorSignInPage(view()));
    }),
  );

  router.post(
    '/dashboard/sign-in/two-factor',
    page(async ({ ctx, lang, view }) => {
      const form = await readForm(ctx);
      try {
        const { user, method } = await passChallenge({ db, box }, ctx.cookies.get(challengeCookie), form.get('code') ?? '', ctx.ip);
        clearChallengeCookie(ctx);
        if (method === 'recovery_code') await audit(ctx, 'recovery_code_used', user);
        await signIn(ctx, user, method === 'totp' ? 'password + TOTP' : 'password + recovery code');
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        if (error.code === 'invalid_link') {
          clearChallengeCookie(ctx);
          seeOther(ctx, '/dashboard/sign-in?challenge_ended=1');
          return;
        }
        await audit(ctx, 'two_factor_failed', error.subject, 'sign-in');
        html(ctx, twoFactorSignInPage(view(), strings(lang).error_invalid_code), 401);
      }
    }),
  );

  // ---- Password reset ----

  router.get(
    '/dashboard/forgot-password',
    page(async ({ ctx, view }) => {
      html(ctx, forgotPasswordPage(view(), { email: '' }));
    }),
  );

  router.post(
    '/dashboard/forgot-password',
    page(async ({ ctx, lang }) => {
      const form = await readForm(ctx);
      // The same answer whether the address has an account or not.
      const account = await requestPasswordReset({ db, config, mailer }, { email: form.get('email') ?? '', lang });
      if (account !== undefined) await audit(ctx, 'password_reset_requested', account);
      seeOther(ctx, '/dashboard/forgot-password/sent');
    }),
  );

  router.get(
    '/dashboard/forgot-password/sent',
    page(async ({ ctx, lang, view }) => {
      const t = strings(lang);
      html(ctx, messagePage(view(), { title: t.forgotSentTitle, text: t.forgotSentText }, { kind: 'info' }));
    }),
  );

  const invalidLink = (ctx: Context, request: Request) => {
    const t = strings(request.lang);
    html(ctx, messagePage(request.view(), { title: t.badRequestTitle, text: t.error_invalid_link }, { kind: 'error', link: { href: '/dashboard/forgot-password', label: t.forgotTitle } }), 400);
  };

  router.get(
    '/dashboard/reset',
    page(async (request) => {
      const { ctx, view } = request;
      const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
      try {
        await checkResetLink(db, token);
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        invalidLink(ctx, request);
        return;
      }
      html(ctx, resetPasswordPage(view(), token));
    }),
  );

  router.post(
    '/dashboard/reset',
    page(async (request) => {
      const { ctx, lang, view } = request;
      const form = await readForm(ctx);
      const token = form.get('token') ?? '';
      let account;
      try {
        account = await resetPassword(db, token, form.get('password') ?? '');
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        if (error.code !== 'weak_password') {
          invalidLink(ctx, request);
          return;
        }
        html(ctx, resetPasswordPage(view(), token, strings(lang).error_weak_password), 422);
        return;
      }
      await audit(ctx, 'password_reset', account);
      clearSessionCookie(ctx);
      const t = strings(lang);
      html(ctx, messagePage(view(), { title: t.resetDoneTitle, text: t.resetDoneText }, { kind: 'success', link: { href: '/dashboard/sign-in', label: t.signInButton } }));
    }),
  );

  router.post(
    '/dashboard/sign-out',
    page(async ({ ctx }) => {
      await readForm(ctx);
      const token = ctx.cookies.get(sessionCookie);
      const user = await sessionUser(db, config, token);
      if (token !== undefined) await endSession(db, token);
      if (user !== undefined) await audit(ctx, 'sign_out', user);
      clearSessionCookie(ctx);
      seeOther(ctx, '/dashboard/sign-in?signed_out=1');
    }),
  );

  router.post(
    '/dashboard/sign-out-everywhere',
    page(async ({ ctx, user }) => {
      await readForm(ctx);
      await endAllSessions(db, user.userId);
      await audit(ctx, 'sign_out_everywhere', user);
      clearSessionCookie(ctx);
      seeOther(ctx, '/dashboard/sign-in?signed_out=1');
    }, true),
  );

  // ---- Payments ----

  router.get(
    '/dashboard/payments',
    page(async ({ ctx, view, user }) => {
      const mode = modeOf(ctx.query.mode);
      const status = PAYMENT_STATUSES.includes(ctx.query.status as PaymentStatus) ? (ctx.query.status as PaymentStatus) : undefined;
      const cursor = typeof ctx.query.cursor === 'string' && CURSOR.test(ctx.query.cursor) ? ctx.query.cursor : undefined;
      const page = await listPayments(db, tenantOf(user.merchantId, mode), { limit: 20, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) });
      html(ctx, paymentsPage(view('payments'), { mode, status, payments: page.data, nextCursor: page.next_cursor, paged: cursor !== undefined }));
    }, true),
  );

  // ---- API & gateway ----

  const developers = async (request: SignedInRequest, options: Parameters<typeof developersPage>[2] = {}, status = 200) => {
    const summary = await merchantSummary(db, request.user.merchantId);
    const keys = await listMerchantKeys(db, request.user.merchantId);
    const missing = await liveKeyMissing(db, request.user);
    html(request.ctx, developersPage(request.view('developers'), { ...summary, keys, liveKeyMissing: missing }, options), status);
  };

  /** A step the onboarding workflow refused, in the merchant's words. */
  const refusalText = (lang: Lang, error: OnboardingRefused) => strings(lang)[`refusal_${error.code}`];

  router.get(
    '/dashboard/developers',
    page(async (request) => {
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      const notice = done === 'gateway' ? t.gatewayRequestedText : done === 'revoked' ? t.keyRevokedText : done === 'live' ? t.liveActivatedText : undefined;
      await developers(request, { notice });
    }, true),
  );

  // The merchant's own onboarding steps on this page: the gateway request, and live mode once approved (live keys are made elsewhere).
  const merchantSteps = [
    ['/dashboard/developers/gateway', requestGateway, 'gateway', 'gateway_requested'],
    ['/dashboard/developers/live', activateLiveMode, 'live', 'live_mode_activated'],
  ] as const;
  for (const [path, step, done, recorded] of merchantSteps) {
    router.post(
      path,
      page(async (request) => {
        await readForm(request.ctx);
        try {
          await step(onboarding, request.user.merchantId);
        } catch (error) {
          if (!(error instanceof OnboardingRefused)) throw error;
          await developers(request, { error: refusalText(request.lang, error) }, 409);
          return;
        }
        await audit(request.ctx, recorded, request.user);
        seeOther(request.ctx, `/dashboard/developers?done=${done}`);
      }, true),
    );
  }

  // ---- Business documents ----

  const documents = async (request: SignedInRequest, options: Parameters<typeof documentsPage>[2] & { values?: Parameters<typeof documentsPage>[1]['values'] } = {}, status = 200) => {
    const summary = await merchantSummary(db, request.user.merchantId);
    const current = await currentDocuments(db, request.user.merchantId);
    const submitted = current?.submission;
    const values = options.values ?? {
      legal_name: submitted?.legal_name ?? '',
      id_kind: submitted?.id_kind ?? 'person',
      national_id: submitted?.national_id ?? '',
      iban: submitted?.iban ?? '',
    };
    html(request.ctx, documentsPage(request.view('settings'), { status: summary.onboarding_status, values, files: current?.files ?? [] }, options), status);
  };

  router.get(
    '/dashboard/documents',
    page(async (request) => {
      await documents(request, { notice: request.ctx.query.done === 'submitted' ? strings(request.lang).documentsSubmittedText : undefined });
    }, true),
  );

  router.post(
    '/dashboard/documents',
    page(async (request) => {
      let form: Awaited<ReturnType<typeof readMultipartForm>>;
      try {
        form = await readMultipartForm(request.ctx, csrf);
      } catch (error) {
        if (error instanceof MultipartRefused) throw new Refusal(error.status, error.status === 403 ? 'forbidden' : 'bad_request');
        throw error;
      }
      const field = (name: string) => (form.fields.get(name) ?? '').slice(0, 1_000);
      // The typed values come back into the form after a refusal; the files must be chosen again (browsers never refill them).
      const values = { legal_name: field('legal_name'), id_kind: field('id_kind'), national_id: field('national_id'), iban: field('iban') };
      try {
        await submitDocuments({ ...onboarding, store }, request.user.merchantId, values, form.files);
      } catch (error) {
        if (error instanceof DocumentsInvalid) return documents(request, { problems: error.problems, values }, 422);
        if (error instanceof OnboardingRefused) return documents(request, { error: refusalText(request.lang, error), values }, 409);
        throw error;
      }
      await audit(request.ctx, 'documents_submitted', request.user);
      seeOther(request.ctx, '/dashboard/documents?done=submitted');
    }, true),
  );

  router.post(
    '/dashboard/developers/keys',
    page(async (request) => {
      const form = await readForm(request.ctx);
      const mode = form.get('mode');
      if (mode !== 'test' && mode !== 'live') throw new Refusal(400, 'bad_request');
      let key;
      try {
        key = await createDashboardKey(db, request.user, mode);
      } catch (error) {
        if (!(error instanceof LiveKeyRefused)) throw error;
        await developers(request, { refusedMissing: error.missing }, 409);
        return;
      }
      await audit(request.ctx, 'key_created', request.user, `${parseKey(key.key)!.prefix}…`);
      // Answered here, not after a redirect: the key is shown this once and stored nowhere.
      await developers(request, { newKey: key.key }, 201);
    }, true),
  );

  router.post(
    '/dashboard/developers/keys/:id/revoke',
    page(async (request) => {
      await readForm(request.ctx);
      const id = request.ctx.params.id ?? '';
      if (!UUID.test(id)) throw new Refusal(404, 'not_found');
      try {
        await revokeMerchantKey(db, request.user.merchantId, id);
      } catch (error) {
        if (error instanceof OnboardingError) throw new Refusal(404, 'not_found');
        throw error;
      }
      const revoked = (await listMerchantKeys(db, request.user.merchantId)).find((k) => k.id === id);
      await audit(request.ctx, 'key_revoked', request.user, `${revoked?.prefix ?? id}…`);
      seeOther(request.ctx, '/dashboard/developers?done=revoked');
    }, true),
  );

  router.post(
    '/dashboard/developers/keys/:id/roll',
    page(async (request) => {
      const form = await readForm(request.ctx);
      const id = request.ctx.params.id ?? '';
      if (!UUID.test(id)) throw new Refusal(404, 'not_found');
      const expiresIn = Number(form.get('expires_in'));
      if (!ROLL_EXPIRIES.has(expiresIn)) throw new Refusal(400, 'bad_request');
      let rolled;
      try {
        rolled = await rollDashboardKey(db, request.user, id, expiresIn);
      } catch (error) {
        if (error instanceof LiveKeyRefused) {
          await developers(request, { refusedMissing: error.missing }, 409);
          return;
        }
        // Another merchant's key is not found; a revoked or expired one cannot be rolled.
        if (error instanceof OnboardingError) throw new Refusal(404, 'not_found');
        throw error;
      }
      await audit(request.ctx, 'key_rolled', request.user, `${rolled.old_prefix}… → ${parseKey(rolled.key)!.prefix}…, old key until ${rolled.old_key_expires_at}`);
      await developers(request, { newKey: rolled.key, notice: strings(request.lang).keyRolledText }, 201);
    }, true),
  );

  // ---- Settings ----

  const settings = async (request: SignedInRequest, options: Parameters<typeof settingsPage>[2] = {}, status = 200) => {
    const summary = await merchantSummary(db, request.user.merchantId);
    html(request.ctx, settingsPage(request.view('settings'), { domains: summary.domains, email: request.user.email }, options), status);
  };

  router.get(
    '/dashboard/settings',
    page(async (request) => {
      const t = strings(request.lang);
      const done = request.ctx.query.done;
      await settings(request, { notice: done === 'added' ? t.domainAddedText : done === 'removed' ? t.domainRemovedText : undefined });
    }, true),
  );

  router.post(
    '/dashboard/settings/domains',
    page(async (request) => {
      const form = await readForm(request.ctx);
      const domain = form.get('domain') ?? '';
      try {
        await addDomain(onboarding, request.user.merchantId, domain);
      } catch (error) {
        if (!(error instanceof OnboardingError)) throw error;
        await settings(request, { error: strings(request.lang).error_invalid_domain, domainValue: domain.slice(0, 300) }, 422);
        return;
      }
      await audit(request.ctx, 'domain_added', request.user, normalizeDomain(domain));
      seeOther(request.ctx, '/dashboard/settings?done=added');
    }, true),
  );

  router.post(
    '/dashboard/settings/domains/remove',
    page(async (request) => {
      const form = await readForm(request.ctx);
      const domain = form.get('domain') ?? '';
      try {
        await removeDomain(db, request.user.merchantId, domain);
      } catch (error) {
        if (!(error instanceof OnboardingError)) throw error;
        throw new Refusal(400, 'bad_request');
      }
      await audit(request.ctx, 'domain_removed', request.user, normalizeDomain(domain));
      seeOther(request.ctx, '/dashboard/settings?done=removed');
    }, true),
  );

  // ---- Security: two-factor sign-in and the audit log ----

  const security = async (request: SignedInRequest, options: Parameters<typeof securityPage>[2] = {}, status = 200) => {
    const before = typeof request.ctx.query.before === 'string' && /^[1-9][0-9]{0,18}$/.test(request.ctx.query.before) ? Number(request.ctx.query.before) : undefined;
    const { entries, next } = await listAudit(db, request.user.merchantId, { limit: AUDIT_PAGE, ...(before !== undefined ? { before } : {}) });
    html(
      request.ctx,
      securityPage(
        request.view('security'),
        {
          twoFactor: await twoFactorStatus(db, request.user.userId),
          audit: entries,
          ...(next !== undefined ? { olderHref: `/dashboard/security?before=${next}` } : {}),
          ...(before !== undefined ? { newestHref: '/dashboard/security' } : {}),
        },
        options,
      ),
      status,
    );
  };

  router.get(
    '/dashboard/security',
    page(async (request) => {
      await security(request, { notice: request.ctx.query.done === 'disabled' ? strings(request.lang).twoFactorDisabledText : undefined });
    }, true),
  );

  const setupPage = async (request: SignedInRequest, error?: string, status = 200) => {
    const secret = await pendingTotpSecret({ db, box }, request.user.userId);
    html(request.ctx, await twoFactorSetupPage(request.view('security'), { secret, uri: totpUri(secret, request.user.email) }, error), status);
  };

  router.get(
    '/dashboard/security/two-factor',
    page(async (request) => {
      if (request.user.twoFactor) {
        seeOther(request.ctx, '/dashboard/security');
        return;
      }
      await setupPage(request);
    }, true),
  );

  router.post(
    '/dashboard/security/two-factor',
    page(async (request) => {
      const form = await readForm(request.ctx);
      if (request.user.twoFactor) throw new Refusal(409, 'bad_request');
      let codes: string[];
      try {
        codes = await enableTwoFactor({ db, box }, request.user.userId, form.get('code') ?? '');
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        await setupPage(request, strings(request.lang).error_invalid_code, 422);
        return;
      }
      await audit(request.ctx, 'two_factor_enabled', request.user);
      // Shown here, this once: only their hashes are kept.
      html(request.ctx, recoveryCodesPage(request.view('security'), codes), 201);
    }, true),
  );

  router.post(
    '/dashboard/security/two-factor/disable',
    page(async (request) => {
      const form = await readForm(request.ctx);
      if (!request.user.twoFactor) {
        seeOther(request.ctx, '/dashboard/security');
        return;
      }
      let method;
      try {
        method = await disableTwoFactor({ db, box }, request.user.userId, form.get('code') ?? '');
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        await audit(request.ctx, 'two_factor_failed', request.user, 'turning two-step sign-in off');
        await security(request, { error: strings(request.lang).error_invalid_code }, 422);
        return;
      }
      if (method === 'recovery_code') await audit(request.ctx, 'recovery_code_used', request.user);
      await audit(request.ctx, 'two_factor_disabled', request.user);
      seeOther(request.ctx, '/dashboard/security?done=disabled');
    }, true),
  );

  // ---- The areas in their own modules, built with the same kit ----

  const kit: DashboardKit = { router, deps, signedIn: (handler) => page(handler, true), readForm, html, seeOther, audit };
  overviewPages(kit);
  paymentPages(kit);
  settlementPages(kit);
  webhookPages(kit);

  return router;
}
