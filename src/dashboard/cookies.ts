/**
 * The dashboard's three cookies, each set through src/http/cookies.ts: the
 * session, the sign-in waiting for its second factor, and the language.
 */
import type { Context } from 'koa';
import { CHALLENGE } from '../accounts/two-factor.ts';
import { clearCookie, hostCookieName, secureSite, setCookie } from '../http/cookies.ts';
import type { Lang } from './i18n.ts';

const LANG_COOKIE = 'dargah_lang';
const LANG_COOKIE_SECONDS = 31_536_000;

export interface DashboardCookies {
  session(ctx: Context): string | undefined;
  setSession(ctx: Context, token: string): void;
  clearSession(ctx: Context): void;
  /** A sign-in waiting for its second factor: its own short-lived cookie, never a session. */
  challenge(ctx: Context): string | undefined;
  setChallenge(ctx: Context, token: string): void;
  clearChallenge(ctx: Context): void;
  /** `?lang=` picks the language and the cookie keeps it; otherwise the cookie's, or Persian. */
  language(ctx: Context): Lang;
}

export function dashboardCookies(publicBaseUrl: string): DashboardCookies {
  const secure = secureSite(publicBaseUrl);
  // __Host-: the browser keeps the cookie to this exact host, on https only, for every path.
  const sessionCookie = hostCookieName('dargah_session', secure);
  const challengeCookie = hostCookieName('dargah_sign_in', secure);
  const signInAttributes = { path: '/', httpOnly: true, secure };
  return {
    session: (ctx) => ctx.cookies.get(sessionCookie),
    setSession: (ctx, token) => setCookie(ctx, sessionCookie, token, signInAttributes),
    clearSession: (ctx) => clearCookie(ctx, sessionCookie, signInAttributes),
    challenge: (ctx) => ctx.cookies.get(challengeCookie),
    setChallenge: (ctx, token) =>
      setCookie(ctx, challengeCookie, token, { ...signInAttributes, maxAge: CHALLENGE.seconds }),
    clearChallenge: (ctx) => clearCookie(ctx, challengeCookie, signInAttributes),
    language(ctx) {
      const asked = ctx.query.lang;
      if (asked === 'en' || asked === 'fa') {
        // Not HttpOnly: it holds nothing but the language.
        setCookie(ctx, LANG_COOKIE, asked, {
          path: '/dashboard',
          httpOnly: false,
          maxAge: LANG_COOKIE_SECONDS,
          secure,
        });
        return asked;
      }
      return ctx.cookies.get(LANG_COOKIE) === 'en' ? 'en' : 'fa';
    },
  };
}
