/**
 * A domain is a live callback domain only once the merchant proved it is
 * theirs: the dashboard shows a token, the merchant publishes it under
 * /.well-known/ on the domain, presses Verify, and the gateway fetches the file
 * (here from a real HTTP server on loopback, DOMAIN_VERIFICATION_URL pointing
 * at it). Until then a live payment returning there is refused with 422
 * callback_domain_unverified and nothing is written; a test payment is taken
 * and its result page says the domain is unverified, in both languages.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { createKey } from '../../src/merchants/keys.ts';
import { addDomain } from '../../src/merchants/onboarding.ts';
import { dashboardBrowser, signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';
import { getHarness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { goLive } from '../support/live.ts';

describe('merchant domains are verified before live payments return to them', function () {
  this.timeout(180_000);
  /** What the merchant's site publishes, by domain. */
  const published = new Map<string, string>();
  const settings: Record<string, string> = {};
  let site: Server;
  before(async () => {
    site = createServer((req, res) => {
      const match = /^\/([^/]+)\/\.well-known\/dargah-domain-verification\.txt$/.exec(req.url ?? '');
      const body = match === null ? undefined : published.get(match[1]!);
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' }).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    settings.DOMAIN_VERIFICATION_URL = `http://127.0.0.1:${(site.address() as AddressInfo).port}/{domain}/.well-known/dargah-domain-verification.txt`;
  });
  after(() => new Promise<void>((resolve) => site.close(() => resolve())));
  // Its API server starts in a later hook, with the address above.
  const dashboard = dashboardBrowser(settings);

  it('refuses a live payment to an unverified domain and writes nothing; the merchant verifies it from the settings page; then the payment is taken', async () => {
    const h = await getHarness();
    const { page } = await dashboard.phone();
    const email = await signUpInBrowser(page, dashboard, 'en', `Domains ${randomUUID().slice(0, 6)}`);
    await signInInBrowser(page, dashboard.base, email);
    const merchantId = (
      await h.db.selectFrom('users').select('merchant_id').where('email', '=', email).executeTakeFirstOrThrow()
    ).merchant_id;
    const liveKey = await goLive(merchantId);
    const domain = `shop-${randomUUID().slice(0, 8)}.example`;
    await page.goto(`${dashboard.base}/dashboard/settings?lang=en`);
    await page.fill('#domain', domain);
    await Promise.all([page.waitForURL(/done=added/), page.click('#domain-form button[type=submit]')]);

    const live = client(dashboard.base, liveKey);
    const request = {
      amount: 100_000,
      callback_url: `https://${domain}/return`,
      merchant_reference: `unverified-${domain}`,
    };
    const refused = await live.post<{ code: string; message: string; request_id: string }>('/payments', request);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'callback_domain_unverified');
    assert.match(refused.body.message, /not verified/);
    assert.match(refused.body.request_id, /^req_/);
    const written = await h.db
      .selectFrom('payments')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('merchant_reference', '=', request.merchant_reference)
      .execute();
    assert.deepEqual(written, [], 'no payment stored');

    const item = page.locator(`#domains li[data-domain="${domain}"]`);
    assert.equal(await item.getAttribute('data-verified'), 'false');
    const token = await item.locator('.verification-token').innerText();
    assert.match(token, /^dargah-domain-verification=[A-Za-z0-9_-]{32}$/);
    const verify = async () => {
      const [response] = await Promise.all([
        page.waitForResponse(
          (r) => r.url().endsWith('/dashboard/settings/domains/verify') && r.request().method() === 'POST',
        ),
        page.locator(`#domains li[data-domain="${domain}"] .verify-domain-form button`).click(),
      ]);
      await page.waitForLoadState();
      return response.status();
    };
    assert.equal(await verify(), 422, 'no file yet');
    assert.match(await page.locator('#form-error').innerText(), /not found at that address/);
    published.set(domain, 'dargah-domain-verification=someone-elses-token');
    assert.equal(await verify(), 422, 'another token');
    assert.match(await page.locator('#form-error').innerText(), /not this domain's code/);
    assert.equal((await live.post('/payments', request)).status, 422, 'still unverified');

    published.set(domain, `${token}\n`);
    assert.equal(await verify(), 303, 'verified: back to the settings page');
    assert.match(page.url(), /done=verified/);
    assert.equal(await page.locator(`#domains li[data-domain="${domain}"]`).getAttribute('data-verified'), 'true');
    const taken = await live.post<{ payment: Payment }>('/payments', request);
    assert.equal(taken.status, 201, taken.text);
  });

  it('takes a test payment to an unverified domain, and its result page says so in both languages (and not for a verified one)', async () => {
    const h = await getHarness();
    const { page } = await dashboard.phone();
    const email = await signUpInBrowser(page, dashboard, 'fa', `Test domains ${randomUUID().slice(0, 6)}`);
    const merchantId = (
      await h.db.selectFrom('users').select('merchant_id').where('email', '=', email).executeTakeFirstOrThrow()
    ).merchant_id;
    const domain = `test-${randomUUID().slice(0, 8)}.example`;
    const deps = { db: h.db, temporal: h.temporal.client, config: h.config };
    await addDomain(deps, merchantId, domain);
    await addDomain(deps, merchantId, 'localhost');
    await h.db
      .updateTable('merchant_domains')
      .set({ verified_at: new Date() })
      .where('merchant_id', '=', merchantId)
      .where('domain', '=', 'localhost')
      .execute();
    const { key } = await createKey(h.db, merchantId, 'test');
    const test = client(dashboard.base, key);

    const created = await test.post<{ payment: Payment }>('/payments', {
      amount: 50_000,
      callback_url: `https://${domain}/return`,
      merchant_reference: 'unverified-test',
    });
    assert.equal(created.status, 201, created.text);
    const outcome = await test.post(`/test_helpers/payments/${created.body.payment.id}/bank_outcome`, {
      outcome: 'success',
    });
    assert.equal(outcome.status, 200, outcome.text);
    for (const [lang, words] of [
      ['en', /Test payment: the merchant has not verified that it owns the domain you return to:/],
      ['fa', /پذیرنده مالکیت دامنه‌ی بازگشت را هنوز تأیید نکرده است/],
    ] as const) {
      await page.goto(`${dashboard.base}/pay/${created.body.payment.id}/result${lang === 'en' ? '?lang=en' : ''}`);
      const notice = page.locator('#unverified-domain');
      assert.match(await notice.innerText(), words);
      assert.match(await notice.innerText(), new RegExp(domain.replace(/\./g, '\\.')));
    }

    const onVerified = await test.post<{ payment: Payment }>('/payments', {
      amount: 50_000,
      callback_url: 'http://localhost:8000/return',
      merchant_reference: 'verified-test',
    });
    assert.equal(onVerified.status, 201, onVerified.text);
    await page.goto(`${dashboard.base}/pay/${onVerified.body.payment.id}/result?lang=en`);
    assert.equal(await page.locator('#unverified-domain').count(), 0);
  });
});
