/**
 * The outermost middleware: per request, one counter and one histogram
 * observation (and, when tracing is on, the request's server span). It runs
 * outside the error handler, so it sees every answer's final status and
 * error code. Routes are labelled by their template (the @koa/router path
 * that matched, e.g. /api/v1/payments/:id/verify), never the raw URL: no id
 * reaches a label.
 */
import { SpanKind } from '@opentelemetry/api';
import type { Context, Middleware } from 'koa';
import { httpRequestDuration, httpRequests, paymentRequests, rateLimitRefusals } from '../observability/metrics.ts';
import { inSpan } from '../observability/tracing.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The operations whose outcomes are counted by error code. */
const OPERATIONS: Record<string, 'create' | 'verify'> = {
  'POST /api/v1/payments': 'create',
  'POST /api/v1/payments/:id/verify': 'verify',
};

/** The template of the most specific route that matched (as @koa/router chose it), or `unmatched`. */
export function routeTemplate(ctx: Context): string {
  const matched = (ctx as Context & { matched?: { path: string; methods: string[] }[] }).matched;
  if (matched === undefined) return 'unmatched';
  for (let i = matched.length - 1; i >= 0; i--) {
    const layer = matched[i]!;
    if (layer.methods.length > 0) return layer.path;
  }
  return 'unmatched';
}

function errorCode(ctx: Context): string | undefined {
  const body = ctx.body as { code?: unknown } | undefined;
  return body !== null && typeof body === 'object' && typeof body.code === 'string' ? body.code : undefined;
}

export function observeRequests(): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const method = METHODS.has(ctx.method) ? ctx.method : 'OTHER';
    try {
      await inSpan(`HTTP ${method}`, SpanKind.SERVER, { 'http.request.method': method }, async (span) => {
        try {
          await next();
        } finally {
          if (span !== undefined) {
            const route = routeTemplate(ctx);
            span.updateName(`${method} ${route}`);
            span.setAttributes({
              'http.route': route,
              'http.response.status_code': ctx.status,
              'dargah.request_id': String(ctx.state.requestId ?? ''),
            });
          }
        }
      });
    } finally {
      const route = routeTemplate(ctx);
      const status = ctx.status;
      httpRequests.inc({ route, method, status: String(status) });
      httpRequestDuration.observe({ route, method }, Number(process.hrtime.bigint() - started) / 1e9);
      const code = status >= 400 ? errorCode(ctx) : undefined;
      if (status === 429 && code === 'rate_limited') rateLimitRefusals.inc({ route });
      const operation = OPERATIONS[`${method} ${route}`];
      if (operation !== undefined)
        paymentRequests.inc({ operation, code: status < 400 ? 'ok' : (code ?? `http_${status}`) });
    }
  };
}
