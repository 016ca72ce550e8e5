/**
 * A merchant's shop on 127.0.0.1, as a real HTTP server: its return address
 * records what the customer's browser brought back and then verifies the
 * payment through the API with the order's amount: the return parameters are only a hint.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, waitFor } from './http.ts';

export interface MerchantReturn {
  query: Record<string, string>;
  verify: { status: number; body: Record<string, unknown> };
}

export interface MerchantShop {
  origin: string;
  callbackUrl: string;
  /** The shop remembers each order's amount, to verify with it. */
  expect(merchantReference: string, amount: number): void;
  returnFor(paymentId: string): Promise<MerchantReturn>;
  /** Serves `html` at a path of the shop (an attacker page for cross-site tests). */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

export async function startMerchantShop(apiBaseUrl: string, key: string): Promise<MerchantShop> {
  const orders = new Map<string, number>();
  const returns = new Map<string, MerchantReturn>();
  const pages = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/return') {
      void (async () => {
        const query = Object.fromEntries(url.searchParams);
        const amount = orders.get(query.merchant_reference ?? '') ?? 0;
        const verify = await request(
          apiBaseUrl,
          'POST',
          `/api/v1/payments/${encodeURIComponent(query.payment_id ?? '')}/verify`,
          { key, body: { amount } },
        );
        returns.set(query.payment_id ?? '', { query, verify: { status: verify.status, body: verify.body } });
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><link rel="icon" href="data:,"><title>Shop</title><h1>Order ${verify.status === 200 ? 'confirmed' : 'not confirmed'}</h1>`,
        );
      })();
      return;
    }
    const html = pages.get(url.pathname);
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    callbackUrl: `${origin}/return?cart=7`,
    expect: (reference, amount) => void orders.set(reference, amount),
    returnFor: (paymentId) => waitFor(`the customer's return for ${paymentId}`, async () => returns.get(paymentId)),
    page: (path, html) => {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
