/**
 * The security headers of every server-rendered page (the hosted pages and
 * the dashboard). No script may run, no style or image may come from
 * elsewhere, no other site may frame the page (clickjacking its buttons) and
 * forms may post only to us. A meta refresh (the result page's redirect) is
 * not restricted by CSP, so a merchant's address needs no exception.
 */
import type { Context } from 'koa';

/** `formTargets`: other origins a form may post to (the bank's page, which the Pay button's redirect leads to). */
export function contentSecurityPolicy(formTargets: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    ["form-action 'self'", ...formTargets].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

export function setSecurityHeaders(ctx: Context, policy: string = CONTENT_SECURITY_POLICY): void {
  ctx.set('Content-Security-Policy', policy);
  ctx.set('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer a browser's form post says `Origin: null`, which the CSRF check refuses.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
}
