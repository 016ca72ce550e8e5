/**
 * Split beneficiaries in the dashboard's Settings (docs/PAYMENTS.md#split-settlement): registering one
 * decides where live money goes, so it is a live action (docs/SECURITY.md#live-actions-need-a-recent-second-factor):
 * a password-only session is refused and the owner told, a session without a recent second factor is sent
 * to the step-up page; after it, registered pending, in both languages, CSRF-guarded and audited.
 */
import assert from 'node:assert/strict';
import { secretBox } from '../../src/accounts/secret-box.ts';
import { enableTwoFactor, pendingTotpSecret } from '../../src/accounts/two-factor.ts';
import { Secret, TOTP } from 'otpauth';
import { getHarness, type Harness } from '../support/harness.ts';
import { dashboardBrowser, signInInBrowser, signUpInBrowser, type Lang } from '../support/dashboard.ts';
import { SECRETS_KEY } from '../support/dashboard-security.ts';
import { shebaFor } from '../support/sheba.ts';

describe('dashboard: split beneficiaries', function () {
  this.timeout(180_000);
  let h: Harness;
  const dashboard = dashboardBrowser({ DASHBOARD_SECRETS_KEY: SECRETS_KEY });
  const box = secretBox(SECRETS_KEY);
  before(async () => {
    h = await getHarness();
  });

  for (const lang of ['fa', 'en'] as const satisfies Lang[]) {
    it(`(${lang}) needs two-step sign-in and a recent second factor, then registers a beneficiary pending the operator's approval; a bad IBAN is refused; a post without its CSRF token changes nothing`, async () => {
      const { page, context } = await dashboard.phone();
      const email = await signUpInBrowser(
        page,
        { base: dashboard.base, mailbox: dashboard.mailbox },
        lang,
        `Split shop ${lang}`,
      );
      await signInInBrowser(page, dashboard.base, email);
      const user = await h.db
        .selectFrom('users')
        .select(['id', 'merchant_id'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const written = async (iban: string) =>
        (await h.db.selectFrom('beneficiaries').select('id').where('iban', '=', iban).execute()).length;
      await page.goto(`${dashboard.base}/dashboard/settings`);
      assert.equal(await page.locator('#no-beneficiaries').count(), 1);

      // A password alone (a stolen one) does not name where live money goes: refused, nothing written, recorded.
      const stolen = shebaFor(Date.now() + 17);
      await page.fill('#beneficiary-iban', stolen);
      await page.fill('#beneficiary-name', 'Mule');
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/dashboard/settings/beneficiaries')),
        page.click('#beneficiary-form button[type=submit]'),
      ]);
      assert.equal(refused.status(), 403);
      assert.equal(await written(stolen), 0);
      const refusals = await h.db
        .selectFrom('audit_log')
        .select('detail')
        .where('merchant_id', '=', user.merchant_id)
        .where('action', '=', 'live_action_refused')
        .execute();
      assert.deepEqual(
        refusals.map((r) => r.detail),
        ['split_beneficiary'],
      );

      // Two-step sign-in on, but no second factor proved in this session: the step-up page first, nothing written.
      const totp = new TOTP({
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
        secret: Secret.fromBase32(await pendingTotpSecret({ db: h.db, box }, user.id)),
      });
      const [recovery] = await enableTwoFactor({ db: h.db, box }, user.id, totp.generate());
      await page.goto(`${dashboard.base}/dashboard/settings`);
      await page.fill('#beneficiary-iban', stolen);
      await page.fill('#beneficiary-name', 'Mule');
      await Promise.all([
        page.waitForURL(/\/dashboard\/step-up\?return=/),
        page.click('#beneficiary-form button[type=submit]'),
      ]);
      assert.equal(await written(stolen), 0);
      await page.fill('#code', recovery!);
      await Promise.all([page.waitForURL(/\/dashboard\/settings$/), page.click('#auth-form button[type=submit]')]);

      await page.fill('#beneficiary-iban', 'IR000000000000000000000000');
      await page.fill('#beneficiary-name', 'Agency');
      const invalid = page.waitForResponse((r) => r.url().endsWith('/dashboard/settings/beneficiaries'));
      await page.click('#beneficiary-form button[type=submit]');
      assert.equal((await invalid).status(), 422);
      assert.equal(await page.locator('#beneficiary-error').count(), 1);

      const iban = shebaFor(Date.now());
      const token = await page.locator('#beneficiary-form input[name=csrf_token]').inputValue();
      const noToken = await context.request.post(`${dashboard.base}/dashboard/settings/beneficiaries`, {
        form: { iban, name: 'Agency' },
        headers: { origin: dashboard.base },
        maxRedirects: 0,
      });
      assert.equal(noToken.status(), 403);
      assert.equal(await written(iban), 0);
      assert.ok(token.length > 0);

      // Typed in groups of four, as printed on a card: normalised.
      await page.fill('#beneficiary-iban', iban.replace(/(.{4})/g, '$1 ').trim());
      await page.fill('#beneficiary-name', 'Agency');
      await page.click('#beneficiary-form button[type=submit]');
      await page.waitForURL(/done=beneficiary/);
      const row = page.locator('#beneficiaries li').first();
      assert.equal(await row.getAttribute('data-status'), 'pending');
      assert.equal(await row.locator('bdi').innerText(), iban);
      const stored = await h.db
        .selectFrom('beneficiaries')
        .selectAll()
        .where('iban', '=', iban)
        .executeTakeFirstOrThrow();
      assert.deepEqual([stored.status, stored.name], ['pending', 'Agency']);
      const audited = await h.db
        .selectFrom('audit_log')
        .select(['detail'])
        .where('merchant_id', '=', stored.merchant_id)
        .where('action', '=', 'beneficiary_registered')
        .execute();
      assert.deepEqual(
        audited.map((a) => a.detail),
        [iban],
      );
    });
  }
});
