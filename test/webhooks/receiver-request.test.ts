/**
 * One request to a webhook receiver (src/adapters/webhook-request.ts): only
 * the status matters, so the response is dropped as soon as it is read. A
 * receiver that answers and then streams a body without end must not hold
 * the worker's socket (and its memory and CPU) for ever.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postToReceiver } from '../../src/adapters/webhook-request.ts';
import { waitFor } from '../support/http.ts';

const headers = { 'webhook-id': 'evt_test', 'webhook-timestamp': '0', 'webhook-signature': 'v1,x' };

describe('a request to a webhook receiver', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('closes the connection once the status is read, even when the body never ends', async () => {
    let closed = false;
    let bytesSent = 0;
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      // An endless body: a chunk whenever the socket takes one, until the worker hangs up.
      const pump = () => {
        while (!closed && res.write(chunk)) bytesSent += chunk.length;
      };
      res.on('drain', pump);
      res.on('close', () => {
        closed = true;
      });
      pump();
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const answer = await postToReceiver(
      { url: new URL(`http://127.0.0.1:${port}/hook`), address: '127.0.0.1', family: 4 },
      headers,
      '{}',
      10_000,
    );
    assert.equal(answer.status, 200);
    await waitFor('the worker to hang up on the endless body', async () => (closed ? true : undefined), 10_000, 20);
    const sentAtClose = bytesSent;
    assert.ok(sentAtClose < 64 * 1024 * 1024, `the body was not read to its end (${sentAtClose} bytes sent)`);
  });
});
