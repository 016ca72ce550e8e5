/**
 * Every cookie the gateway sets, written in one place: the CSRF nonces of the
 * hosted pages and the dashboard (csrf.ts), and the dashboard's session,
 * sign-in challenge and language. Written by hand: koa's cookie helper
 * refuses `Secure` when TLS ends at a proxy in front of us, so whether the
 * site is https is read from PUBLIC_BASE_URL, never from the request.
 */
import type { Context } from 'koa';

export interface CookieAttributes {
  path: string;
  /** Out of reach of the page's scripts: every cookie but the language's. */
  httpOnly: boolean;
  /** Seconds the browser keeps it; without it, until the browser closes. */
  maxAge?: number;
  /** Sent over https only (secureSite). */
  secure: boolean;
}

/** Whether the public site is https: behind a proxy that ends TLS, the request itself cannot tell. */
export const secureSite = (publicBaseUrl: string) => publicBaseUrl.startsWith('https:');

/**
 * Over https a cookie of this host alone is `__Host-<name>`: browsers accept a
 * `__Host-` cookie only when it is Secure, has Path=/ and no Domain, so
 * neither a sibling subdomain nor a plain-http page can plant or overwrite it.
 */
export const hostCookieName = (name: string, secure: boolean) => (secure ? `__Host-${name}` : name);

/** Every cookie is SameSite=Lax: sent on a top-level navigation from elsewhere, never on another site's post. */
export function setCookie(
  ctx: Context,
  name: string,
  value: string,
  { path, httpOnly, maxAge, secure }: CookieAttributes,
): void {
  const attributes = [
    `Path=${path}`,
    ...(httpOnly ? ['HttpOnly'] : []),
    'SameSite=Lax',
    ...(maxAge !== undefined ? [`Max-Age=${maxAge}`] : []),
    ...(secure ? ['Secure'] : []),
  ];
  ctx.append('Set-Cookie', [`${name}=${value}`, ...attributes].join('; '));
}

/** Tells the browser to drop the cookie now. */
export const clearCookie = (ctx: Context, name: string, attributes: Omit<CookieAttributes, 'maxAge'>) =>
  setCookie(ctx, name, '', { ...attributes, maxAge: 0 });
