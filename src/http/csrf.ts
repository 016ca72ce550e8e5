/**
 * Cross-site request forgery protection for the forms of the hosted pages
 * (the test bank's form) and of the dashboard: a signed double-submit token
 * plus an Origin check. Each user of it has its own cookie, path and signing
 * purpose, so a token of one is never accepted by the other.
 *
 * The page sets a random nonce in an HttpOnly cookie and puts
 * HMAC(secret, nonce) in the form. A post is accepted only when the form's
 * token is the HMAC of the cookie it arrives with, so another site can
 * neither read the token nor forge one (even if it could plant a cookie),
 * and only when the browser says the post came from our own origin.
 * Nothing is stored on the server: any API process with the same secret
 * checks any token (the API is stateless: docs/ARCHITECTURE.md).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { hostCookieName, secureSite, setCookie, type CookieAttributes } from './cookies.ts';

export const CSRF_FIELD = 'csrf_token';
const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/; // 32 random bytes, base64url

export interface CsrfGuard {
  /** Reuses the browser's nonce or makes one, sets the cookie, and answers the token for the form. */
  issue(ctx: Context): string;
  /** Whether a form post carries a valid token for its cookie and comes from our own origin. */
  accepts(ctx: Context, form: URLSearchParams): boolean;
}

export interface CsrfOptions {
  secret: string;
  publicBaseUrl: string;
  /** The nonce cookie's name and path, e.g. `dargah_csrf` on `/pay`. */
  cookie: string;
  path: string;
  /** What the tokens are for; part of what is signed (`dargah-pay-csrf`). */
  purpose: string;
}

export function csrfGuard(options: CsrfOptions): CsrfGuard {
  const secure = secureSite(options.publicBaseUrl);
  // Over https `__Host-<name>` (cookies.ts), which requires Path=/; over plain http (development) the cookie stays on its own pages.
  const cookie = hostCookieName(options.cookie, secure);
  const attributes: CookieAttributes = { path: secure ? '/' : options.path, httpOnly: true, secure };
  const publicOrigin = new URL(options.publicBaseUrl).origin;
  const sign = (nonce: string) =>
    createHmac('sha256', options.secret).update(`${options.purpose}:${nonce}`).digest('base64url');

  const sameOrigin = (ctx: Context): boolean => {
    // The origin the browser loaded the page from: the public one, or this server's own address.
    const own = new Set([publicOrigin, `${ctx.protocol}://${ctx.host}`]);
    const origin = ctx.get('origin');
    if (origin !== '') return own.has(origin);
    // Browsers send Origin on every form post; an old one without it still sends a same-origin Referer.
    const referer = ctx.get('referer');
    if (referer === '') return false;
    try {
      return own.has(new URL(referer).origin);
    } catch {
      return false;
    }
  };

  return {
    issue(ctx) {
      const existing = ctx.cookies.get(cookie);
      const nonce =
        existing !== undefined && NONCE_PATTERN.test(existing) ? existing : randomBytes(32).toString('base64url');
      setCookie(ctx, cookie, nonce, attributes);
      return sign(nonce);
    },
    accepts(ctx, form) {
      if (!sameOrigin(ctx)) return false;
      const nonce = ctx.cookies.get(cookie);
      const token = form.get(CSRF_FIELD);
      if (nonce === undefined || !NONCE_PATTERN.test(nonce) || token === null) return false;
      const expected = Buffer.from(sign(nonce));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/**
 * A guard under the gateway's configuration: signed with PAGES_CSRF_SECRET, or, when it is unset,
 * a random secret of this process alone (a form served by another process then fails; the pages
 * warn about it at start).
 */
export function configuredCsrfGuard(
  config: { PAGES_CSRF_SECRET: string; PUBLIC_BASE_URL: string },
  use: Pick<CsrfOptions, 'cookie' | 'path' | 'purpose'>,
): CsrfGuard {
  const secret = config.PAGES_CSRF_SECRET === '' ? randomBytes(32).toString('base64url') : config.PAGES_CSRF_SECRET;
  return csrfGuard({ secret, publicBaseUrl: config.PUBLIC_BASE_URL, ...use });
}
