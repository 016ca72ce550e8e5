import assert from 'node:assert/strict';
import { getHarness } from '../support/harness.ts';
import { client, request, waitFor } from '../support/http.ts';
import { cli } from '../support/cli.ts';
import { createdPayment, chooseOutcome, waitForStatus } from '../support/payments.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMALL_PDF } from '../support/live.ts';

/** Runs a step that must succeed and answers its one JSON object, checking its exact fields. */
async function step(fields: string[], ...args: string[]): Promise<Record<string, unknown>> {
  const result = await cli(...args, '--json');
  assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
  assert.equal(result.stdout.trim().split('\n').length, 1, 'one JSON line on stdout');
  const out = JSON.parse(result.stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(out).sort(), [...fields].sort());
  return out;
}

/** Runs a step that must be refused: non-zero exit, nothing on stdout, one line on stderr. */
async function refused(reason: RegExp, ...args: string[]): Promise<void> {
  const result = await cli(...args, '--json');
  assert.notEqual(result.code, 0, `${args.join(' ')} should be refused`);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr.trim().split('\n').length, 1, `one line: ${result.stderr}`);
  assert.match(result.stderr, reason);
}

async function newMerchantByCli(): Promise<{ merchant_id: string; test_key: string; test_key_id: string }> {
  const out = await step(
    ['merchant_id', 'test_key', 'test_key_id'],
    'merchants',
    'create',
    '--name',
    'CLI Shop',
    '--domain',
    'localhost',
  );
  return out as { merchant_id: string; test_key: string; test_key_id: string };
}

describe('operator CLI: onboarding, keys and fees', () => {
  it('takes a merchant through domain, documents, gateway request, approval and live mode to a working live key, refusing steps out of order', async function () {
    this.timeout(180_000); // about twenty CLI processes, each a Node start
    const h = await getHarness();
    const m = await newMerchantByCli();
    const M = m.merchant_id;

    const domains = await step(
      ['merchant_id', 'domains'],
      'domains',
      'add',
      '--merchant',
      M,
      '--domain',
      'Shop.Example.com',
    );
    assert.deepEqual(domains, { merchant_id: M, domains: ['localhost', 'shop.example.com'] });

    await refused(/not requested a gateway/, 'gateways', 'approve', '--merchant', M);
    await refused(/not approved yet; live mode needs an approved gateway/, 'live', 'activate', '--merchant', M);
    // The business documents come before the request (the onboarding workflow's order), here submitted by the operator.
    await refused(/submit the business documents first/, 'gateways', 'request', '--merchant', M);
    const dir = mkdtempSync(join(tmpdir(), 'dargah-cli-docs-'));
    writeFileSync(join(dir, 'registration.pdf'), SMALL_PDF);
    writeFileSync(join(dir, 'photo.pdf'), Buffer.from('GIF89a not a pdf'));
    const documents = [
      'documents',
      'submit',
      '--merchant',
      M,
      '--legal-name',
      'CLI Shop Ltd',
      '--id-kind',
      'company',
      '--national-id',
      '10380284790',
    ];
    await refused(
      /iban/,
      ...documents,
      '--iban',
      'IR820540102680020817909003',
      '--file',
      join(dir, 'registration.pdf'),
    );
    await refused(/file_type/, ...documents, '--iban', 'IR820540102680020817909002', '--file', join(dir, 'photo.pdf'));
    assert.deepEqual(
      await step(
        ['merchant_id', 'onboarding_status'],
        ...documents,
        '--iban',
        'IR820540102680020817909002',
        '--file',
        join(dir, 'registration.pdf'),
      ),
      {
        merchant_id: M,
        onboarding_status: 'documents_submitted',
      },
    );
    const onboarding = ['merchant_id', 'gateway_status', 'onboarding_status'];
    assert.deepEqual(await step(onboarding, 'gateways', 'request', '--merchant', M), {
      merchant_id: M,
      gateway_status: 'requested',
      onboarding_status: 'under_review',
    });
    await refused(/not approved yet/, 'live', 'activate', '--merchant', M);
    await refused(/live mode is not active/, 'keys', 'create', '--merchant', M, '--mode', 'live');
    assert.deepEqual(await step(onboarding, 'gateways', 'approve', '--merchant', M), {
      merchant_id: M,
      gateway_status: 'approved',
      onboarding_status: 'approved',
    });
    // Asking again after approval does not move the gateway back.
    assert.deepEqual(await step(onboarding, 'gateways', 'request', '--merchant', M), {
      merchant_id: M,
      gateway_status: 'approved',
      onboarding_status: 'approved',
    });
    assert.deepEqual(
      await step(['merchant_id', 'live_mode', 'onboarding_status'], 'live', 'activate', '--merchant', M),
      { merchant_id: M, live_mode: true, onboarding_status: 'live' },
    );

    const live = await step(['key_id', 'key', 'mode', 'scopes'], 'keys', 'create', '--merchant', M, '--mode', 'live');
    assert.deepEqual(live.scopes, [], 'a live key refunds nothing until it is granted the scope');
    assert.equal(live.mode, 'live');
    assert.match(String(live.key), /^sk_live_[A-Za-z0-9_-]{43}$/);
    const stored = await h.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', String(live.key_id))
      .executeTakeFirstOrThrow();
    assert.equal(stored.mode, 'live');
    assert.ok(
      String(live.key).startsWith(stored.prefix) && stored.prefix.length < 24,
      'only a short prefix is kept in the clear',
    );
    assert.equal(stored.last_used_at, null);

    const listed = await request(h.baseUrl, 'GET', '/api/v1/payments', { key: String(live.key) });
    assert.equal(listed.status, 200, listed.text);
    const used = await h.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', String(live.key_id))
      .executeTakeFirstOrThrow();
    assert.ok(used.last_used_at !== null, 'last_used_at is tracked');

    const test = await step(['key_id', 'key', 'mode', 'scopes'], 'keys', 'create', '--merchant', M, '--mode', 'test');
    assert.match(String(test.key), /^sk_test_/);
  });

  it('refuses bad input with a one-line reason and changes nothing', async () => {
    const h = await getHarness();
    const m = await newMerchantByCli();
    const M = m.merchant_id;
    await refused(
      /no merchant/,
      'domains',
      'add',
      '--merchant',
      '00000000-0000-4000-8000-000000000000',
      '--domain',
      'shop.example',
    );
    await refused(/not a domain name/, 'domains', 'add', '--merchant', M, '--domain', 'https://shop.example/');
    await refused(/--domain is required/, 'domains', 'add', '--merchant', M);
    await refused(/no merchant/, 'gateways', 'request', '--merchant', 'nobody');
    await refused(/--mode must be test or live/, 'keys', 'create', '--merchant', M, '--mode', 'prod');
    await refused(/no key/, 'keys', 'revoke', '--key', '00000000-0000-4000-8000-000000000000');
    await refused(/--expires-in must be a whole number/, 'keys', 'roll', '--key', m.test_key_id, '--expires-in=-5');
    await refused(
      /--min must not be greater than --max/,
      'fees',
      'set',
      '--merchant',
      M,
      '--bps',
      '100',
      '--min',
      '5000',
      '--max',
      '10',
    );
    await refused(
      /--bps must be a whole number/,
      'fees',
      'set',
      '--merchant',
      M,
      '--bps',
      'lots',
      '--min',
      '0',
      '--max',
      '10',
    );
    await refused(
      /--bps must be at most 10000/,
      'fees',
      'set',
      '--merchant',
      M,
      '--bps',
      '10001',
      '--min',
      '0',
      '--max',
      '10',
    );
    await refused(/unknown command/, 'keys', 'destroy', '--key', m.test_key_id);

    const merchant = await h.db.selectFrom('merchants').selectAll().where('id', '=', M).executeTakeFirstOrThrow();
    assert.equal(merchant.gateway_status, 'none');
    assert.equal(merchant.fee_bps, h.config.FEE_BPS);
    const keys = await h.db.selectFrom('api_keys').select('id').where('merchant_id', '=', M).execute();
    assert.equal(keys.length, 1);
    const domains = await h.db.selectFrom('merchant_domains').select('domain').where('merchant_id', '=', M).execute();
    assert.deepEqual(
      domains.map((d) => d.domain),
      ['localhost'],
    );
  });

  it('a revoked key answers 401 invalid_api_key at once', async () => {
    const h = await getHarness();
    const m = await newMerchantByCli();
    assert.equal((await request(h.baseUrl, 'GET', '/api/v1/payments', { key: m.test_key })).status, 200);
    const out = await step(['key_id', 'revoked_at'], 'keys', 'revoke', '--key', m.test_key_id);
    assert.equal(out.key_id, m.test_key_id);
    assert.ok(!Number.isNaN(Date.parse(String(out.revoked_at))));
    const res = await request<{ code: string }>(h.baseUrl, 'GET', '/api/v1/payments', { key: m.test_key });
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'invalid_api_key');
    await refused(/revoked/, 'keys', 'roll', '--key', m.test_key_id, '--expires-in', '60');
  });

  it('a rolled key keeps working until its expiry, then answers 401 invalid_api_key; the new key works throughout', async () => {
    const h = await getHarness();
    const m = await newMerchantByCli();
    const rolled = await step(
      ['key_id', 'key', 'old_key_expires_at'],
      'keys',
      'roll',
      '--key',
      m.test_key_id,
      '--expires-in',
      '3',
    );
    assert.match(String(rolled.key), /^sk_test_/);
    assert.notEqual(rolled.key_id, m.test_key_id);
    const expiresAt = Date.parse(String(rolled.old_key_expires_at));
    assert.ok(expiresAt > Date.now() - 1_000 && expiresAt <= Date.now() + 3_000);

    const oldKeyStatus = async () => (await request(h.baseUrl, 'GET', '/api/v1/payments', { key: m.test_key })).status;
    if (Date.now() < expiresAt - 500) assert.equal(await oldKeyStatus(), 200, 'the old key works until its expiry');
    await waitFor('the old key to expire', async () => ((await oldKeyStatus()) === 401 ? true : undefined));
    const res = await request<{ code: string }>(h.baseUrl, 'GET', '/api/v1/payments', { key: m.test_key });
    assert.equal(res.body.code, 'invalid_api_key');
    assert.ok(Date.now() >= expiresAt, 'not refused before its expiry');
    assert.equal((await request(h.baseUrl, 'GET', '/api/v1/payments', { key: String(rolled.key) })).status, 200);
  });

  it('fees set applies to payments created afterwards; a payment keeps the plan it was created with', async () => {
    const h = await getHarness();
    const m = await newMerchantByCli();
    const api = client(h.baseUrl, m.test_key);
    const before = await createdPayment(h.baseUrl, m.test_key, { amount: 150_000 });

    const out = await step(
      ['merchant_id', 'fee_plan'],
      'fees',
      'set',
      '--merchant',
      m.merchant_id,
      '--bps',
      '250',
      '--min',
      '5000',
      '--max',
      '6000',
    );
    assert.deepEqual(out, { merchant_id: m.merchant_id, fee_plan: { bps: 250, min: 5000, max: 6000 } });
    const small = await createdPayment(h.baseUrl, m.test_key, { amount: 150_000 });
    const large = await createdPayment(h.baseUrl, m.test_key, { amount: 1_000_000 });

    const fees: number[] = [];
    for (const p of [before, small, large]) {
      await chooseOutcome(h.baseUrl, p.id, 'success');
      await waitForStatus(h.baseUrl, m.test_key, p.id, 'paid');
      assert.equal(
        (await api.get<{ payment: Payment }>(`/payments/${p.id}`)).body.payment.fee,
        0,
        'no fee before verify',
      );
      const verified = await api.post<{ payment: Payment }>(`/payments/${p.id}/verify`, { amount: p.amount });
      assert.equal(verified.status, 200, verified.text);
      fees.push(verified.body.payment.fee);
    }
    // Default plan (100 bps, min 1,000) on the first; 250 bps = 3,750 → minimum 5,000; 25,000 → cap 6,000.
    assert.deepEqual(fees, [1_500, 5_000, 6_000]);
  });
});
