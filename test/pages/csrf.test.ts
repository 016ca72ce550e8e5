import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { createdPayment } from '../support/payments.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';

/** The bank form's cookie and token as a browser gets them from one API process. */
async function formToken(baseUrl: string, paymentId: string): Promise<{ cookie: string; token: string }> {
  const page = await fetch(`${baseUrl}/pay/${paymentId}`);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1]!;
  return { cookie, token };
}

const postOutcome = (baseUrl: string, paymentId: string, { cookie, token }: { cookie: string; token: string }) =>
  fetch(`${baseUrl}/pay/${paymentId}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: baseUrl },
    body: `action=pay&csrf_token=${encodeURIComponent(token)}`,
  });

describe('hosted pages: CSRF tokens across API processes', () => {
  it('a token from one API process is accepted by another with the same PAGES_CSRF_SECRET, and refused under another secret', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const shared = randomBytes(32).toString('base64url');
    const first = await apiWith({ PAGES_CSRF_SECRET: shared });
    const second = await apiWith({ PAGES_CSRF_SECRET: shared });
    const other = await apiWith({ PAGES_CSRF_SECRET: randomBytes(32).toString('base64url') });
    const payment = await createdPayment(h.baseUrl, key);
    const form = await formToken(first, payment.id);

    assert.equal((await postOutcome(other, payment.id, form)).status, 403);
    const accepted = await postOutcome(second, payment.id, form);
    assert.equal(accepted.status, 303);
    // Accepted: the customer is sent on to the bank's page with the payment's token.
    assert.match(accepted.headers.get('location') ?? '', /\/OnlinePG\/SendToken\?token=[0-9a-f]+$/);
  });

  it('refuses a PAGES_CSRF_SECRET shorter than 32 characters without echoing it', () => {
    assert.throws(
      () => loadConfig({ PAGES_CSRF_SECRET: 'short-secret-value' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes('PAGES_CSRF_SECRET') &&
        !error.message.includes('short-secret-value'),
    );
  });
});
