/**
 * A CSV file streamed as a download: the API's payments report and a
 * settlement's lines, and the dashboard's copy of the latter. Everything that
 * can be refused is refused before this is called; once the status line has
 * gone out, a failure of the stream can only cut the response short.
 */
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from '../logger.ts';
import { isDependencyFailure } from './dependencies.ts';

export function sendCsv(
  ctx: Context,
  file: { filename: string; body: Readable | AsyncIterable<string>; what: string },
  logger: Logger,
): void {
  const body = file.body instanceof Readable ? file.body : Readable.from(file.body, { objectMode: false });
  const requestId = String(ctx.state.requestId);
  body.once('error', (err) => {
    // No final chunk goes out, so the client sees a cut response, never a short file that looks whole; the log says why.
    const unavailable = isDependencyFailure(err);
    logger[unavailable ? 'warn' : 'error'](
      { request_id: requestId, path: ctx.path, err: unavailable ? err.message : err },
      `${file.what} cut short`,
    );
  });
  ctx.set('Content-Disposition', `attachment; filename="${file.filename}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = body;
}
