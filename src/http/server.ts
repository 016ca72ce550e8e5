import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type Koa from 'koa';

/**
 * Starts the HTTP server for the app. Requests Node rejects before Koa sees
 * them (headers over 16 KB, malformed HTTP) still get the JSON error model
 * with a request id, instead of a bare status line.
 */
export function listen(app: Koa, port: number, host: string): Promise<Server> {
  const server = createServer(app.callback());
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const requestId = `req_${randomUUID().replace(/-/g, '')}`;
    const body = JSON.stringify({
      code: tooLarge ? 'request_header_too_large' : 'invalid_request',
      message: tooLarge ? 'The request line and headers are larger than 16 KB.' : 'The request is not valid HTTP.',
      request_id: requestId,
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * Stops a server without losing a request (SIGTERM, src/main/api.ts): it stops
 * accepting connections at once, answers every request still arriving on an
 * open keep-alive connection with `Connection: close` (so its client opens its
 * next request elsewhere), and closes the connections left idle after
 * `graceMs`. Node's own close() would close the idle keep-alive connections at
 * once, and a request a client sent on one at that moment would be cut off.
 */
export function drain(server: Server, graceMs: number): Promise<void> {
  server.on('request', (_req, res: { setHeader(name: string, value: string): void; headersSent: boolean }) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  });
  const closed = new Promise<void>((resolve) => {
    // net.Server's close: stop listening, leave the open connections be.
    NetServer.prototype.close.call(server, () => resolve());
  });
  const idle = setTimeout(() => server.closeIdleConnections(), graceMs);
  return closed.finally(() => clearTimeout(idle));
}
