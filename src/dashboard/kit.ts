/**
 * What every area of the dashboard builds its routes with: the page wrapper
 * (security headers, session, language, errors as pages), the checked form
 * reader and the answers. `routes.ts` makes one kit and hands it to each
 * area's module, so every page follows the same rules.
 */
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Context } from 'koa';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import type { Mailer } from '../adapters/mailer.ts';
import type { SignedInUser } from '../accounts/accounts.ts';
import { tenantOf, type KeyMode, type Tenant } from '../domain/merchant.ts';
import { strings, type Lang } from './i18n.ts';
import type { MessageKind, Section, ViewContext } from './views.ts';
import type { AuditAction } from '../domain/audit.ts';

export interface DashboardDependencies {
  config: Config;
  db: Db;
  temporal: Client;
  logger: Logger;
  mailer: Mailer;
}

/** A refusal shown as an error page with its status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly kind: MessageKind,
  ) {
    super(kind);
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
  /** A page for a signed-in user; anyone else is sent to sign in. */
  signedIn: (handler: (request: SignedInRequest) => Promise<void>) => (ctx: RouterContext) => Promise<void>;
  /** A form post's fields, once its CSRF token and origin are checked (403 otherwise). */
  readForm: (ctx: Context) => Promise<URLSearchParams>;
  html: (ctx: Context, body: string, status?: number) => void;
  seeOther: (ctx: Context, location: string) => void;
  /** Records a dashboard action in the merchant's audit log (docs/DASHBOARD.md#audit-log), with the request's address and user agent. */
  audit: (ctx: Context, action: AuditAction, who: { userId: string; merchantId: string } | undefined, detail?: string) => Promise<void>;
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
  return (['test', 'live'] as const).map((m) => ({ value: m, label: t[`mode_${m}`], href: `${path}${modeQuery(m)}`, current: m === current }));
};
