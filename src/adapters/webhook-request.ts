/**
 * One HTTP request to a merchant's webhook receiver, made to the address
 * the URL policy checked (never a fresh DNS answer), with a hard time limit.
 * Redirects are not followed: a receiver answers where it was registered.
 * The answer is its status alone; the connection is closed as soon as the
 * status line and headers have arrived.
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { LookupFunction } from 'node:net';
import type { WebhookAttemptError } from '../domain/webhook-delivery.ts';
import type { WebhookHeaders } from './webhook-signing.ts';
import type { CheckedUrl } from './webhook-url-policy.ts';

export interface ReceiverAnswer {
  /** The receiver's status code; undefined when no answer came. */
  status?: number;
  /** Why no answer came, as the class the merchant is shown. */
  failure?: WebhookAttemptError;
  /** Why no answer came, in full: for the worker's log only, never stored or shown. */
  detail?: string;
  latencyMs: number;
}

/** Node's and OpenSSL's codes for a failed TLS handshake or certificate check. */
const TLS_ERROR_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_|EPROTO$)/;

/** The class of a connection-level error. */
export function connectionFailure(error: NodeJS.ErrnoException): WebhookAttemptError {
  return error.code !== undefined && TLS_ERROR_CODE.test(error.code) ? 'tls_error' : 'connection_failed';
}

export function postToReceiver(
  target: CheckedUrl,
  headers: WebhookHeaders,
  body: string,
  timeoutMs: number,
): Promise<ReceiverAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { address, family } = target;
  // Pins the connection to the checked address; TLS still verifies the certificate against the URL's host name.
  const pinnedLookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;

  return new Promise<ReceiverAnswer>((resolve) => {
    let settled = false;
    const finish = (answer: Omit<ReceiverAnswer, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, latencyMs: elapsed() });
    };
    const transport = target.url.protocol === 'https:' ? https : http;
    const req = transport.request(
      target.url,
      {
        method: 'POST',
        agent: false,
        lookup: pinnedLookup,
        // A receiver on the operator's network may be signed by the operator's CA: trusted besides the public roots, not instead.
        ...(target.ca === undefined ? {} : { ca: [...tls.rootCertificates, target.ca] }),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'dargah-webhooks/1',
        },
      },
      (res) => {
        // Only the status matters: the body is never read. Destroying the response closes the
        // connection at once, so a receiver that streams without end holds no socket, memory or time.
        finish({ status: res.statusCode ?? 0 });
        res.on('error', () => undefined);
        res.destroy();
      },
    );
    const timer = setTimeout(() => {
      finish({ failure: 'timeout', detail: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish({
        failure: connectionFailure(error),
        detail: (error.code === undefined ? error.message : `${error.code}: ${error.message}`).slice(0, 500),
      });
    });
    req.end(body);
  });
}
