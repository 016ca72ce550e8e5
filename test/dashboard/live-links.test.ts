/**
 * Live payment links only for merchants approved for live mode (docs/SECURITY.md, "Live payment links";
 * issue 42, item 1), in Chromium through the dashboard: a fresh sign-up cannot make a live link and a
 * live link of a merchant that is not live starts no payment; an approved merchant makes one only with
 * two-step sign-in and a recent second factor (the step-up, as for live keys); when the operator takes
 * live mode away, the link starts nothing more and a payment it already started gets no bank token.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { secretBox } from '../../src/accounts/secret-box.ts';
import { slugFromBytes, SLUG_LENGTH } from '../../src/domain/payment-link.ts';
import { dashboardBrowser, signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';
import { SECRETS_KEY } from '../support/dashboard-security.ts';
import { getHarness, LIVE_BANK, type Harness } from '../support/harness.ts';
import { goLive } from '../support/live.ts';

describe('dashboard: live payment links need live mode and a step-up', function () {
  this.timeout(240_000);
  let h: Harness;
  // A live PSP (the simulator standing in) so that a live link's payment could reach a bank page at all.
  const dashboard = dashboardBrowser({ DASHBOARD_SECRETS_KEY: SECRETS_KEY, ...LIVE_BANK() });
  before(async () => {
    h = await getHarness();
  });

  const merchantOf = (email: string) =>
    h.db.selectFrom('users').select(['merchant_id', 'id']).where('email', '=', email).executeTakeFirstOrThrow();
  const liveLinksOf = (merchantId: string) =>
    h.db
      .selectFrom('payment_links')
      .select(['id', 'slug'])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', 'live')
      .execute();
  const paymentsOfLink = (linkId: string) =>
    h.db.selectFrom('payments').select(['id', 'status', 'psp']).where('payment_link_id', '=', linkId).execute();

  /** The live links form filled and sent; answers the status of the answer to the POST. */
  const submitLiveLink = async (page: Page, title: string): Promise<number> => {
    await page.goto(`${dashboard.base}/dashboard/links?mode=live`);
    await page.fill('#link-title-input', title);
    await page.fill('#link-amount-input', '1000000');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/dashboard/links')),
      page.click('#create-link'),
    ]);
    return answer.status();
  };

  /** A customer on the link's page presses Continue; answers the status of the answer to the POST. */
  const customerStarts = async (slug: string): Promise<{ status: number; page: Page }> => {
    const { page } = await dashboard.phone();
    const opened = await page.goto(`${dashboard.base}/l/${slug}?lang=en`);
    assert.equal(opened?.status(), 200);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(`/l/${slug}`)),
      page.click('#link-pay'),
    ]);
    return { status: answer.status(), page };
  };

  it('a fresh sign-up makes no live link and takes no live payment; an approved merchant needs 2FA and a step-up; withdrawn live mode stops the link', async () => {
    const { page } = await dashboard.phone();
    const email = await signUpInBrowser(page, dashboard, 'en', 'Phishing attempt');
    await signInInBrowser(page, dashboard.base, email);
    const { merchant_id: merchantId, id: userId } = await merchantOf(email);

    // 1. Not approved for live mode: the form is refused and nothing is made.
    assert.equal(await submitLiveLink(page, 'Gift card'), 409);
    assert.ok(await page.locator('#links-error').isVisible(), 'the page says why');
    assert.deepEqual(await liveLinksOf(merchantId), []);

    // 2. A live link this merchant holds anyway (one made before the rule): its page starts no payment.
    const linkId = randomUUID();
    const slug = slugFromBytes(randomBytes(SLUG_LENGTH));
    await h.db
      .insertInto('payment_links')
      .values({
        id: linkId,
        merchant_id: merchantId,
        mode: 'live',
        slug,
        title: 'Old live link',
        description: '',
        amount: 1_000_000,
        min_amount: null,
        max_amount: null,
        collect: '{}',
        expires_at: null,
        max_payments: null,
        active: 1,
        created_at: new Date(),
      })
      .execute();
    const refused = await customerStarts(slug);
    assert.equal(refused.status, 403);
    assert.deepEqual(await paymentsOfLink(linkId), [], 'no live payment started');

    // 3. Approved by the operator, but a password-only session without two-step sign-in: refused, nothing made.
    await goLive(merchantId);
    assert.equal(await submitLiveLink(page, 'Gift card'), 403);
    assert.equal((await liveLinksOf(merchantId)).length, 1, 'only the old link');

    // 4. Two-step sign-in on, but this session proved no second factor: the step-up page first, then the form again.
    const secret = new Secret({ size: 20 }).base32;
    await h.db
      .updateTable('users')
      .set({ totp_secret: secretBox(SECRETS_KEY).seal(secret, userId), totp_enabled_at: new Date() })
      .where('id', '=', userId)
      .execute();
    await page.goto(`${dashboard.base}/dashboard/links?mode=live`);
    await page.fill('#link-title-input', 'Gift card');
    await page.fill('#link-amount-input', '1000000');
    await Promise.all([page.waitForURL(/\/dashboard\/step-up\?return=/), page.click('#create-link')]);
    assert.equal((await liveLinksOf(merchantId)).length, 1, 'nothing made before the code');
    await page.fill(
      '#code',
      new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate(),
    );
    await Promise.all([
      page.waitForURL(/\/dashboard\/links\?mode=live$/),
      page.click('#auth-form button[type=submit]'),
    ]);
    assert.equal(await submitLiveLink(page, 'Gift card'), 303);
    const made = (await liveLinksOf(merchantId)).filter((l) => l.id !== linkId);
    assert.equal(made.length, 1, 'the live link is made after the step-up');

    // 5. A customer starts a live payment on it.
    const started = await customerStarts(made[0]!.slug);
    assert.equal(started.status, 303);
    const [payment] = await paymentsOfLink(made[0]!.id);
    assert.ok(payment !== undefined && payment.status === 'created');

    // 6. The operator withdraws live mode: the link starts nothing more, and the started payment gets no bank token.
    await h.db.updateTable('merchants').set({ live_mode: 0 }).where('id', '=', merchantId).execute();
    assert.equal((await customerStarts(made[0]!.slug)).status, 403);
    assert.equal((await paymentsOfLink(made[0]!.id)).length, 1, 'no second payment');
    const [pay] = await Promise.all([
      started.page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(`/pay/${payment.id}`)),
      started.page.click('#pay'),
    ]);
    assert.equal(pay.status(), 403);
    const after = (await paymentsOfLink(made[0]!.id))[0]!;
    assert.deepEqual(
      { status: after.status, psp: after.psp },
      { status: 'created', psp: null },
      'no PSP was asked for a token',
    );
  });
});
