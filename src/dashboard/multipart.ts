/**
 * A multipart/form-data post of the dashboard (the business documents with
 * their files): accepted only with the dashboard's CSRF token and our own
 * origin, both checked before a byte of the body is read, then read whole, up
 * to a bound, and parsed by Node's own parser (undici's Response.formData).
 * The token travels in the form's address (`?csrf_token=…`, the form's
 * action) rather than among its fields: in the body it could only be checked
 * after reading up to 15 MB of files, which a forged post could make the
 * gateway do for free. The address is not logged (the request log keeps the
 * path only) and leaves the site in no Referer (Referrer-Policy: same-origin).
 */
import getRawBody from 'raw-body';
import type { Context } from 'koa';
import type { CsrfGuard } from '../http/csrf.ts';
import { DOCUMENT_MAX_BYTES, DOCUMENT_MAX_FILES } from '../domain/business-documents.ts';
import type { UploadedFile } from '../merchants/documents.ts';

/** Every file at its largest, and room for the text fields and the parts' headers. */
export const MULTIPART_LIMIT_BYTES = DOCUMENT_MAX_FILES * DOCUMENT_MAX_BYTES + 64 * 1024;

export class MultipartRefused extends Error {
  override name = 'MultipartRefused';
  readonly status: 400 | 403 | 413;
  constructor(status: 400 | 403 | 413) {
    super(`multipart post refused (${status})`);
    this.status = status;
  }
}

export async function readMultipartForm(
  ctx: Context,
  csrf: CsrfGuard,
): Promise<{ fields: URLSearchParams; files: UploadedFile[] }> {
  const type = ctx.get('content-type');
  if (!ctx.request.is('multipart/form-data')) throw new MultipartRefused(400);
  if (!csrf.accepts(ctx, new URLSearchParams(ctx.querystring))) {
    // The body is never read: closing the connection after the answer drops whatever the client still sends.
    ctx.set('Connection', 'close');
    throw new MultipartRefused(403);
  }
  let body: Buffer;
  try {
    body = await getRawBody(ctx.req, { limit: MULTIPART_LIMIT_BYTES, length: ctx.get('content-length') || undefined });
  } catch (error) {
    throw new MultipartRefused((error as { type?: string }).type === 'entity.too.large' ? 413 : 400);
  }
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new MultipartRefused(400);
  }
  const fields = new URLSearchParams();
  const files: UploadedFile[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields.append(name, value);
    // A file input left empty still sends a part with no name and no bytes: not a file.
    else if (value.size > 0 || value.name !== '')
      files.push({ name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return { fields, files };
}
