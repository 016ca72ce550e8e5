/**
 * What every area of the dashboard builds its routes with: the page wrapper
 * (security headers, session, language, errors as pages), the checked form
 * reader, the answers, the audit entry and the cookies. `routes.ts` makes one
 * kit (`dashboardKit`) and hands it to each area's module, so every page
 * follows the same rules.
 */
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { auditAction } from '../accounts/audit.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Mailer } from '../adapters/mailer.ts';
import type { SignedInUser } from '../accounts/accounts.ts';
import { secretBox, type SecretBox } from '../accounts/secret-box.ts';
import { sessionUser } from '../accounts/sessions.ts';
import { mailOwner } from '../accounts/owner-mail.ts';
import { liveActionMissing, type LiveAction } from '../accounts/step-up.ts';
import { tenantOf, type KeyMode, type Tenant } from '../domain/merchant.ts';
import type { AuditAction } from '../domain/audit.ts';
import { configuredCsrfGuard, type CsrfGuard } from '../http/csrf.ts';
import { pageFailure } from '../http/dependencies.ts';
import { setSecurityHeaders } from '../http/page-headers.ts';
import { dashboardCookies, type DashboardCookies } from './cookies.ts';
import { strings, type Lang } from './i18n.ts';
import { errorWords, messagePage, type MessageKind, type Section, type ViewContext } from './views.ts';

/** Dashboard forms carry a few short fields; anything bigger is not ours. */
const FORM_LIMIT_BYTES = 8_192;

export interface DashboardDependencies {
  config: Config;
  db: Db;
  temporal: Client;
  logger: Logger;
  mailer: Mailer;
}

/** A refusal shown as an error page with its status. */
export class Refusal extends Error {
  readonly status: number;
  readonly kind: MessageKind;
  constructor(status: number, kind: MessageKind) {
    super(kind);
    this.status = status;
    this.kind = kind;
  }
}

export interface Request {
  ctx: RouterContext;
  lang: Lang;
  /** The view context: language, switch link, signed-in user, CSRF token. */
  view: (section?: Section) => ViewContext;
}

export interface SignedInRequest extends Request {
  user: SignedInUser;
}

export interface DashboardKit {
  router: Router;
  deps: DashboardDependencies;
  /** A page anyone may see (sign-up, sign-in, password reset). */
  page: (handler: (request: Request) => Promise<void>) => (ctx: RouterContext) => Promise<void>;
  /** A page for a signed-in user; anyone else is sent to sign in. */
  signedIn: (handler: (request: SignedInRequest) => Promise<void>) => (ctx: RouterContext) => Promise<void>;
  /** A form post's fields, once its CSRF token and origin are checked (403 otherwise). */
  readForm: (ctx: Context) => Promise<URLSearchParams>;
  html: (ctx: Context, body: string, status?: number) => void;
  seeOther: (ctx: Context, location: string) => void;
  /** Records a dashboard action in the merchant's audit log (docs/DASHBOARD.md#audit-log), with the request's address and user agent. */
  audit: (
    ctx: Context,
    action: AuditAction,
    who: { userId: string; merchantId: string } | undefined,
    detail?: string,
  ) => Promise<void>;
  cookies: DashboardCookies;
  /** The forms' CSRF guard, for the one form the kit's reader does not read (the documents' multipart upload). */
  csrf: CsrfGuard;
  /** Seals the two-factor secrets kept in MySQL. */
  box: SecretBox;
  /**
   * Whether this session may do a live action now (docs/SECURITY.md#live-actions-need-a-recent-second-factor).
   * If not, it has answered: without two-step sign-in, a refusal (recorded, and mailed to the owner);
   * without a recent second factor, the step-up page, which comes back to `returnTo`.
   */
  liveAllowed: (request: SignedInRequest, action: LiveAction, returnTo: string) => Promise<boolean>;
  /** A live action refused for want of two-step sign-in: the audit entry and the owner's email. */
  liveRefused: (request: SignedInRequest, action: LiveAction) => Promise<void>;
  /** Sends the session to the step-up page, which comes back to `returnTo` (a dashboard page). */
  stepUp: (request: SignedInRequest, returnTo: string) => void;
  /** A live action done: the owner is told by email. */
  liveDone: (request: SignedInRequest, action: LiveAction, detail: string) => Promise<void>;
}

/** A list's cursor as the API hands it out (base64url). */
export const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The id in the path (`:id`), or 404: nothing but a uuid names a dashboard object. */
export function idInPath(request: Request): string {
  const id = request.ctx.params.id ?? '';
  if (!UUID.test(id)) throw new Refusal(404, 'not_found');
  return id;
}

/** The mode a page shows: `?mode=live`, or test (the default). */
export const modeOf = (value: unknown): KeyMode => (value === 'live' ? 'live' : 'test');

/** The signed-in user's merchant in one mode: whose objects a page may show. */
export const tenantOfUser = (user: SignedInUser, mode: KeyMode): Tenant => tenantOf(user.merchantId, mode);

/** `?mode=live` on live pages, nothing on test ones (the default). */
export const modeQuery = (mode: KeyMode, prefix: '?' | '&' = '?') => (mode === 'live' ? `${prefix}mode=live` : '');

/** The test/live switch of a page at `path`. */
export const modeSwitch = (lang: Lang, current: KeyMode, path: string) => {
  const t = strings(lang);
  return (['test', 'live'] as const).map((m) => ({
    value: m,
    label: t[`mode_${m}`],
    href: `${path}${modeQuery(m)}`,
    current: m === current,
  }));
};

/** The kit of one dashboard: `deps` and the cookies, CSRF guard and secret box made from its configuration. */
export function dashboardKit(router: Router, deps: DashboardDependencies): DashboardKit {
  const { config, db, logger } = deps;
  const cookies = dashboardCookies(config.PUBLIC_BASE_URL);
  const box = secretBox(config.DASHBOARD_SECRETS_KEY);
  if (!box.sealing)
    logger.warn(
      'DASHBOARD_SECRETS_KEY is not set: two-factor secrets are stored unsealed in MySQL (set it in production)',
    );
  const csrf = configuredCsrfGuard(config, {
    cookie: 'dargah_dashboard_csrf',
    path: '/dashboard',
    purpose: 'dargah-dashboard-csrf',
  });

  const audit: DashboardKit['audit'] = (ctx, action, who, detail) =>
    auditAction(db, {
      action,
      ...(who ?? {}),
      ...(detail !== undefined ? { detail } : {}),
      address: ctx.ip,
      userAgent: ctx.get('user-agent'),
    });

  const switchHref = (ctx: Context, lang: Lang): string => {
    const query = new URLSearchParams(ctx.querystring);
    query.set('lang', lang === 'fa' ? 'en' : 'fa');
    return `${ctx.path}?${query.toString()}`;
  };

  const fail = (ctx: Context, lang: Lang, error: unknown) => {
    let refusal: Refusal;
    if (error instanceof Refusal) refusal = error;
    else if (error instanceof DomainError && error.code === 'validation_failed')
      refusal = new Refusal(400, 'bad_request');
    // Another merchant's (or mode's) object is not found, exactly as through the API.
    else if (error instanceof DomainError && error.status === 404) refusal = new Refusal(404, 'not_found');
    else {
      const failure = pageFailure(ctx, error, logger);
      refusal = new Refusal(failure.status, failure.kind);
    }
    ctx.status = refusal.status;
    ctx.type = 'html';
    const requestId = refusal.status >= 500 ? (ctx.state.requestId as string | undefined) : undefined;
    const t = strings(lang);
    ctx.body = messagePage(
      { lang, csrfToken: '', ...(ctx.method === 'GET' ? { switchHref: switchHref(ctx, lang) } : {}) },
      errorWords(refusal.kind, t),
      {
        kind: refusal.kind === 'not_found' ? 'info' : 'error',
        requestId,
        link: { href: '/dashboard', label: t.dashboard },
      },
    );
  };

  /** Every dashboard page: security headers, no caching (pages hold tokens and the merchant's data), errors as pages. */
  const page = (handler: (request: SignedInRequest) => Promise<void>, signedIn: boolean) => {
    return async (ctx: RouterContext): Promise<void> => {
      setSecurityHeaders(ctx);
      ctx.set('Cache-Control', 'no-store');
      const lang = cookies.language(ctx);
      try {
        const token = cookies.session(ctx);
        const user = await sessionUser(db, config, token);
        if (signedIn && user === undefined) {
          if (token !== undefined) cookies.clearSession(ctx);
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
  };

  const readForm = async (ctx: Context): Promise<URLSearchParams> => {
    if (!ctx.request.is('application/x-www-form-urlencoded')) throw new Refusal(400, 'bad_request');
    let text: string;
    try {
      text = await getRawBody(ctx.req, {
        limit: FORM_LIMIT_BYTES,
        length: ctx.get('content-length') || undefined,
        encoding: 'utf8',
      });
    } catch (error) {
      throw (error as { type?: string }).type === 'entity.too.large'
        ? new Refusal(413, 'bad_request')
        : new Refusal(400, 'bad_request');
    }
    const form = new URLSearchParams(text);
    if (!csrf.accepts(ctx, form)) throw new Refusal(403, 'forbidden');
    return form;
  };

  const seeOther = (ctx: Context, location: string) => {
    ctx.status = 303;
    ctx.redirect(location);
  };
  const owner = { db, mailer: deps.mailer, baseUrl: config.PUBLIC_BASE_URL };
  const liveRefused: DashboardKit['liveRefused'] = async (request, action) => {
    await audit(request.ctx, 'live_action_refused', request.user, action);
    await mailOwner(owner, request.user.email, request.lang, { kind: 'live_action_refused', action });
  };
  const stepUp: DashboardKit['stepUp'] = (request, returnTo) =>
    seeOther(request.ctx, `/dashboard/step-up?return=${encodeURIComponent(returnTo)}`);
  const liveAllowed: DashboardKit['liveAllowed'] = async (request, action, returnTo) => {
    const missing = liveActionMissing(request.user, Date.now());
    if (missing === undefined) return true;
    if (missing === 'step_up') {
      stepUp(request, returnTo);
      return false;
    }
    await liveRefused(request, action);
    const t = strings(request.lang);
    request.ctx.status = 403;
    request.ctx.type = 'html';
    request.ctx.body = messagePage(
      request.view(),
      { title: t.twoFactorRequiredTitle, text: t.twoFactorRequiredText },
      { kind: 'error', link: { href: '/dashboard/security', label: t.navSecurity } },
    );
    return false;
  };

  return {
    router,
    deps,
    page: (handler) => page(handler, false),
    signedIn: (handler) => page(handler, true),
    readForm,
    html: (ctx, body, status = 200) => {
      ctx.status = status;
      ctx.type = 'html';
      ctx.body = body;
    },
    seeOther,
    audit,
    cookies,
    csrf,
    box,
    liveAllowed,
    liveRefused,
    stepUp,
    liveDone: (request, action, detail) =>
      mailOwner(owner, request.user.email, request.lang, { kind: 'live_action_done', action, detail }),
  };
}
