/**
 * The security headers of every server-rendered page (the hosted pages and
 * the dashboard). No script may run, no style or image may come from
 * elsewhere, no other site may frame the page (clickjacking its buttons) and
 * forms may post only to us. A meta refresh (the result page's redirect) is
 * not restricted by CSP, so a merchant's address needs no exception.
 */
import type { Context } from 'koa';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function setSecurityHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer a browser's form post says `Origin: null`, which the CSRF check refuses.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
}
