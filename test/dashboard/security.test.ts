/** Dashboard security: a forgotten password reset through the emailed one-time link, ending every session; and one merchant's keys out of another's reach. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { client } from '../support/http.ts';
import { linkIn } from '../support/mailbox.ts';
import { assertStrictHeaders, PASSWORD, signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';
import { auditActions, securityDashboard } from '../support/dashboard-security.ts';

describe('merchant dashboard security', function () {
  this.timeout(240_000);
  const dashboard = securityDashboard();
  const { open, mailTo, checkPage } = dashboard;

  for (const lang of ['fa', 'en'] as const) {
    const en = lang === 'en';

    it(`(${lang}) forgot password → the emailed one-time link → a new password ends every session`, async () => {
      const a = await open(390);
      const email = await signUpInBrowser(a.page, dashboard, lang, `Reset shop ${lang}`);
      await signInInBrowser(a.page, dashboard.base, email);
      const b = await open(1280);
      await b.page.goto(`${dashboard.base}/dashboard/sign-in${en ? '?lang=en' : ''}`);
      await Promise.all([b.page.waitForURL(/\/dashboard\/forgot-password$/), b.page.click('#forgot-password')]);
      const forgot = await b.page.reload();
      assertStrictHeaders(forgot!.headers(), 'forgot-password page');
      await checkPage(b.page, lang, 'forgot-password');

      // An unknown address gets the very same answer, and no email.
      const unknown = `nobody-${randomUUID()}@example.com`;
      await b.page.fill('#email', unknown);
      await Promise.all([
        b.page.waitForURL(/\/forgot-password\/sent$/),
        b.page.click('#auth-form button[type=submit]'),
      ]);
      const unknownAnswer = await b.page.locator('main').innerText();
      await b.page.goto(`${dashboard.base}/dashboard/forgot-password`);
      await b.page.fill('#email', email.toUpperCase());
      await Promise.all([
        b.page.waitForURL(/\/forgot-password\/sent$/),
        b.page.click('#auth-form button[type=submit]'),
      ]);
      assert.equal(await b.page.locator('main').innerText(), unknownAnswer);
      const mail = await mailTo(email, en ? /Reset your Dargah password/ : /بازنشانی گذرواژه/);
      assert.equal(
        dashboard.mailbox.received.some((m) => m.to.includes(unknown)),
        false,
        'no email to an unknown address',
      );
      const link = linkIn(mail, '/dashboard/reset');

      const resetResponse = await b.page.goto(`${dashboard.base}${link}`);
      // The token in the address goes to no other site with a link followed from here.
      assert.equal(resetResponse!.headers()['referrer-policy'], 'same-origin');
      await b.page.fill('#password', 'short');
      await b.page.click('#auth-form button[type=submit]');
      assert.match(await b.page.locator('#form-error').innerText(), en ? /at least 10 characters/ : /دست‌کم ۱۰ نویسه/);
      await checkPage(b.page, lang, 'reset-password');
      const newPassword = 'another quite memorable sentence';
      await b.page.fill('#password', newPassword);
      await b.page.click('#auth-form button[type=submit]');
      assert.equal(await b.page.locator('main h1').innerText(), en ? 'Password changed' : 'گذرواژه تغییر کرد');

      // Every session ended: the phone's is gone.
      await a.page.goto(`${dashboard.base}/dashboard/payments`);
      assert.match(a.page.url(), /\/dashboard\/sign-in\?ended=1$/);
      // The link worked once.
      assert.equal((await b.page.goto(`${dashboard.base}${link}`))!.status(), 400);
      // The old password no longer opens the account; the new one does.
      await a.page.fill('#email', email);
      await a.page.fill('#password', PASSWORD);
      await a.page.click('#auth-form button[type=submit]');
      assert.equal(await a.page.locator('#form-error').count(), 1);
      await signInInBrowser(a.page, dashboard.base, email, newPassword);

      await a.page.goto(`${dashboard.base}/dashboard/security`);
      const actions = await auditActions(a.page);
      assert.deepEqual(actions.slice(0, 4), [
        'sign_in',
        'sign_in_failed',
        'password_reset',
        'password_reset_requested',
      ]);
      const resetRow = a.page.locator('#audit tbody tr[data-action=password_reset]');
      assert.equal(
        await resetRow.locator('.agent').innerText(),
        b.userAgent,
        'the user agent of the browser that reset it',
      );
      assert.match(await resetRow.locator('.address').innerText(), /127\.0\.0\.1/);
    });
  }

  it("merchant A gets 404 for merchant B's key (roll and revoke by URL), and B's key keeps working", async () => {
    const a = await open(1280);
    const b = await open(1280);
    const emailA = await signUpInBrowser(a.page, dashboard, 'en', 'Merchant A');
    const emailB = await signUpInBrowser(b.page, dashboard, 'en', 'Merchant B');
    await signInInBrowser(a.page, dashboard.base, emailA);
    await signInInBrowser(b.page, dashboard.base, emailB);
    await b.page.goto(`${dashboard.base}/dashboard/developers`);
    await b.page.click('#create-key-form button');
    const keyB = await b.page.locator('#new-key').innerText();
    const keyIdB = (await b.page.locator('#keys tbody tr').first().getAttribute('data-id'))!;
    await a.page.goto(`${dashboard.base}/dashboard/developers`);
    const token = await a.page.locator('#create-key-form input[name=csrf_token]').inputValue();
    for (const action of ['roll', 'revoke']) {
      const response = await a.context.request.post(`${dashboard.base}/dashboard/developers/keys/${keyIdB}/${action}`, {
        form: { csrf_token: token, expires_in: '0' },
        headers: { origin: dashboard.base },
        maxRedirects: 0,
      });
      assert.equal(response.status(), 404, action);
    }
    assert.equal((await client(dashboard.base, keyB).get('/payments')).status, 200);
    const keysB = await dashboard.h.db
      .selectFrom('api_keys')
      .select(['id', 'expires_at', 'revoked_at'])
      .where('id', '=', keyIdB)
      .executeTakeFirstOrThrow();
    assert.deepEqual([keysB.expires_at, keysB.revoked_at], [null, null]);
  });
});
