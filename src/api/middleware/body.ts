import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { DomainError } from '../../errors.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** An escaped surrogate (`\uD800`…`\uDFFF`): only then can parsing make a lone one, so only then is the slower check run. */
const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function refuseLoneSurrogates(key: string, value: unknown): unknown {
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value)))
    throw new SyntaxError('lone surrogate');
  return value;
}

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
      throw new DomainError('unsupported_media_type', 'Send the request body as application/json.');
    }
    let bytes: Buffer;
    try {
      bytes = await getRawBody(ctx.req, { limit: limitBytes, length: ctx.get('content-length') || undefined });
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large')
        throw new DomainError('payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
      if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
        throw new DomainError('unsupported_media_type', 'Send the request body as UTF-8 JSON.');
      }
      throw new DomainError('invalid_json', 'The request body could not be read.');
    }
    const charset = ctx.request.charset;
    if (charset !== '' && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
      throw new DomainError('unsupported_media_type', 'Send the request body as UTF-8 JSON.');
    }
    try {
      // JSON is UTF-8 (RFC 8259): bytes that are not, or escapes that make half a character, are not JSON we store.
      const text = strictUtf8.decode(bytes);
      ctx.request.body = LONE_SURROGATE_ESCAPE.test(text)
        ? JSON.parse(text, refuseLoneSurrogates)
        : (JSON.parse(text) as unknown);
    } catch {
      throw new DomainError('invalid_json', 'The request body is not valid UTF-8 JSON.');
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
