/**
 * Secrets never reach the logs through an error: mysql2 errors carry the
 * whole statement, values interpolated, in `sql` (a `whsec_` secret when an
 * endpoint's insert fails), and messages such as "Duplicate entry '…'" carry
 * values too. Errors are logged through an allow-list (src/logger.ts), and a
 * configuration error never echoes the DATABASE_URL password.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { listen } from '../../src/http/server.ts';
import { createLogger } from '../../src/logger.ts';
import { createApp } from '../../src/main/http-app.ts';
import { getHarness, newMerchant, testConfig } from '../support/harness.ts';
import { client } from '../support/http.ts';

/** A logger whose lines a test can read. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  return { logger: createLogger('info', 'test', stream), lines };
}

/** Sends every insert into webhook_endpoints to a table that does not exist: an unexpected database error. */
const breakEndpointInserts: KyselyPlugin = {
  transformQuery({ node }): RootOperationNode {
    if (node.kind !== 'InsertQueryNode') return node;
    const insert = node;
    if (insert.into?.table.identifier.name !== 'webhook_endpoints') return node;
    return {
      ...insert,
      into: {
        ...insert.into,
        table: {
          ...insert.into.table,
          identifier: { ...insert.into.table.identifier, name: 'webhook_endpoints_gone' },
        },
      },
    };
  },
  async transformResult({ result }) {
    return result;
  },
};

describe('secrets in logs', () => {
  it('an unexpected database error on endpoint create is logged without the statement or the whsec_ secret in it', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const { logger, lines } = capturedLogger();
    const app = createApp({
      config: testConfig(),
      db: h.db.withPlugin(breakEndpointInserts),
      temporal: h.temporal.client,
      logger,
    });
    const server = await listen(app, 0, '127.0.0.1');
    try {
      const res = await client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, key).post(
        '/webhook_endpoints',
        { url: 'http://127.0.0.1:9/hooks' },
      );
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'internal_error');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
    const logged = lines.find((l) => l.includes('unexpected error'));
    assert.ok(logged !== undefined, 'the error was logged');
    const entry = JSON.parse(logged) as { err: Record<string, unknown> };
    assert.equal(entry.err.code, 'ER_NO_SUCH_TABLE', 'enough to diagnose it');
    assert.equal(entry.err.sql, undefined, 'never the statement');
    assert.equal(entry.err.stack, undefined, 'no stack for a database error (its first line is the message)');
    assert.doesNotMatch(logged, /whsec_|INSERT|insert into/i);
  });

  it('a database message with values loses the values and keeps the names', async () => {
    const h = await getHarness();
    const secretish = `whsec_${randomUUID().replace(/-/g, '').slice(0, 30)}`;
    const merchant = { id: secretish, name: 'dup', fee_bps: 0, fee_min: 0, fee_max: 0, created_at: new Date() };
    await h.db.insertInto('merchants').values(merchant).execute();
    const error = await h.db
      .insertInto('merchants')
      .values(merchant)
      .execute()
      .then(
        () => assert.fail('a duplicate insert'),
        (e: unknown) => e,
      );
    assert.match(String((error as Error).message), /Duplicate entry/);
    assert.ok(String((error as { sql?: string }).sql).includes(secretish), 'mysql2 does carry the values');
    const { logger, lines } = capturedLogger();
    logger.error({ err: error }, 'boom');
    logger.warn({ error, component: 'temporal-sdk' }, 'Activity failed');
    assert.equal(lines.length, 2);
    for (const line of lines) {
      assert.ok(!line.includes(secretish), line);
      assert.match(line, /Duplicate entry '\?' for key '[^']+'/);
      assert.match(line, /"code":"ER_DUP_ENTRY"/);
    }
    await h.db.deleteFrom('merchants').where('id', '=', secretish).execute();
  });

  it('keeps the stack of an error that is not a database error', () => {
    const { logger, lines } = capturedLogger();
    logger.error({ err: new TypeError('undefined is not a function') }, 'bug');
    const entry = JSON.parse(lines[0]!) as { err: { type: string; message: string; stack: string } };
    assert.equal(entry.err.type, 'TypeError');
    assert.match(entry.err.stack, /secrets-in-logs\.test\.ts/);
  });

  it('a configuration error never echoes the DATABASE_URL password', () => {
    for (const url of [
      'postgres://dargah:Sup3r-S3cret-Pw@db:3306/dargah',
      'mysql:/dargah:Sup3r-S3cret-Pw@db/dargah',
      'mysql//dargah:Sup3r-S3cret-Pw@db/dargah',
      'Sup3r-S3cret-Pw@db',
    ]) {
      assert.throws(
        () => loadConfig({ DATABASE_URL: url }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.includes('DATABASE_URL') &&
          !error.message.includes('Sup3r-S3cret-Pw') &&
          error.message.includes('***@db'),
        url,
      );
    }
  });
});
