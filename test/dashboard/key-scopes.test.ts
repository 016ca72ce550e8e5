/**
 * A live refund by key needs the `refunds` scope (docs/API.md#key-scopes): a stolen live key that was
 * never granted it refunds nothing (403 `insufficient_scope`, no refund row, no idempotency record, no
 * refunds workflow). Granting it is a live action in the dashboard (docs/SECURITY.md#live-actions-need-a-recent-second-factor):
 * a password-only session is refused and the owner mailed, a session without a recent second factor is
 * sent to the step-up page; after it the key is granted, audited and the owner mailed, and the same key's
 * refund is accepted. Withdrawing it refuses the key again. The operator's CLI grants and withdraws too.
 */
import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Secret, TOTP } from 'otpauth';
import { secretBox } from '../../src/accounts/secret-box.ts';
import { enableTwoFactor, pendingTotpSecret } from '../../src/accounts/two-factor.ts';
import { refundsWorkflowId } from '../../src/domain/payment-workflow.ts';
import { createMerchantKey } from '../../src/merchants/onboarding.ts';
import { issueCompatCredentials } from '../../src/merchants/compat-credentials.ts';
import { zarinpalAuthority } from '../../src/domain/compat-protocols.ts';
import { parseKey } from '../../src/merchants/keys.ts';
import { liveBankApi } from '../support/harness.ts';
import { cli } from '../support/cli.ts';
import { request } from '../support/http.ts';
import { signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';
import { SECRETS_KEY, securityDashboard } from '../support/dashboard-security.ts';
import { goLive, liveMerchant, verifiedLivePayment } from '../support/live.ts';

describe('a live refund by key needs the refunds scope, granted with a second factor', function () {
  this.timeout(240_000);
  const dashboard = securityDashboard();
  const { open, merchantOf, mailTo } = dashboard;
  const box = secretBox(SECRETS_KEY);

  it('refuses an ungranted live key (403, nothing written); the grant needs two-step sign-in and a step-up, is audited and mailed; then the key refunds; withdrawn, it is refused again', async () => {
    const { page, context } = await open(1280);
    const email = await signUpInBrowser(page, dashboard, 'en', 'Scoped keys shop');
    const { merchant_id: merchantId, id: userId } = await merchantOf(email);
    const db = dashboard.h.db;
    await goLive(merchantId);
    // A live key as every live key before this change: no scope (migration 0051 grants none).
    const made = await createMerchantKey(db, merchantId, 'live', dashboard.h.config.TEST_KEYS_PER_MERCHANT);
    assert.deepEqual(made.scopes, []);
    const liveKey = made.key;
    const prefix = parseKey(liveKey)!.prefix;
    const api = await liveBankApi();
    const payment = await verifiedLivePayment(api, liveKey, 1_500_000);

    const refundRows = async () =>
      (await db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute()).length;
    const idempotencyRows = async () =>
      (await db.selectFrom('idempotency_keys').select('merchant_id').where('merchant_id', '=', merchantId).execute())
        .length;
    const refundsWorkflowExists = async () => {
      try {
        await dashboard.h.temporal.client.workflow.getHandle(refundsWorkflowId(payment.id)).describe();
        return true;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    };
    const refund = (key = liveKey, idempotencyKey = `scope-${Date.now()}`) =>
      request<{ code: string; message: string; request_id: string; refund?: { status: string } }>(
        api,
        'POST',
        `/api/v1/payments/${payment.id}/refunds`,
        { key, body: {}, headers: { 'Idempotency-Key': idempotencyKey } },
      );
    const idempotencyBefore = await idempotencyRows();

    // 1. The stolen live key: refused with the documented error, and nothing is written anywhere.
    const refused = await refund();
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.code, 'insufficient_scope');
    assert.match(refused.body.message, /refunds/);
    assert.match(refused.body.request_id, /^req_/);
    assert.equal(await refundRows(), 0, 'no refund row');
    assert.equal(await idempotencyRows(), idempotencyBefore, 'no idempotency record');
    assert.equal(await refundsWorkflowExists(), false, 'no refunds workflow');
    // The key still reads: only the refund needs the scope.
    assert.equal((await request(api, 'GET', `/api/v1/payments/${payment.id}`, { key: liveKey })).status, 200);

    const grantedAt = async () =>
      (
        await db
          .selectFrom('api_keys')
          .select('refunds_granted_at')
          .where('prefix', '=', prefix)
          .executeTakeFirstOrThrow()
      ).refunds_granted_at;
    const auditOf = async (action: string) =>
      (
        await db
          .selectFrom('audit_log')
          .select('detail')
          .where('merchant_id', '=', merchantId)
          .where('action', '=', action)
          .execute()
      ).map((r) => r.detail);
    const keyRow = () => page.locator(`#keys tr[data-id="${made.key_id}"]`);

    // 2. A password-only session (a stolen password): the developers page shows the key without the scope; a grant is refused, recorded and mailed.
    await signInInBrowser(page, dashboard.base, email);
    await page.goto(`${dashboard.base}/dashboard/developers?lang=en`);
    assert.equal(await keyRow().locator('.key-scopes').innerText(), 'no refunds');
    const [passwordOnly] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      keyRow().locator('.refunds-form button').click(),
    ]);
    assert.equal(passwordOnly.status(), 403);
    assert.equal(await grantedAt(), null);
    assert.deepEqual(await auditOf('live_action_refused'), ['refund_scope']);
    const refusedMail = await mailTo(email, /live action was refused/);
    assert.match(refusedMail.text, /allow a live API key to create refunds/);

    // 3. Two-step sign-in on, but not proved in this session: to the step-up page, nothing granted.
    const totp = new TOTP({
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
      secret: Secret.fromBase32(await pendingTotpSecret({ db, box }, userId)),
    });
    const [recovery] = await enableTwoFactor({ db, box }, userId, totp.generate());
    await page.goto(`${dashboard.base}/dashboard/developers?lang=en`);
    await Promise.all([
      page.waitForURL(/\/dashboard\/step-up\?return=/),
      keyRow().locator('.refunds-form button').click(),
    ]);
    assert.equal(await grantedAt(), null, 'not granted before the step-up');
    assert.deepEqual(await auditOf('key_scope_granted'), []);

    // A post without its CSRF token grants nothing, step-up or not.
    const noToken = await context.request.post(`${dashboard.base}/dashboard/developers/keys/${made.key_id}/refunds`, {
      form: { refunds: 'grant' },
      headers: { origin: dashboard.base },
      maxRedirects: 0,
    });
    assert.equal(noToken.status(), 403);

    // 4. The step-up (a recovery code), back to the developers page, then the grant: granted, audited, mailed.
    await page.fill('#code', recovery!);
    await Promise.all([page.waitForURL(/\/dashboard\/developers$/), page.click('#auth-form button[type=submit]')]);
    assert.equal(await grantedAt(), null, 'the step-up alone grants nothing');
    await Promise.all([page.waitForURL(/done=refunds_granted/), keyRow().locator('.refunds-form button').click()]);
    assert.ok((await grantedAt()) instanceof Date, 'granted');
    assert.deepEqual(await auditOf('key_scope_granted'), [`${prefix}…: refunds`]);
    const grantMail = await mailTo(email, /live change/);
    assert.match(grantMail.text, /allow a live API key to create refunds/);
    assert.match(grantMail.text, new RegExp(prefix));
    await page.goto(`${dashboard.base}/dashboard/developers?lang=en`);
    assert.equal(await keyRow().locator('.key-scopes').innerText(), 'refunds');

    // 5. The same key now refunds (a full refund: within the PSP's reversal window, no IBAN asked).
    const accepted = await refund();
    assert.equal(accepted.status, 201, accepted.text);
    assert.equal(await refundRows(), 1);

    // 6. Withdrawn (no step-up needed to take a power away): recorded, and the key is refused again before anything else is looked at.
    await Promise.all([page.waitForURL(/done=refunds_withdrawn/), keyRow().locator('.refunds-form button').click()]);
    assert.equal(await grantedAt(), null);
    assert.deepEqual(await auditOf('key_scope_withdrawn'), [`${prefix}…: refunds`]);
    const again = await refund(liveKey, `scope-again-${Date.now()}`);
    assert.equal(again.status, 403);
    assert.equal(again.body.code, 'insufficient_scope');
    assert.equal(await refundRows(), 1);
  });

  it('the operator CLI makes a live key with the scope, lists keys with their scopes, grants and withdraws it (audited); test keys need no scope', async function () {
    this.timeout(120_000); // a handful of CLI processes, each a Node start
    const { merchantId, testKey } = await liveMerchant();
    const json = async (...args: string[]) => {
      const result = await cli(...args, '--json');
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    const made = await json('keys', 'create', '--merchant', merchantId, '--mode', 'live', '--scope', 'refunds');
    assert.deepEqual(made.scopes, ['refunds']);
    const listed = (await json('keys', 'list', '--merchant', merchantId)).keys as {
      key_id: string;
      mode: string;
      scopes: string[];
    }[];
    assert.deepEqual(listed.find((k) => k.key_id === made.key_id)?.scopes, ['refunds']);
    for (const k of listed.filter((k) => k.mode === 'test')) assert.deepEqual(k.scopes, ['refunds']);

    const withdrawn = await json('keys', 'scope', '--key', String(made.key_id), '--withdraw', 'refunds');
    assert.deepEqual(withdrawn.scopes, []);
    const granted = await json('keys', 'scope', '--key', String(made.key_id), '--grant', 'refunds');
    assert.deepEqual(granted.scopes, ['refunds']);
    const audit = await dashboard.h.db
      .selectFrom('audit_log')
      .select(['action', 'detail', 'user_id'])
      .where('merchant_id', '=', merchantId)
      .where('action', 'in', ['key_scope_granted', 'key_scope_withdrawn'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      audit.map((a) => a.action),
      ['key_scope_granted', 'key_scope_withdrawn', 'key_scope_granted'],
    );
    assert.ok(audit.every((a) => a.user_id === null && /by the operator/.test(a.detail)));

    // Refused, nothing changed: a test key (it holds every scope), an unknown scope, neither or both flags.
    const testKeyId = (
      await dashboard.h.db
        .selectFrom('api_keys')
        .select('id')
        .where('prefix', '=', parseKey(testKey)!.prefix)
        .executeTakeFirstOrThrow()
    ).id;
    for (const [reason, args] of [
      [/test keys hold every scope/, ['--key', testKeyId, '--grant', 'refunds']],
      [/--scope must be one of refunds/, ['--key', String(made.key_id), '--grant', 'payouts']],
      [/one of --grant SCOPE or --withdraw SCOPE/, ['--key', String(made.key_id)]],
    ] as const) {
      const result = await cli('keys', 'scope', ...args, '--json');
      assert.notEqual(result.code, 0);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, reason);
    }
    const still = await dashboard.h.db
      .selectFrom('api_keys')
      .select('refunds_granted_at')
      .where('id', '=', String(made.key_id))
      .executeTakeFirstOrThrow();
    assert.ok(still.refunds_granted_at instanceof Date);
  });

  it('a live ZarinPal merchant_id holds no scope: reverse.json of a verified live payment (a refund) is refused -62 and writes nothing', async () => {
    const { merchantId, liveKey } = await liveMerchant();
    const api = await liveBankApi();
    const payment = await verifiedLivePayment(api, liveKey, 1_200_000);
    const { zarinpal_merchant_id } = await issueCompatCredentials(dashboard.h.db, merchantId, 'live', 0);
    const reversed = await request<{ errors: { code: number } }>(api, 'POST', '/pg/v4/payment/reverse.json', {
      body: { merchant_id: zarinpal_merchant_id, authority: zarinpalAuthority(payment) },
    });
    assert.equal(reversed.status, 403, reversed.text);
    assert.equal(reversed.body.errors.code, -62);
    const refunds = await dashboard.h.db
      .selectFrom('refunds')
      .select('id')
      .where('payment_id', '=', payment.id)
      .execute();
    assert.equal(refunds.length, 0);
    // The granted API key of the same merchant refunds it (goLive grants the scope).
    const refunded = await request(api, 'POST', `/api/v1/payments/${payment.id}/refunds`, { key: liveKey, body: {} });
    assert.equal(refunded.status, 201, refunded.text);
  });
});
