/**
 * The compatible protocols' tests' helpers: a merchant with its compat credentials, the merchant's
 * callback receiver on loopback (a real HTTP server recording what the customer's browser brings
 * back), and the customer's way from our result page to that receiver, as a browser follows it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { issueCompatCredentials } from '../../src/merchants/compat-credentials.ts';
import { getHarness, newMerchant } from './harness.ts';
import { waitFor } from './http.ts';
import { payAtBank } from './payments.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

/** A test merchant with its API key and its ZarinPal and Zibal credentials for test mode. */
export async function compatMerchant(domain = 'localhost') {
  const h = await getHarness();
  const merchant = await newMerchant(domain);
  const credentials = await issueCompatCredentials(h.db, merchant.merchantId, 'test');
  return { ...merchant, ...credentials };
}

export interface CallbackReceiver {
  /** An address on loopback (127.0.0.1, which test mode lets a localhost merchant use). */
  url: string;
  /** The query of each return, in order. */
  returns: Record<string, string>[];
  /** The first return whose query has `name` = `value`. */
  returnWith(name: string, value: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const returns: Record<string, string>[] = [];
  const server: Server = createServer((req, res) => {
    returns.push(Object.fromEntries(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams));
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('thanks');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback?cart=7`;
  return {
    url,
    returns,
    returnWith: (name, value) =>
      waitFor(`a return with ${name}=${value}`, async () => returns.find((q) => q[name] === value)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The customer from the protocol's start address (`startUrl`, on Dargah) to the merchant's
 * callback: the redirect to our payment page, Pay, the bank simulator's page (success), our return
 * route, and our result page, whose refresh leads the browser to the callback. Answers the payment paid.
 */
export async function payThroughStart(baseUrl: string, apiKey: string, startUrl: string): Promise<Payment> {
  const start = await fetch(startUrl, { redirect: 'manual' });
  const location = start.headers.get('location') ?? '';
  const id = /^\/pay\/([0-9a-f-]{36})$/.exec(location)?.[1];
  if (start.status !== 302 || id === undefined)
    throw new Error(`the start address answered ${start.status} → ${location}`);
  const paid = await payAtBank(baseUrl, apiKey, { id } as Payment);
  const page = await waitFor('the result page to lead back to the merchant', async () => {
    const html = await (await fetch(`${baseUrl}/pay/${id}/result`)).text();
    return /<meta http-equiv="refresh" content="[0-9]+;url=([^"]+)">/.exec(html)?.[1];
  });
  await fetch(decodeEntities(page));
  return paid;
}

/** A payment Zibal's /v1/request made for `merchant`, paid at the bank simulator: the payment and its trackId. */
export async function paidZibalPayment(
  baseUrl: string,
  merchant: { key: string; zibal_merchant: string },
): Promise<{ payment: Payment; trackId: number }> {
  const res = await fetch(`${baseUrl}/v1/request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      merchant: merchant.zibal_merchant,
      amount: 20_000,
      callbackUrl: 'http://localhost:8000/back',
    }),
  });
  const { trackId } = (await res.json()) as { trackId: number };
  const start = await fetch(`${baseUrl}/start/${trackId}`, { redirect: 'manual' });
  const id = /^\/pay\/([0-9a-f-]{36})$/.exec(start.headers.get('location') ?? '')?.[1];
  if (id === undefined) throw new Error(`the trackId ${trackId} led nowhere: ${start.status}`);
  return { payment: await payAtBank(baseUrl, merchant.key, { id } as Payment), trackId };
}

const decodeEntities = (text: string) =>
  text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
