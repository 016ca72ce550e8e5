/** Dashboard security: live keys behind live mode and two-step sign-in; setting up 2FA, signing in with a code or a recovery code once, the audit log of it all; and the second step bound to its pending sign-in. */
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { getHarness } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { cli } from '../support/cli.ts';
import { PASSWORD, signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';
import { linkIn } from '../support/mailbox.ts';
import { CHALLENGE, passChallenge, startChallenge } from '../../src/accounts/two-factor.ts';
import { secretBox } from '../../src/accounts/secret-box.ts';
import { AccountError } from '../../src/accounts/accounts.ts';
import { submitDocuments } from '../../src/merchants/documents.ts';
import { documentStore } from '../../src/adapters/document-store.ts';
import { GOOD_DOCUMENTS, SMALL_PDF } from '../support/live.ts';
import { auditActions, SECRETS_KEY, securityDashboard } from '../support/dashboard-security.ts';

/** TOTP codes as an authenticator app computes them, from the secret the page showed; never one step twice. */
class Authenticator {
  private readonly totp: TOTP;
  private lastStep = 0;
  constructor(secret: string) {
    this.totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  }
  /** The code of the first step after the last one used that the server accepts now (now or the next step), waiting if needed. */
  async nextCode(): Promise<string> {
    for (;;) {
      const current = Math.floor(Date.now() / 30_000);
      const step = Math.max(this.lastStep + 1, current);
      if (step <= current + 1) {
        this.lastStep = step;
        return this.totp.generate({ timestamp: step * 30_000 });
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  /** The code of now, for a try meant to fail (marks nothing). */
  currentCode(): string {
    return this.totp.generate();
  }
}

/** A code that is surely wrong: the right one with its first digit changed. */
const wrongCode = (code: string) => `${(Number(code[0]) + 5) % 10}${code.slice(1)}`;

describe('merchant dashboard security', function () {
  this.timeout(240_000);
  const dashboard = securityDashboard();
  const { open, checkPage, merchantOf } = dashboard;

  for (const lang of ['fa', 'en'] as const) {
    const en = lang === 'en';

    it(`(${lang}) live keys need live mode and two-step sign-in; 2FA set-up, sign-in with a code or a recovery code once; the audit log shows it all`, async () => {
      const { page, context, userAgent } = await open(390);
      const email = await signUpInBrowser(page, dashboard, lang, `Live shop ${lang}`);
      await signInInBrowser(page, dashboard.base, email);
      const { merchant_id: merchantId } = await merchantOf(email);
      // A domain added and removed: two more audit entries, so the log runs to a second page.
      await page.goto(`${dashboard.base}/dashboard/settings`);
      await page.fill('#domain', 'old.example.com');
      await Promise.all([page.waitForURL(/done=added/), page.click('#domain-form button[type=submit]')]);
      await Promise.all([
        page.waitForURL(/done=removed/),
        page.click('#domains li:has-text("old.example.com") button'),
      ]);

      // Neither live mode nor 2FA: refused, saying both.
      await page.goto(`${dashboard.base}/dashboard/developers`);
      assert.equal(await page.locator('#live-key-needs li').count(), 2);
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.click('#create-live-key-form button'),
      ]);
      assert.equal(refused.status(), 409);
      const needs = await page.locator('#live-key-refused li').allInnerTexts();
      assert.deepEqual(
        needs,
        en
          ? ['live mode active (after the gateway is approved)', 'your two-step sign-in turned on (under Security)']
          : ['فعال بودن حالت واقعی (پس از تأیید درگاه)', 'فعال بودن ورود دومرحله‌ای شما (در بخش امنیت)'],
      );
      assert.equal(await page.locator('#new-key').count(), 0);

      /** The operator's part, with the CLI as an operator runs it: the site's domain is the merchant's, added in the dashboard. */
      const activateLiveMode = async () => {
        await page.goto(`${dashboard.base}/dashboard/settings`);
        await page.fill('#domain', 'live.example.com');
        await Promise.all([page.waitForURL(/done=added/), page.click('#domain-form button[type=submit]')]);
        // The business documents (their own pages are tested with onboarding): a valid set, through the same service.
        const h2 = await getHarness();
        await submitDocuments(
          { db: h2.db, temporal: h2.temporal.client, config: h2.config, store: documentStore(h2.config) },
          merchantId,
          GOOD_DOCUMENTS,
          [{ name: 'registration.pdf', bytes: SMALL_PDF }],
        );
        await page.goto(`${dashboard.base}/dashboard/developers`);
        await Promise.all([page.waitForURL(/done=gateway/), page.click('#gateway-form button')]);
        for (const command of [
          ['gateways', 'approve'],
          ['live', 'activate'],
        ]) {
          const result = await cli(...command, '--merchant', merchantId);
          assert.equal(result.code, 0, result.stderr);
        }
      };

      let authenticator: Authenticator | undefined;
      let recoveryCodes: string[] = [];
      const setUpTwoFactor = async () => {
        await page.goto(`${dashboard.base}/dashboard/security`);
        assert.equal(await page.locator('#two-factor-state').innerText(), en ? 'Off' : 'غیرفعال');
        // The password again, then the link emailed to the account's address (docs/SECURITY.md).
        await page.fill('#password', PASSWORD);
        await Promise.all([page.waitForURL(/done=emailed/), page.click('#set-up-two-factor')]);
        const confirmation = await dashboard.mailTo(email, en ? /Confirm the change/ : /تأیید تغییر/);
        await page.goto(`${dashboard.base}${linkIn(confirmation, '/dashboard/security/two-factor')}`);
        assert.equal(await page.locator('#totp-qr svg').count(), 1, 'the QR code, drawn on the server');
        const secret = (await page.locator('#totp-secret').innerText()).replace(/\s+/g, '');
        const uri = new URL(await page.locator('#totp-uri').innerText());
        assert.equal(uri.searchParams.get('secret'), secret);
        // Reloading shows the same pending secret: nothing changes until a code confirms it.
        await page.reload();
        assert.equal((await page.locator('#totp-secret').innerText()).replace(/\s+/g, ''), secret);
        await checkPage(page, lang, 'two-factor-setup');
        authenticator = new Authenticator(secret);
        const code = await authenticator.nextCode();
        await page.fill('#code', wrongCode(code));
        await page.click('#two-factor-setup-form button');
        assert.match(await page.locator('#form-error').innerText(), en ? /not right/ : /درست نیست/);
        await page.fill('#code', code);
        await page.click('#two-factor-setup-form button');
        recoveryCodes = await page.locator('#recovery-codes code').allInnerTexts();
        assert.equal(recoveryCodes.length, 10);
        await checkPage(page, lang, 'recovery-codes');
        // The secret is sealed at rest; the recovery codes are kept only as hashes.
        const stored = await dashboard.h.db
          .selectFrom('users')
          .select(['totp_secret', 'totp_pending_secret'])
          .where('email', '=', email)
          .executeTakeFirstOrThrow();
        assert.match(stored.totp_secret ?? '', /^v1\./);
        assert.ok(!stored.totp_secret!.includes(secret));
        assert.equal(stored.totp_pending_secret, null);
        await page.goto(`${dashboard.base}/dashboard/security`);
        assert.equal(await page.locator('#two-factor-state').innerText(), en ? 'On' : 'فعال');
      };

      // Persian first turns live mode on, English first 2FA: each is refused with the other one missing.
      if (lang === 'fa') await activateLiveMode();
      else await setUpTwoFactor();
      await page.goto(`${dashboard.base}/dashboard/developers`);
      await page.click('#create-live-key-form button');
      assert.deepEqual(await page.locator('#live-key-refused li').allInnerTexts(), [
        lang === 'fa'
          ? 'فعال بودن ورود دومرحله‌ای شما (در بخش امنیت)'
          : 'live mode active (after the gateway is approved)',
      ]);
      if (lang === 'fa') await setUpTwoFactor();
      else await activateLiveMode();

      // Both hold: the live key is made and shown once.
      await page.goto(`${dashboard.base}/dashboard/developers`);
      assert.equal(await page.locator('#live-key-needs').count(), 0);
      const [created] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.click('#create-live-key-form button'),
      ]);
      assert.equal(created.status(), 201);
      const liveKey = await page.locator('#new-key').innerText();
      assert.match(liveKey, /^sk_live_[A-Za-z0-9_-]{43}$/);
      await checkPage(page, lang, 'developers-live-key');
      await page.goto(`${dashboard.base}/dashboard/developers`);
      assert.equal(await page.locator('#new-key').count(), 0, 'shown once');
      // The API records its use (at most once a minute), and the dashboard shows it.
      assert.equal((await client(dashboard.base, liveKey).get('/payments')).status, 200);
      const liveRow = page.locator(`#keys tbody tr:has(code:text("${liveKey.slice(0, 20)}"))`);
      await waitFor('the live key used', async () => {
        await page.reload();
        return (await liveRow.locator('td').nth(3).innerText()) !== (en ? 'Never' : 'هرگز') ? true : undefined;
      });

      // Roll it: a new live key at once, the old one until its expiry.
      await liveRow.locator('select[name=expires_in]').selectOption('3600');
      await liveRow.locator('.roll-form button').click();
      const rolled = await page.locator('#new-key').innerText();
      assert.match(rolled, /^sk_live_/);
      assert.notEqual(rolled, liveKey);
      assert.equal(
        (await client(dashboard.base, liveKey).get('/payments')).status,
        200,
        'the old key still works for its hour',
      );
      assert.equal((await client(dashboard.base, rolled).get('/payments')).status, 200);
      assert.match(await liveRow.locator('td').nth(4).innerText(), en ? /^Expires/ : /^انقضا/);
      await Promise.all([page.waitForURL(/done=revoked/), liveRow.locator('button.danger').click()]);
      assert.equal((await client(dashboard.base, liveKey).get('/payments')).status, 401, 'revoked before its expiry');

      // CSRF: the new forms refuse a post without their token.
      const noToken = await context.request.post(`${dashboard.base}/dashboard/security/two-factor/disable`, {
        form: { code: authenticator!.currentCode() },
        headers: { origin: dashboard.base },
        maxRedirects: 0,
      });
      assert.equal(noToken.status(), 403);
      const noTokenKey = await context.request.post(`${dashboard.base}/dashboard/developers/keys`, {
        form: { mode: 'live' },
        headers: { origin: dashboard.base },
        maxRedirects: 0,
      });
      assert.equal(noTokenKey.status(), 403);

      // Sign-in now takes a second step; until it is passed there is no session.
      await Promise.all([page.waitForURL(/signed_out=1/), page.click('#sign-out')]);
      // Failures here stay under the account's throttle (5 in 15 minutes): this one, two wrong codes, a used recovery code.
      await page.fill('#email', email);
      await page.fill('#password', 'not the password at all');
      await page.click('#auth-form button[type=submit]');
      await signInInBrowser(page, dashboard.base, email, PASSWORD, /\/dashboard\/sign-in\/two-factor$/);
      await checkPage(page, lang, 'sign-in-two-factor');
      assert.match(
        (await page.goto(`${dashboard.base}/dashboard/payments`))!.url(),
        /\/dashboard\/sign-in$/,
        'no session yet',
      );
      await page.goto(`${dashboard.base}/dashboard/sign-in/two-factor`);
      await page.fill('#code', wrongCode(authenticator!.currentCode()));
      await page.click('#auth-form button[type=submit]');
      assert.match(await page.locator('#form-error').innerText(), en ? /not right/ : /درست نیست/);
      const code = await authenticator!.nextCode();
      await page.fill('#code', code.replace(/^(...)/, '$1 '));
      await Promise.all([page.waitForURL(/\/dashboard\/overview$/), page.click('#auth-form button[type=submit]')]);

      // The same code again, seconds later (still inside its time window), is refused; a recovery code works once.
      await Promise.all([page.waitForURL(/signed_out=1/), page.click('#sign-out')]);
      await signInInBrowser(page, dashboard.base, email, PASSWORD, /\/sign-in\/two-factor$/);
      await page.fill('#code', code);
      await page.click('#auth-form button[type=submit]');
      assert.equal(await page.locator('#form-error').count(), 1, 'a used code is refused');
      await page.fill('#code', recoveryCodes[3]!.toUpperCase());
      await Promise.all([page.waitForURL(/\/dashboard\/overview$/), page.click('#auth-form button[type=submit]')]);
      await Promise.all([page.waitForURL(/signed_out=1/), page.click('#sign-out')]);
      await signInInBrowser(page, dashboard.base, email, PASSWORD, /\/sign-in\/two-factor$/);
      await page.fill('#code', recoveryCodes[3]!);
      await page.click('#auth-form button[type=submit]');
      assert.equal(await page.locator('#form-error').count(), 1, 'the same recovery code again is refused');
      await page.fill('#code', recoveryCodes[4]!);
      await Promise.all([page.waitForURL(/\/dashboard\/overview$/), page.click('#auth-form button[type=submit]')]);

      // The Security page: every action, newest first, with the address and the user agent.
      await page.goto(`${dashboard.base}/dashboard/security`);
      assert.equal(await page.locator('#recovery-codes-left').innerText(), en ? '8' : '۸');
      const actions = await auditActions(page);
      assert.deepEqual(actions.slice(0, 16), [
        'sign_in',
        'recovery_code_used',
        'two_factor_failed',
        'sign_out',
        'sign_in',
        'recovery_code_used',
        'two_factor_failed',
        'sign_out',
        'sign_in',
        'two_factor_failed',
        'sign_in_failed',
        'sign_out',
        'key_revoked',
        'key_rolled',
        'key_created',
        lang === 'fa' ? 'two_factor_enabled' : 'gateway_requested',
      ]);
      // Each live key refused for want of two-step sign-in is recorded (and mailed to the owner), as is the emailed change.
      for (const action of [
        'two_factor_enabled',
        'gateway_requested',
        'two_factor_change_requested',
        'live_action_refused',
      ])
        assert.ok(actions.includes(action), action);
      const first = page.locator('#audit tbody tr').first();
      assert.equal(await first.locator('.agent').innerText(), userAgent);
      assert.match(await first.locator('.address').innerText(), /127\.0\.0\.1/);
      assert.match(
        await page.locator('#audit tbody tr[data-action=key_created] .detail').first().innerText(),
        /^sk_live_[A-Za-z0-9_-]{12}…$/,
      );
      assert.equal(await page.locator('#audit tbody tr').count(), 20, 'a page of 20');
      await checkPage(page, lang, 'security');
      await Promise.all([page.waitForURL(/before=\d+/), page.click('#older-entries')]);
      const older = await auditActions(page);
      assert.equal(older.at(-1), 'sign_in', 'the oldest: the first sign-in');
      for (const action of ['domain_added', 'domain_removed']) assert.ok(older.includes(action), action);

      // Turning 2FA off needs the password, the emailed link and a current code, each counted in the sign-in throttle,
      // which the failures above have filled: its window passes (as 15 minutes would).
      // (the account's counters: from this address, and from every address, whose backoff would slow each step).
      await dashboard.h.db.deleteFrom('rate_limit_counters').where('bucket', 'like', 'signin-account%').execute();
      await page.goto(`${dashboard.base}/dashboard/security`);
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForURL(/done=emailed/), page.click('#turn-off-two-factor')]);
      const offLink = await dashboard.mailTo(email, en ? /Confirm the change/ : /تأیید تغییر/);
      await page.goto(`${dashboard.base}${linkIn(offLink, '/dashboard/security/two-factor/disable')}`);
      // A wrong code uses up no step: the next right one need not wait for a new time window.
      await page.fill('#code', wrongCode(authenticator!.currentCode()));
      await page.click('#auth-form button[type=submit]');
      assert.ok(await page.locator('#form-error').isVisible());
      await page.fill('#code', await authenticator!.nextCode());
      await Promise.all([page.waitForURL(/done=disabled/), page.click('#auth-form button[type=submit]')]);
      assert.equal(await page.locator('#two-factor-state').innerText(), en ? 'Off' : 'غیرفعال');
      assert.equal(await page.locator('#audit tbody tr').first().getAttribute('data-action'), 'two_factor_disabled');
      // And a live key is refused again.
      await page.goto(`${dashboard.base}/dashboard/developers`);
      assert.equal(await page.locator('#live-key-needs li').count(), 1);
    });
  }

  it('the second step is bound to its pending sign-in: 5 wrong codes end it, it expires, and the throttle counts', async () => {
    const a = await open(1280);
    const email = await signUpInBrowser(a.page, dashboard, 'en', 'Challenge shop');
    const { id: userId } = await merchantOf(email);
    const box = secretBox(SECRETS_KEY);
    // 2FA on through the service, with a known secret.
    const secret = new Secret({ size: 20 }).base32;
    await dashboard.h.db
      .updateTable('users')
      .set({ totp_secret: box.seal(secret, userId), totp_enabled_at: new Date() })
      .where('id', '=', userId)
      .execute();
    const right = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
    const address = `198.51.100.${Math.floor(Math.random() * 200)}`;
    const token = await startChallenge(dashboard.h.db, userId);
    for (let i = 0; i < CHALLENGE.failures; i += 1) {
      await assert.rejects(
        passChallenge({ db: dashboard.h.db, box }, token, wrongCode(right), address),
        (e: unknown) => e instanceof AccountError && e.code === 'invalid_code',
      );
    }
    // Used up: even the right code no longer opens it.
    await assert.rejects(
      passChallenge({ db: dashboard.h.db, box }, token, right, address),
      (e: unknown) => e instanceof AccountError && e.code === 'invalid_link',
    );
    // A challenge of another user, or none, is no challenge.
    await assert.rejects(
      passChallenge({ db: dashboard.h.db, box }, 'B'.repeat(43), right, address),
      (e: unknown) => e instanceof AccountError && e.code === 'invalid_link',
    );
    // The account's sign-in throttle now stands at its limit: a new challenge with the right code is refused too.
    const again = await startChallenge(dashboard.h.db, userId);
    await assert.rejects(
      passChallenge({ db: dashboard.h.db, box }, again, right, address),
      (e: unknown) => e instanceof AccountError && e.code === 'invalid_code',
    );
    // An expired challenge is refused.
    const expired = await startChallenge(dashboard.h.db, userId);
    await dashboard.h.db
      .updateTable('user_sign_in_challenges')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('user_id', '=', userId)
      .execute();
    await assert.rejects(
      passChallenge({ db: dashboard.h.db, box }, expired, right, address),
      (e: unknown) => e instanceof AccountError && e.code === 'invalid_link',
    );
  });
});
