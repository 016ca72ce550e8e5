/**
 * A customer on a payment link's page without a browser (test/payments/payment-links.test.ts):
 * the form's CSRF cookie and token from the page, then the form posted as a browser posts it.
 */
import assert from 'node:assert/strict';
import type { PaymentLink } from '../../src/domain/payment-link.ts';
import { client } from './http.ts';

export interface LinkFormSession {
  cookie: string;
  token: string;
}

/** Creates a link through the API (201). */
export async function createdLink(api: ReturnType<typeof client>, body: Record<string, unknown>): Promise<PaymentLink> {
  const res = await api.post<{ payment_link: PaymentLink }>('/payment_links', {
    title: 'Handmade notebook',
    amount: 1_500_000,
    ...body,
  });
  assert.equal(res.status, 201, res.text);
  return res.body.payment_link;
}

/** GET /l/{slug}: the page's status, its HTML, and the form's CSRF session when it has a form. */
export async function openLink(
  baseUrl: string,
  slug: string,
  lang: 'fa' | 'en' = 'fa',
): Promise<{ status: number; html: string; session?: LinkFormSession }> {
  const res = await fetch(`${baseUrl}/l/${slug}${lang === 'en' ? '?lang=en' : ''}`, { redirect: 'manual' });
  const html = await res.text();
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  return { status: res.status, html, ...(token === undefined ? {} : { session: { cookie, token } }) };
}

/** POST /l/{slug} from our own origin with the session's token (and `headers`, such as a proxy's X-Forwarded-For): answers the response (303 to /pay/{id} when a payment started). */
export async function postLink(
  baseUrl: string,
  slug: string,
  session: LinkFormSession | undefined,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const form = new URLSearchParams({ ...(session === undefined ? {} : { csrf_token: session.token }), ...fields });
  return fetch(`${baseUrl}/l/${slug}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: baseUrl,
      ...(session === undefined ? {} : { cookie: session.cookie }),
      ...headers,
    },
    body: form.toString(),
    redirect: 'manual',
  });
}

/** The payment id of a 303 to the payment page. */
export function startedPaymentId(res: Response): string {
  assert.equal(res.status, 303, `expected a redirect to the payment page, got ${res.status}`);
  const match = /^\/pay\/([0-9a-f-]{36})/.exec(res.headers.get('location') ?? '');
  assert.ok(match, res.headers.get('location') ?? '');
  return match[1]!;
}
