import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { getHarness, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { screenshot } from '../support/browser.ts';
import { linkIn, type Mailbox } from '../support/mailbox.ts';
import {
  assertAccessible,
  assertLanguage,
  assertNoScript,
  assertStrictHeaders,
  dashboardBrowser,
  PASSWORD,
  persian,
  signInInBrowser as signInToDashboard,
  signUpInBrowser as signUpInDashboard,
  type Lang,
} from '../support/dashboard.ts';
import {
  AccountError,
  checkCredentials,
  checkPassword,
  confirmEmail,
  sha256,
  SIGN_IN_LIMITS,
  signUp,
} from '../../src/accounts/accounts.ts';
import { sessionUser, startSession } from '../../src/accounts/sessions.ts';
import type { Mail } from '../../src/adapters/mailer.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

describe('merchant dashboard', function () {
  this.timeout(180_000);
  let h: Harness;
  let base: string;
  let mailbox: Mailbox;
  const dashboard = dashboardBrowser();
  before(async () => {
    h = await getHarness();
    ({ base, mailbox } = dashboard);
  });
  const phone = () => dashboard.phone();
  const desktop = async () =>
    dashboard.track(await dashboard.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();

  const signUpInBrowser = (page: Page, lang: Lang, business: string) =>
    signUpInDashboard(page, { base, mailbox }, lang, business);
  const signInInBrowser = (page: Page, email: string, password = PASSWORD) =>
    signInToDashboard(page, base, email, password);

  for (const lang of ['fa', 'en'] as const) {
    it(`(${lang}) sign-up → emailed link → sign-in → domain → test key → a payment made with that key is in the list`, async () => {
      const { page, dialogs, errors } = await phone();
      const business = `Shop ${lang} ${randomUUID().slice(0, 8)}`;

      const signUpResponse = await page.goto(`${base}/dashboard/sign-up${lang === 'en' ? '?lang=en' : ''}`);
      assertStrictHeaders(signUpResponse!.headers(), 'sign-up page');
      await assertLanguage(page, lang);
      await assertNoScript(page, 'sign-up page');
      await assertAccessible(page, 'sign-up page');
      await screenshot(page, `dashboard-${lang}-390-sign-up`);

      const email = `owner-${randomUUID()}@example.com`;
      await page.fill('#business_name', business);
      await page.fill('#email', email);
      await page.fill('#password', 'short');
      await page.click('#auth-form button[type=submit]');
      assert.match(
        await page.locator('#form-error').innerText(),
        lang === 'en' ? /at least 10 characters/ : /دست‌کم ۱۰ نویسه/,
      );
      await assertAccessible(page, 'sign-up page with an error');
      await page.fill('#password', PASSWORD);
      await Promise.all([page.waitForURL(/\/dashboard\/sign-up\/sent$/), page.click('#auth-form button[type=submit]')]);
      await assertLanguage(page, lang); // the language stuck: the cookie, not the address, says so now

      // The email went over SMTP to the receiver, in the user's language, with the link.
      const mail = await mailbox.next(email);
      assert.equal(
        mail.subject,
        lang === 'en' ? 'Confirm your email address for Dargah' : 'تأیید نشانی ایمیل در درگاه',
      );
      const confirmPath = linkIn(mail, '/dashboard/confirm');

      // Not confirmed yet: the right password learns only that.
      await page.goto(`${base}/dashboard/sign-in`);
      await page.fill('#email', email);
      await page.fill('#password', PASSWORD);
      await page.click('#auth-form button[type=submit]');
      assert.match(await page.locator('#form-error').innerText(), lang === 'en' ? /not confirmed/ : /تأیید نشده/);

      await page.goto(`${base}${confirmPath}`);
      assert.equal(
        await page.locator('main h1').innerText(),
        lang === 'en' ? 'Email address confirmed' : 'نشانی ایمیل تأیید شد',
      );
      await assertAccessible(page, 'confirmation page');
      // A link works once.
      const again = await page.goto(`${base}${confirmPath}`);
      assert.equal(again?.status(), 400);
      await page.goto(`${base}${confirmPath}`.replace(/token=[^&]+/, 'token=nonsense'));

      await page.goto(`${base}/dashboard/sign-in`);
      await assertAccessible(page, 'sign-in page');
      await screenshot(page, `dashboard-${lang}-390-sign-in`);
      await page.fill('#email', email.toUpperCase());
      await page.fill('#password', PASSWORD);
      const [signInResponse] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/dashboard/sign-in') && r.request().method() === 'POST'),
        page.click('#auth-form button[type=submit]'),
      ]);
      const cookie = (await signInResponse.headerValue('set-cookie')) ?? '';
      assert.match(cookie, /dargah_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
      await page.waitForURL(/\/dashboard\/overview$/);
      assert.equal(
        await page.locator('#period-count').innerText(),
        lang === 'en' ? '0' : '۰',
        'the overview is home: nothing yet',
      );
      await page.click('nav.nav a[href="/dashboard/payments"]');
      assert.ok(await page.locator('#no-payments').isVisible());
      await assertAccessible(page, 'empty payments page');

      // Settings: a domain with a mistake, then the shop's, then one added and removed again.
      await page.click('nav.nav a[href="/dashboard/settings"]');
      await assertAccessible(page, 'settings page');
      await page.fill('#domain', 'not a domain');
      await page.click('#domain-form button[type=submit]');
      assert.ok(await page.locator('#form-error').isVisible());
      await page.fill('#domain', 'localhost');
      await Promise.all([page.waitForURL(/done=added/), page.click('#domain-form button[type=submit]')]);
      await page.fill('#domain', 'Shop.Example.com');
      await Promise.all([page.waitForURL(/done=added/), page.click('#domain-form button[type=submit]')]);
      assert.deepEqual(await page.locator('#domains bdi').allInnerTexts(), ['localhost', 'shop.example.com']);
      await assertAccessible(page, 'settings page with domains');
      await screenshot(page, `dashboard-${lang}-390-settings`);
      await Promise.all([
        page.waitForURL(/done=removed/),
        page.click('#domains li:has-text("shop.example.com") button'),
      ]);
      assert.deepEqual(await page.locator('#domains bdi').allInnerTexts(), ['localhost']);

      // API & gateway: the sign-up's test key is listed; a new one is shown once.
      await page.click('nav.nav a[href="/dashboard/developers"]');
      assert.equal(await page.locator('#keys tbody tr').count(), 1, 'the test key made at sign-up');
      assert.equal(await page.locator('#gateway-status').innerText(), lang === 'en' ? 'Not requested' : 'درخواست نشده');
      await page.click('#create-key-form button');
      const key = await page.locator('#new-key').innerText();
      assert.match(key, /^sk_test_[A-Za-z0-9_-]{43}$/);
      assert.equal(await page.locator('#keys tbody tr').count(), 2);
      await assertAccessible(page, 'developers page with a new key');
      await screenshot(page, `dashboard-${lang}-390-developers`);
      await page.goto(`${base}/dashboard/developers`);
      assert.equal(await page.locator('#new-key').count(), 0, 'the key is shown once');
      // The gateway request waits for the business documents (test/onboarding/dashboard-onboarding.test.ts walks it).
      assert.equal(await page.locator('#gateway-form').count(), 0);
      assert.ok(await page.locator('#documents-needed').isVisible());

      // A payment created with that key through the API appears in the list and on its own page.
      const reference = `order-${randomUUID().slice(0, 8)}`;
      const created = await client(base, key).post<{ payment: Payment }>('/payments', {
        amount: 1_500_000,
        callback_url: 'http://localhost/return',
        merchant_reference: reference,
        description: 'دو دفتر و یک خودکار',
      });
      assert.equal(created.status, 201, created.text);
      await page.click('nav.nav a[href="/dashboard/payments"]');
      const row = page.locator(`#payments tr[data-id="${created.body.payment.id}"]`);
      assert.ok(await row.isVisible());
      assert.match(await row.innerText(), lang === 'en' ? /1,500,000 rials/ : /۱٬۵۰۰٬۰۰۰ ریال/);
      await assertAccessible(page, 'payments page');
      await screenshot(page, `dashboard-${lang}-390-payments`);
      await row.locator('a').click();
      await page.waitForURL(new RegExp(`/dashboard/payments/${created.body.payment.id}$`));
      const main = await page.locator('main').innerText();
      assert.ok(main.includes(reference), main);
      assert.ok(main.includes('دو دفتر و یک خودکار'), main);
      assert.ok(
        main.includes(lang === 'fa' ? persian(created.body.payment.tracking_code) : created.body.payment.tracking_code),
        main,
      );
      await assertAccessible(page, 'payment page');
      await screenshot(page, `dashboard-${lang}-390-payment`);

      // Filters: another status, and live mode, show none of it.
      await page.goto(`${base}/dashboard/payments?status=verified`);
      assert.ok(await page.locator('#no-payments').isVisible());
      await page.click('#mode-live');
      assert.ok(await page.locator('#no-payments').isVisible());
      assert.equal(await page.locator('.test-banner').count(), 0, 'live mode has no test banner');

      // The same pages on a desktop screen.
      const wide = await desktop();
      await wide.context().addCookies(await page.context().cookies());
      for (const [path, name] of [
        ['/dashboard/payments', 'payments'],
        [`/dashboard/payments/${created.body.payment.id}`, 'payment'],
        ['/dashboard/developers', 'developers'],
        ['/dashboard/settings', 'settings'],
      ] as const) {
        await wide.goto(`${base}${path}`);
        await assertLanguage(wide, lang);
        await screenshot(wide, `dashboard-${lang}-1280-${name}`);
      }
      await assertAccessible(wide, 'payments page, desktop');

      // Sign out: the session is gone, the pages send back to sign-in.
      await Promise.all([page.waitForURL(/signed_out=1/), page.click('#sign-out')]);
      await page.goto(`${base}/dashboard/payments`);
      assert.match(page.url(), /\/dashboard\/sign-in/);
      assert.deepEqual(dialogs, [], 'no script ran');
      // Refusals (422, 401, 400) are logged by Chromium as failed loads; anything else (a CSP violation) is a fault.
      assert.deepEqual(
        errors.filter((e) => !/^Failed to load resource: the server responded with a status of (4\d\d)/.test(e)),
        [],
      );
    });
  }

  it('the language switch sticks across pages (cookie), and the default is Persian', async () => {
    const { page } = await phone();
    await page.goto(`${base}/dashboard/sign-in`);
    await assertLanguage(page, 'fa');
    await page.click('a.lang');
    await assertLanguage(page, 'en');
    await page.click('p.switch a');
    assert.match(page.url(), /\/dashboard\/sign-up$/);
    await assertLanguage(page, 'en');
    await page.click('a.lang');
    await page.goto(`${base}/dashboard/sign-in`);
    await assertLanguage(page, 'fa');
  });

  it("a session of merchant A gets 404 for merchant B's payment, by URL", async () => {
    const a = await phone();
    const b = await phone();
    const emailA = await signUpInBrowser(a.page, 'en', 'Merchant A');
    const emailB = await signUpInBrowser(b.page, 'en', 'Merchant B');
    await signInInBrowser(a.page, emailA);
    await signInInBrowser(b.page, emailB);
    // B adds its domain and makes a key, and a payment with it.
    await b.page.goto(`${base}/dashboard/settings`);
    await b.page.fill('#domain', 'localhost');
    await Promise.all([b.page.waitForURL(/done=added/), b.page.click('#domain-form button[type=submit]')]);
    await b.page.goto(`${base}/dashboard/developers`);
    await b.page.click('#create-key-form button');
    const keyB = await b.page.locator('#new-key').innerText();
    const created = await client(base, keyB).post<{ payment: Payment }>('/payments', {
      amount: 20_000,
      callback_url: 'http://localhost/r',
      merchant_reference: 'b-1',
    });
    assert.equal(created.status, 201, created.text);
    const keyId = await b.page.locator('#keys tbody tr').first().getAttribute('data-id');
    const own = await b.page.goto(`${base}/dashboard/payments/${created.body.payment.id}`);
    assert.equal(own?.status(), 200);

    const other = await a.page.goto(`${base}/dashboard/payments/${created.body.payment.id}`);
    assert.equal(other?.status(), 404);
    assert.equal(await a.page.locator('main h1').innerText(), 'Not found');
    await assertAccessible(a.page, 'not-found page');
    await a.page.goto(`${base}/dashboard/payments`);
    assert.ok(await a.page.locator('#no-payments').isVisible(), "B's payment is not in A's list");
    // Nor can A revoke B's key.
    const token = await a.page.locator('input[name=csrf_token]').first().inputValue();
    const revoke = await a.context.request.post(`${base}/dashboard/developers/keys/${keyId}/revoke`, {
      form: { csrf_token: token },
      headers: { origin: base },
      maxRedirects: 0,
    });
    assert.equal(revoke.status(), 404);
    assert.equal(
      (await client(base, keyB).get(`/payments/${created.body.payment.id}`)).status,
      200,
      "B's key still works",
    );
  });

  it('a form post without its CSRF token, or from another origin, is refused (403) and changes nothing', async () => {
    const { page, context } = await phone();
    const email = await signUpInBrowser(page, 'en', 'CSRF shop');
    await signInInBrowser(page, email);
    await page.goto(`${base}/dashboard/settings`);
    const token = await page.locator('#domain-form input[name=csrf_token]').inputValue();
    const noToken = await context.request.post(`${base}/dashboard/settings/domains`, {
      form: { domain: 'evil.example.com' },
      headers: { origin: base },
      maxRedirects: 0,
    });
    assert.equal(noToken.status(), 403);
    assert.match(await noToken.text(), /Request refused/);
    const otherOrigin = await context.request.post(`${base}/dashboard/settings/domains`, {
      form: { domain: 'evil.example.com', csrf_token: token },
      headers: { origin: 'https://evil.example' },
      maxRedirects: 0,
    });
    assert.equal(otherOrigin.status(), 403);
    const sameOrigin = await context.request.post(`${base}/dashboard/settings/domains`, {
      form: { domain: 'good.example.com', csrf_token: token },
      headers: { origin: base },
      maxRedirects: 0,
    });
    assert.equal(sameOrigin.status(), 303);
    await page.goto(`${base}/dashboard/settings`);
    assert.deepEqual(await page.locator('#domains bdi').allInnerTexts(), ['good.example.com']);
    // Sign-in and sign-out are forms too.
    const signOut = await context.request.post(`${base}/dashboard/sign-out`, {
      form: {},
      headers: { origin: base },
      maxRedirects: 0,
    });
    assert.equal(signOut.status(), 403);
  });

  it('sign-in is throttled per account with the one generic error, and rotates the session id', async () => {
    const { page, context } = await phone();
    const email = await signUpInBrowser(page, 'en', 'Throttled shop');
    // A session cookie planted before sign-in is never the signed-in one.
    await context.addCookies([{ name: 'dargah_session', value: 'A'.repeat(43), url: base }]);
    await signInInBrowser(page, email);
    const session = (await context.cookies(base)).find((c) => c.name === 'dargah_session')?.value;
    assert.ok(session !== undefined && session !== 'A'.repeat(43));
    await Promise.all([page.waitForURL(/signed_out=1/), page.click('#sign-out')]);

    const generic = 'Wrong email or password, or too many failed attempts. Try again in a while.';
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i += 1) {
      await page.goto(`${base}/dashboard/sign-in?lang=en`);
      await page.fill('#email', email);
      await page.fill('#password', `wrong password ${i}`);
      await page.click('#auth-form button[type=submit]');
      assert.equal(await page.locator('#form-error p').innerText(), generic);
    }
    // An unknown address reads the same.
    await page.fill('#email', `nobody-${randomUUID()}@example.com`);
    await page.fill('#password', PASSWORD);
    await page.click('#auth-form button[type=submit]');
    assert.equal(await page.locator('#form-error p').innerText(), generic);
    // Now even the right password is refused, with the same words.
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('#auth-form button[type=submit]'),
    ]);
    assert.equal(response.status(), 401);
    assert.equal(await page.locator('#form-error p').innerText(), generic);
    assert.match(page.url(), /\/dashboard\/sign-in/);
  });

  it('sign-out everywhere ends the sessions on every device', async () => {
    const one = await phone();
    const two = await phone();
    const email = await signUpInBrowser(one.page, 'en', 'Two devices');
    await signInInBrowser(one.page, email);
    await signInInBrowser(two.page, email);
    await one.page.goto(`${base}/dashboard/settings`);
    await Promise.all([one.page.waitForURL(/signed_out=1/), one.page.click('#sign-out-everywhere-form button')]);
    await two.page.goto(`${base}/dashboard/payments?lang=en`);
    assert.match(two.page.url(), /\/dashboard\/sign-in\?ended=1$/);
    assert.equal(await two.page.locator('#notice').innerText(), 'Your session has ended; please sign in again.');
  });

  describe('accounts service', () => {
    const sent: Mail[] = [];
    const mailer = { send: (m: Mail) => Promise.resolve(void sent.push(m)), close: () => undefined };

    async function confirmedUser(): Promise<string> {
      const email = `svc-${randomUUID()}@example.com`;
      await signUp(
        { db: h.db, config: h.config, mailer },
        { email, password: PASSWORD, businessName: 'Service shop', lang: 'en', address: '127.0.0.1' },
      );
      const mail = sent.find((m) => m.to === email)!;
      await confirmEmail(h.db, new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!);
      return email;
    }

    it('a second sign-up with the same address creates nothing and mails the owner a note', async () => {
      const email = await confirmedUser();
      await signUp(
        { db: h.db, config: h.config, mailer },
        {
          email: email.toUpperCase(),
          password: 'another long password',
          businessName: 'Copycat',
          lang: 'en',
          address: '127.0.0.1',
        },
      );
      const mails = sent.filter((m) => m.to === email);
      assert.equal(mails.length, 2);
      assert.match(mails[1]!.subject, /tried to sign up/);
      const users = await h.db.selectFrom('users').select('id').where('email', '=', email).execute();
      assert.equal(users.length, 1);
      const hash = (
        await h.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()
      ).password_hash;
      assert.match(hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('a password must be 10 characters or more, not the address, and hard to guess (zxcvbn score 3 or more)', () => {
      const email = 'owner@example.com';
      for (const weak of ['short', 'password123456', 'qwertyuiop12', 'owner@example.com', 'Example Shop 2024']) {
        assert.throws(
          () => checkPassword(weak, email, ['Example Shop']),
          (e: AccountError) => e.code === 'weak_password',
          weak,
        );
      }
      for (const strong of [PASSWORD, 'correct horse battery staple'])
        assert.doesNotThrow(() => checkPassword(strong, email, ['Example Shop']), strong);
    });

    it('sign-in is throttled per address too: past the limit, every account from that address gets the generic error', async () => {
      const email = await confirmedUser();
      const address = `203.0.113.${Math.floor(Math.random() * 250)}`; // a documentation address: only a label here, no traffic
      for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i += 1) {
        await assert.rejects(
          checkCredentials(h.db, { email: `guess-${i}-${randomUUID()}@example.com`, password: 'nope', address }),
          AccountError,
        );
      }
      await assert.rejects(
        checkCredentials(h.db, { email, password: PASSWORD, address }),
        (e: AccountError) => e.code === 'invalid_credentials',
      );
      const user = await checkCredentials(h.db, { email, password: PASSWORD, address: '198.51.100.1' });
      assert.equal(user.email, email);
    });

    it('a session ends after 30 idle minutes, and 12 hours after sign-in however active', async () => {
      const email = await confirmedUser();
      const user = await checkCredentials(h.db, { email, password: PASSWORD, address: '198.51.100.2' });
      const idle = await startSession(h.db, h.config, user.userId);
      const aged = await startSession(h.db, h.config, user.userId);
      assert.equal((await sessionUser(h.db, h.config, idle))?.email, email);
      const now = Date.now();
      await h.db
        .updateTable('user_sessions')
        .set({ last_seen_at: new Date(now - 29 * 60_000) })
        .where('token_hash', '=', sha256(idle))
        .execute();
      assert.equal(
        (await sessionUser(h.db, h.config, idle))?.email,
        email,
        'used 29 minutes ago: still on (and touched)',
      );
      await h.db
        .updateTable('user_sessions')
        .set({ last_seen_at: new Date(now - 31 * 60_000) })
        .where('token_hash', '=', sha256(idle))
        .execute();
      assert.equal(await sessionUser(h.db, h.config, idle), undefined, 'idle 31 minutes: ended');
      await h.db
        .updateTable('user_sessions')
        .set({ expires_at: new Date(now - 1) })
        .where('token_hash', '=', sha256(aged))
        .execute();
      assert.equal(await sessionUser(h.db, h.config, aged), undefined, 'past 12 hours: ended');
      assert.equal(
        (await h.db.selectFrom('user_sessions').select('user_id').where('user_id', '=', user.userId).execute()).length,
        0,
        'ended sessions are deleted',
      );
    });
  });
});
