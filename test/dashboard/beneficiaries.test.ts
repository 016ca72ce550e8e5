/** Split beneficiaries in the dashboard's Settings (docs/PAYMENTS.md#split-settlement): registered pending, in both languages, CSRF-guarded and audited. */
import assert from 'node:assert/strict';
import { getHarness, type Harness } from '../support/harness.ts';
import { dashboardBrowser, signInInBrowser, signUpInBrowser, type Lang } from '../support/dashboard.ts';
import { shebaFor } from '../support/sheba.ts';

describe('dashboard: split beneficiaries', function () {
  this.timeout(180_000);
  let h: Harness;
  const dashboard = dashboardBrowser();
  before(async () => {
    h = await getHarness();
  });

  for (const lang of ['fa', 'en'] as const satisfies Lang[]) {
    it(`(${lang}) registers a beneficiary pending the operator's approval; a bad IBAN is refused; a post without its CSRF token changes nothing`, async () => {
      const { page, context } = await dashboard.phone();
      const email = await signUpInBrowser(page, { base: dashboard.base, mailbox: dashboard.mailbox }, lang, `Split shop ${lang}`);
      await signInInBrowser(page, dashboard.base, email);
      await page.goto(`${dashboard.base}/dashboard/settings`);
      assert.equal(await page.locator('#no-beneficiaries').count(), 1);

      await page.fill('#beneficiary-iban', 'IR000000000000000000000000');
      await page.fill('#beneficiary-name', 'Agency');
      const refused = page.waitForResponse((r) => r.url().endsWith('/dashboard/settings/beneficiaries'));
      await page.click('#beneficiary-form button[type=submit]');
      assert.equal((await refused).status(), 422);
      assert.equal(await page.locator('#beneficiary-error').count(), 1);

      const iban = shebaFor(Date.now());
      const token = await page.locator('#beneficiary-form input[name=csrf_token]').inputValue();
      const noToken = await context.request.post(`${dashboard.base}/dashboard/settings/beneficiaries`, { form: { iban, name: 'Agency' }, headers: { origin: dashboard.base }, maxRedirects: 0 });
      assert.equal(noToken.status(), 403);
      assert.equal((await h.db.selectFrom('beneficiaries').select('id').where('iban', '=', iban).execute()).length, 0);
      assert.ok(token.length > 0);

      // Typed in groups of four, as printed on a card: normalised.
      await page.fill('#beneficiary-iban', iban.replace(/(.{4})/g, '$1 ').trim());
      await page.fill('#beneficiary-name', 'Agency');
      await page.click('#beneficiary-form button[type=submit]');
      await page.waitForURL(/done=beneficiary/);
      const row = page.locator('#beneficiaries li').first();
      assert.equal(await row.getAttribute('data-status'), 'pending');
      assert.equal(await row.locator('bdi').innerText(), iban);
      const stored = await h.db.selectFrom('beneficiaries').selectAll().where('iban', '=', iban).executeTakeFirstOrThrow();
      assert.deepEqual([stored.status, stored.name], ['pending', 'Agency']);
      const audited = await h.db.selectFrom('audit_log').select(['detail']).where('merchant_id', '=', stored.merchant_id).where('action', '=', 'beneficiary_registered').execute();
      assert.deepEqual(audited.map((a) => a.detail), [iban]);
    });
  }
});
