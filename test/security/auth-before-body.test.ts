/**
 * A request without a valid key is refused before its body is read: an
 * anonymous client cannot make the gateway wait for, buffer or parse up to
 * BODY_LIMIT_BYTES per connection. The refusal closes the connection, so the
 * unread body is never read either.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { getHarness } from '../support/harness.ts';
import { request, waitFor } from '../support/http.ts';

/** Sends the headers of a request whose body is announced but never sent; answers what came back, once the server replied. */
async function withoutBody(
  baseUrl: string,
  headers: string[],
): Promise<{ head: string; body: string; closedByServer: boolean }> {
  const url = new URL(baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  let closedByServer = false;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
  });
  socket.on('end', () => {
    closedByServer = true;
  });
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    [
      `POST /api/v1/payments HTTP/1.1`,
      `Host: ${url.host}`,
      'Content-Type: application/json',
      'Content-Length: 60000',
      ...headers,
      '',
      '{"amount":',
    ].join('\r\n'),
  );
  try {
    // No more of the body is ever sent: only a refusal that did not wait for it can arrive.
    await waitFor(
      'the answer before the body',
      async () => (received.includes('\r\n\r\n') && /"request_id"/.test(received) ? true : undefined),
      15_000,
      20,
    );
    await waitFor('the server to close the connection', async () => (closedByServer ? true : undefined), 5_000, 20);
  } finally {
    socket.destroy();
  }
  const [head, body] = received.split('\r\n\r\n') as [string, string];
  return { head, body, closedByServer };
}

describe('authentication comes before the body', () => {
  it('answers 401 missing_api_key without reading the announced body, and closes the connection', async () => {
    const h = await getHarness();
    const res = await withoutBody(h.baseUrl, []);
    assert.match(res.head, /^HTTP\/1\.1 401 /);
    assert.match(res.head, /\r\nconnection: close/i);
    assert.match(res.body, /"code":"missing_api_key"/);
    assert.ok(res.closedByServer);
  });

  it('answers 401 invalid_api_key for a wrong key without reading the body', async () => {
    const h = await getHarness();
    const res = await withoutBody(h.baseUrl, [`Authorization: Bearer sk_test_${'x'.repeat(43)}`]);
    assert.match(res.head, /^HTTP\/1\.1 401 /);
    assert.match(res.body, /"code":"invalid_api_key"/);
  });

  it('still serves the OpenAPI document without a key', async () => {
    const h = await getHarness();
    const res = await request(h.baseUrl, 'GET', '/api/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.equal((res.body as { openapi?: string }).openapi?.startsWith('3.1'), true);
  });
});
