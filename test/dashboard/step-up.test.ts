/**
 * A stolen password alone reaches no live money (docs/SECURITY.md, "Live actions need a recent second
 * factor"): a password-only session gets no live key, no live refund and no live webhook endpoint, and
 * each attempt reaches the owner's mailbox; turning two-step sign-in on needs the password again and the
 * emailed link; a second factor older than STEP_UP_SECONDS sends a live action to the step-up page; a
 * password reset tells the owner that two-step sign-in stays on.
 */
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { STEP_UP_SECONDS } from '../../src/accounts/step-up.ts';
import { liveBankApi } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { linkIn } from '../support/mailbox.ts';
import { PASSWORD, signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';
import { securityDashboard } from '../support/dashboard-security.ts';
import { goLive, verifiedLivePayment } from '../support/live.ts';
import { REFUND_IBAN } from '../support/refunds.ts';

describe('live actions need a recent second factor (step-up)', function () {
  this.timeout(240_000);
  const dashboard = securityDashboard();
  const { open, merchantOf, mailTo } = dashboard;

  it('a password-only session cannot get a live key, refund live or touch live webhooks; the owner is mailed; 2FA needs password + emailed link; step-up after 5 minutes', async () => {
    const { page } = await open(1280);
    const email = await signUpInBrowser(page, dashboard, 'en', 'Stolen password shop');
    const { merchant_id: merchantId } = await merchantOf(email);
    const liveKey = await goLive(merchantId);
    const payment = await verifiedLivePayment(await liveBankApi(), liveKey, 1_500_000);
    const db = dashboard.h.db;
    const mailsTo = () => dashboard.mailbox.received.filter((m) => m.to.includes(email));
    const refusedMails = () => mailsTo().filter((m) => /live action was refused/.test(m.subject));

    // The attacker: the password only.
    await signInInBrowser(page, dashboard.base, email);

    // 1. A live key: refused (two-step sign-in missing), and the owner hears of it.
    await page.goto(`${dashboard.base}/dashboard/developers`);
    const [keyRefused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#create-live-key-form button'),
    ]);
    assert.equal(keyRefused.status(), 409);
    assert.equal(await page.locator('#new-key').count(), 0);
    const keysBefore = await db
      .selectFrom('api_keys')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', 'live')
      .execute();
    assert.equal(keysBefore.length, 1, 'only the operator-made live key');
    await mailTo(email, /live action was refused/);

    // 2. A live refund: refused with nothing written.
    await page.goto(`${dashboard.base}/dashboard/payments/${payment.id}`);
    await page.fill('#refund-amount', '1000');
    const [refundRefused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#refund-form button[type=submit]'),
    ]);
    assert.equal(refundRefused.status(), 403);
    assert.match(await page.locator('main').innerText(), /need two-step sign-in/);
    assert.equal(
      (await db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute()).length,
      0,
    );

    // 3. A live webhook endpoint: refused with nothing written.
    await page.goto(`${dashboard.base}/dashboard/webhooks?mode=live`);
    await page.fill('#endpoint-url', 'https://hooks.example.com/dargah');
    const [hookRefused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#endpoint-form button[type=submit]'),
    ]);
    assert.equal(hookRefused.status(), 403);
    assert.equal(
      (await db.selectFrom('webhook_endpoints').select('id').where('merchant_id', '=', merchantId).execute()).length,
      0,
    );
    await waitFor('three refusal emails', () => Promise.resolve(refusedMails().length >= 3 ? true : undefined));
    const refusals = refusedMails().map((m) => m.text);
    for (const what of [
      'create or roll a live API key',
      'refund a live payment',
      'add or change a live webhook endpoint',
    ]) {
      assert.ok(
        refusals.some((t) => t.includes(what)),
        `the owner is told of: ${what}`,
      );
    }

    // 4. The attacker turns two-step sign-in on with their own app: the password is asked again, and the rest goes by email.
    await page.goto(`${dashboard.base}/dashboard/security`);
    await page.fill('#password', 'not the password at all');
    const [wrong] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#set-up-two-factor'),
    ]);
    assert.equal(wrong.status(), 422);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(/done=emailed/), page.click('#set-up-two-factor')]);
    // Without the emailed link there is no set-up page and no way to turn it on.
    const noLink = await page.goto(`${dashboard.base}/dashboard/security/two-factor`);
    assert.equal(noLink!.status(), 400);
    const users = await db
      .selectFrom('users')
      .select('totp_enabled_at')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    assert.equal(users.totp_enabled_at, null);

    // The owner (who reads the mailbox) completes it.
    const confirm = await mailTo(email, /Confirm the change/);
    await page.goto(`${dashboard.base}${linkIn(confirm, '/dashboard/security/two-factor')}`);
    const secret = (await page.locator('#totp-secret').innerText()).replace(/\s+/g, '');
    const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    const step = Math.floor(Date.now() / 30_000);
    await page.fill('#code', totp.generate({ timestamp: step * 30_000 }));
    await page.click('#two-factor-setup-form button');
    assert.equal(await page.locator('#recovery-codes code').count(), 10);
    await mailTo(email, /two-step sign-in changed/);

    // 5. The new app's first code was proved in this session: a live key now, and the owner is told.
    await page.goto(`${dashboard.base}/dashboard/developers`);
    const [created] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#create-live-key-form button'),
    ]);
    assert.equal(created.status(), 201);
    assert.match(await page.locator('#new-key').innerText(), /^sk_live_/);
    await mailTo(email, /live change/);

    // 6. That proof grows old (as if STEP_UP_SECONDS had passed): the next live action asks for a code first, then comes back.
    await db
      .updateTable('user_sessions')
      .set({ second_factor_at: new Date(Date.now() - STEP_UP_SECONDS * 1000 - 1_000) })
      .execute();
    await page.goto(`${dashboard.base}/dashboard/payments/${payment.id}`);
    await page.fill('#refund-amount', '1000');
    await Promise.all([
      page.waitForURL(/\/dashboard\/step-up\?return=/),
      page.click('#refund-form button[type=submit]'),
    ]);
    assert.equal(
      (await db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute()).length,
      0,
    );
    await page.fill('#code', `${(Number(totp.generate()[0]) + 5) % 10}${totp.generate().slice(1)}`);
    const [badCode] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#auth-form button[type=submit]'),
    ]);
    assert.equal(badCode.status(), 401);
    // A step after the one that turned it on (codes are accepted once).
    for (;;) {
      if (Math.floor(Date.now() / 30_000) + 1 > step) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    await page.fill('#code', totp.generate({ timestamp: (step + 1) * 30_000 }));
    await Promise.all([
      page.waitForURL(new RegExp(`/dashboard/payments/${payment.id}$`)),
      page.click('#auth-form button[type=submit]'),
    ]);
    await page.fill('#refund-amount', '1000');
    // A part of a SEP payment is paid to the customer's IBAN (SEP has no refund operation).
    await page.fill('#refund-iban', REFUND_IBAN);
    await Promise.all([page.waitForURL(/done=refund/), page.click('#refund-form button[type=submit]')]);
    assert.equal(
      (await db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute()).length,
      1,
    );

    // 7. A password reset ends every session, and the owner learns that two-step sign-in stays on.
    await page.goto(`${dashboard.base}/dashboard/forgot-password?lang=en`);
    await page.fill('#email', email);
    await Promise.all([page.waitForURL(/forgot-password\/sent/), page.click('#auth-form button[type=submit]')]);
    const reset = await mailTo(email, /Reset your Dargah password/);
    await page.goto(`${dashboard.base}${linkIn(reset, '/dashboard/reset')}`);
    await page.fill('#password', 'another long and memorable phrase');
    await page.click('#auth-form button[type=submit]');
    const kept = await mailTo(email, /two-step sign-in stays on/);
    assert.match(kept.text, /same authenticator app/);
    const { id: userId } = await merchantOf(email);
    assert.equal(
      (await db.selectFrom('user_sessions').select('token_hash').where('user_id', '=', userId).execute()).length,
      0,
    );
  });
});
