/**
 * Response headers every answer of the gateway needs, whichever part made
 * it (the API, the pages, the docs, or an error):
 * - `Cache-Control: no-store` on every /api/v1 response: answers carry
 *   secrets (a webhook secret, a payment's details), and no browser, proxy or
 *   CDN cache may keep one; errors included.
 * - `Strict-Transport-Security` when PUBLIC_BASE_URL is https: browsers then
 *   refuse plain HTTP to the gateway for a year, so a network attacker cannot
 *   strip TLS from the payment pages.
 */
import type { Middleware } from 'koa';
import type { Config } from '../config.ts';

/** One year, as the HSTS preload list asks; without includeSubDomains, which would bind the operator's other hosts. */
export const HSTS = 'max-age=31536000';

const isApi = (path: string) => path === '/api/v1' || path.startsWith('/api/v1/');

export function securityHeaders(config: Pick<Config, 'PUBLIC_BASE_URL'>): Middleware {
  const https = new URL(config.PUBLIC_BASE_URL).protocol === 'https:';
  return async (ctx, next) => {
    if (https) ctx.set('Strict-Transport-Security', HSTS);
    try {
      await next();
    } finally {
      // Set last, so no route can weaken it.
      if (isApi(ctx.path)) ctx.set('Cache-Control', 'no-store');
    }
  };
}
