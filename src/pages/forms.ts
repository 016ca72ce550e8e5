/**
 * What every hosted page's route shares (routes.ts, link-routes.ts): refusing
 * with a page, reading a small posted form, and the wrapper that sets the
 * pages' headers and turns any failure into a page, never JSON.
 */
import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { pageFailure } from '../http/dependencies.ts';
import { setSecurityHeaders } from '../http/page-headers.ts';
import { countPageAction, type RateCounter } from '../http/rate-limit.ts';
import { langFrom, type Lang } from './i18n.ts';
import { messagePage, type MessageKind } from './views.ts';

export interface PageDependencies {
  config: Config;
  db: Db;
  temporal: Client;
  logger: Logger;
}

/** The bank form carries two short fields; anything bigger is not ours. */
export const FORM_LIMIT_BYTES = 2_048;

export class PageRefusal extends Error {
  readonly status: number;
  readonly kind: MessageKind;
  constructor(status: number, kind: MessageKind) {
    super(kind);
    this.status = status;
    this.kind = kind;
  }
}

/** A posted form (the bank's two short fields, the bank's callback, a link's form): urlencoded, small, or refused. */
export async function readForm(ctx: Context, limit = FORM_LIMIT_BYTES): Promise<URLSearchParams> {
  if (!ctx.request.is('application/x-www-form-urlencoded')) throw new PageRefusal(400, 'bad_request');
  try {
    return new URLSearchParams(
      await getRawBody(ctx.req, { limit, length: ctx.get('content-length') || undefined, encoding: 'utf8' }),
    );
  } catch (error) {
    throw (error as { type?: string }).type === 'entity.too.large'
      ? new PageRefusal(413, 'bad_request')
      : new PageRefusal(400, 'bad_request');
  }
}

/**
 * Counts one public page action of the client's address (PAGE_ACTIONS_PER_CLIENT_PER_MINUTE), before
 * anything else of the request is read: past the limit, 429 with Retry-After and nothing done.
 */
export async function countClientAction(
  counter: RateCounter,
  config: Pick<Config, 'PAGE_ACTIONS_PER_CLIENT_PER_MINUTE'>,
  ctx: Context,
): Promise<void> {
  const refused = await countPageAction(counter, config, ctx.ip);
  if (refused === undefined) return;
  ctx.set(refused.headers);
  throw new PageRefusal(429, 'too_many');
}

export type PageHandler = (ctx: RouterContext, lang: Lang, id: string) => Promise<void>;

/** Every page: security headers, no caching (pages hold state and tokens), and errors as pages, never JSON. */
export const pageWrapper =
  (policy: string, logger: Logger) =>
  (handler: PageHandler) =>
  async (ctx: RouterContext): Promise<void> => {
    const lang = langFrom(ctx.query.lang);
    setSecurityHeaders(ctx, policy);
    ctx.set('Cache-Control', 'no-store');
    try {
      await handler(ctx, lang, ctx.params.id ?? '');
    } catch (error) {
      let refusal: PageRefusal;
      if (error instanceof PageRefusal) refusal = error;
      else {
        const failure = pageFailure(ctx, error, logger);
        refusal = new PageRefusal(failure.status, failure.kind);
      }
      ctx.remove('Set-Cookie');
      ctx.status = refusal.status;
      ctx.type = 'html';
      const requestId = refusal.status >= 500 ? (ctx.state.requestId as string | undefined) : undefined;
      ctx.body = messagePage(refusal.kind, { lang, ...(ctx.method === 'GET' ? { path: ctx.path } : {}) }, requestId);
    }
  };
