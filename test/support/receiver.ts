/**
 * A merchant's webhook receiver, for real: an HTTP server on 127.0.0.1 that
 * verifies every delivery with the `standardwebhooks` package, the way the
 * README tells merchants to, and answers what the test tells it to.
 */
import { readFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Event } from '../../src/domain/webhook-schemas.ts';
import { waitFor } from './http.ts';
import type { ReceiverPlace } from './operator-network.ts';

export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The secrets (of those the receiver knows) each of which verifies this delivery. */
  verifiedWith: string[];
  event: Event;
  /** What the receiver answered. */
  answered: number;
  at: number;
}

export interface Receiver {
  url: string;
  /** Secrets the receiver checks deliveries against. */
  secrets: string[];
  deliveries: ReceivedDelivery[];
  /** Chooses the answer to the n-th delivery (1-based) of a webhook-id; 200 unless set. */
  respond: (delivery: { id: string; count: number }) => number;
  /** Stops listening (connections refused) until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
  /** Deliveries whose event matches, once `count` of them have arrived. */
  waitForDeliveries(
    match: (d: ReceivedDelivery) => boolean,
    count?: number,
    timeoutMs?: number,
  ): Promise<ReceivedDelivery[]>;
}

const header = (headers: IncomingHttpHeaders, name: string) => String(headers[name] ?? '');

export async function startReceiver(
  path = '/webhooks',
  place: ReceiverPlace = { host: '127.0.0.1', port: 0 },
): Promise<Receiver> {
  const seen = new Map<string, number>();
  let server: Server;
  let port = place.port;
  const receiver: Receiver = {
    url: '',
    secrets: [],
    deliveries: [],
    respond: () => 200,
    async down() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
    async up() {
      server = makeServer();
      await new Promise<void>((r) => server.listen(port, place.host, r));
      port = (server.address() as AddressInfo).port;
    },
    async close() {
      if (server.listening) await receiver.down();
    },
    waitForDeliveries(match, count = 1, timeoutMs = 30_000) {
      return waitFor(
        `${count} matching webhook deliveries`,
        async () => {
          const found = receiver.deliveries.filter(match);
          return found.length >= count ? found : undefined;
        },
        timeoutMs,
      );
    },
  };

  function makeServer(): Server {
    const tls = place.tls;
    return tls === undefined
      ? createServer(answer)
      : createTlsServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, answer);
  }

  function answer(req: IncomingMessage, res: ServerResponse): void {
    {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = {
          'webhook-id': header(req.headers, 'webhook-id'),
          'webhook-timestamp': header(req.headers, 'webhook-timestamp'),
          'webhook-signature': header(req.headers, 'webhook-signature'),
        };
        const verifiedWith = receiver.secrets.filter((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        const count = (seen.get(headers['webhook-id']) ?? 0) + 1;
        seen.set(headers['webhook-id'], count);
        // An unverifiable delivery is refused, as a real receiver must.
        const answered =
          req.method !== 'POST' || req.url !== path || verifiedWith.length === 0
            ? 400
            : receiver.respond({ id: headers['webhook-id'], count });
        receiver.deliveries.push({
          id: headers['webhook-id'],
          timestamp: headers['webhook-timestamp'],
          signature: headers['webhook-signature'],
          body,
          verifiedWith,
          event: JSON.parse(body) as Event,
          answered,
          at: Date.now(),
        });
        res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'no');
      });
    }
  }

  await receiver.up();
  const scheme = place.tls === undefined ? 'http' : 'https';
  const defaultPort = place.tls === undefined ? 80 : 443;
  receiver.url = `${scheme}://${place.host}${port === defaultPort ? '' : `:${port}`}${path}`;
  return receiver;
}
