import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../errors.ts';

/**
 * Reads a JSON request body with a size limit. A request with a body must
 * say it is JSON (415 otherwise); broken JSON is 400 `invalid_json`.
 */
export function jsonBody(limitBytes: number): Middleware {
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) {
      ctx.request.body = undefined;
      await next();
      return;
    }
    if (ctx.request.is('application/json', 'application/*+json') === false) {
      throw new ApiError('unsupported_media_type', 'Send the request body as application/json.');
    }
    let text: string;
    try {
      text = await getRawBody(ctx.req, { limit: limitBytes, length: ctx.get('content-length') || undefined, encoding: 'utf8' });
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') throw new ApiError('payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
      if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
        throw new ApiError('unsupported_media_type', 'Send the request body as UTF-8 JSON.');
      }
      throw new ApiError('invalid_json', 'The request body could not be read.');
    }
    try {
      ctx.request.body = JSON.parse(text) as unknown;
    } catch {
      throw new ApiError('invalid_json', 'The request body is not valid JSON.');
    }
    await next();
  };
}

declare module 'koa' {
  interface Request {
    /** The parsed JSON body, set by `jsonBody`; undefined when none was sent. */
    body?: unknown;
  }
}
