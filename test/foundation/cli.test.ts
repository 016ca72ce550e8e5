import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { getHarness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { cli } from '../support/cli.ts';

export { cli };

describe('operator CLI: merchants create', () => {
  it('creates a merchant, its domain and a test key that works at once, stored only as a hash', async () => {
    const h = await getHarness();
    const result = await cli('merchants', 'create', '--name', 'Ketab Shop', '--domain', 'Ketab.example', '--json');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim().split('\n').length, 1, 'one JSON line');
    const out = JSON.parse(result.stdout) as { merchant_id: string; test_key: string; test_key_id: string };
    assert.match(out.test_key, /^sk_test_[A-Za-z0-9_-]{43}$/);

    const merchant = await h.db
      .selectFrom('merchants')
      .selectAll()
      .where('id', '=', out.merchant_id)
      .executeTakeFirstOrThrow();
    assert.equal(merchant.name, 'Ketab Shop');
    const domains = await h.db
      .selectFrom('merchant_domains')
      .select('domain')
      .where('merchant_id', '=', out.merchant_id)
      .execute();
    assert.deepEqual(
      domains.map((d) => d.domain),
      ['ketab.example'],
    );
    const key = await h.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', out.test_key_id)
      .executeTakeFirstOrThrow();
    assert.equal(key.mode, 'test');
    assert.deepEqual(key.key_hash, createHash('sha256').update(out.test_key).digest());
    assert.ok(out.test_key.startsWith(key.prefix));
    assert.ok(key.prefix.length < out.test_key.length - 20, 'only a short prefix is visible');

    const list = await request(h.baseUrl, 'GET', '/api/v1/payments', { key: out.test_key });
    assert.equal(list.status, 200);
  });

  it('refuses a missing flag with a non-zero exit and one line on stderr', async () => {
    const result = await cli('merchants', 'create', '--name', 'No Domain', '--json');
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trim().split('\n').length, 1);
    assert.match(result.stderr, /--domain is required/);
  });

  it('refuses a domain that is not a host name', async () => {
    const result = await cli('merchants', 'create', '--name', 'Bad', '--domain', 'http://x/y', '--json');
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /not a domain name/);
  });

  it('refuses an unknown command', async () => {
    const result = await cli('merchants', 'explode');
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /unknown command/);
  });
});
