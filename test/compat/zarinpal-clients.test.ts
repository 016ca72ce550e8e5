/**
 * ZarinPal's own client libraries, unmodified, against the real stack: each is pointed at Dargah
 * the way its documentation or its own tests allow (zarinpal-checkout: its createWithOptions
 * httpClient hook, rewriting only the host; zarinpal-node-sdk: its HTTP client's base URL), and
 * the customer's StartPay address gets Dargah's host, as a merchant's configuration would.
 */
import assert from 'node:assert/strict';
import ZarinpalCheckout from 'zarinpal-checkout';
import ZarinPalSdk from 'zarinpal-node-sdk';
import { getHarness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { waitForStatus } from '../support/payments.ts';
import { compatMerchant, payThroughStart, startCallbackReceiver, type CallbackReceiver } from '../support/compat.ts';

// A CommonJS package whose module.exports is the class, with the class again as `default`: the one TypeScript's types reach.
const ZarinPal = ZarinPalSdk.default;

/** The one change a merchant makes: ZarinPal's host becomes Dargah's, the path stays. */
const onDargah = (url: string, baseUrl: string) => {
  const { pathname, search } = new URL(url);
  return `${baseUrl}${pathname}${search}`;
};

describe("ZarinPal's client libraries, unmodified, on Dargah", () => {
  let baseUrl: string;
  let callback: CallbackReceiver;
  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
    callback = await startCallbackReceiver();
  });
  after(() => callback.close());

  it('zarinpal-checkout (IRT by default): request → StartPay → callback → unVerified → verify 100, then 101 → inquiry → reverse', async () => {
    const merchant = await compatMerchant();
    // The library's documented hook: an HTTP client of the merchant's own, here one that sends its request to Dargah's host.
    const httpClient = {
      async request<T>(config: { url: string; method: string; data?: unknown }): Promise<{ data: T }> {
        const res = await fetch(onDargah(config.url, baseUrl), {
          method: config.method,
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(config.data),
        });
        const data = (await res.json()) as T;
        if (!res.ok) throw Object.assign(new Error(`Request failed with status ${res.status}`), { response: { data } });
        return { data };
      },
    };
    const zarinpal = ZarinpalCheckout.createWithOptions(merchant.zarinpal_merchant_id, { sandbox: true, httpClient });

    const created = await zarinpal.PaymentRequest({
      Amount: 15_000,
      CallbackURL: callback.url,
      Description: 'Two notebooks',
      Email: 'buyer@example.com',
      Mobile: '09121234567',
    });
    assert.equal(created.status, 100);
    const paid = await payThroughStart(baseUrl, merchant.key, onDargah(created.url, baseUrl));
    assert.equal(paid.amount, 150_000, 'IRT: 15,000 toman are 150,000 rials');
    assert.equal((await callback.returnWith('Authority', created.authority)).Status, 'OK');

    const unverified = await zarinpal.UnverifiedTransactions();
    assert.equal(unverified.code, 100);
    assert.ok(
      (unverified.authorities as unknown as { authority: string; amount: number }[]).some(
        (a) => a.authority === created.authority && a.amount === 15_000,
      ),
    );

    await assert.rejects(
      zarinpal.PaymentVerification({ Amount: 150_000, Authority: created.authority }),
      (error: { errors?: { code: number } }) => error.errors?.code === -50,
    );
    const verified = await zarinpal.PaymentVerification({ Amount: 15_000, Authority: created.authority });
    assert.equal(verified.status, 100);
    // SEP's RefNum is no number (docs/psps/sep.md): ZarinPal's numeric ref_id is the payment's RRN.
    assert.equal(verified.refId, Number(paid.rrn));
    assert.equal(verified.cardPan, paid.card_pan);
    assert.equal((await zarinpal.PaymentVerification({ Amount: 15_000, Authority: created.authority })).status, 101);
    assert.ok(
      !((await zarinpal.UnverifiedTransactions()).authorities as unknown as { authority: string }[]).some(
        (a) => a.authority === created.authority,
      ),
    );

    // zarinpal-checkout has no inquiry or reverse: the merchant's code calls them as ZarinPal documents them, on the same host.
    const zp = (path: string) =>
      request<{ data: { code: number; status?: string } }>(baseUrl, 'POST', `/pg/v4/payment/${path}`, {
        body: { merchant_id: merchant.zarinpal_merchant_id, authority: created.authority },
      });
    assert.equal((await zp('inquiry.json')).body.data.status, 'VERIFIED');
    assert.equal((await zp('reverse.json')).body.data.code, 100);
    await waitForStatus(baseUrl, merchant.key, paid.id, 'refunded');
    assert.equal((await zp('inquiry.json')).body.data.status, 'REVERSED');
  });

  it('zarinpal-node-sdk (its HTTP client at Dargah): payments.create → StartPay → callback → verify 100, then 101 → unverified → inquiry → reverse', async () => {
    const merchant = await compatMerchant();
    const zarinpal = new ZarinPal({ merchantId: merchant.zarinpal_merchant_id, sandbox: true });
    // As the library's own test suite reaches its HTTP client (zarinpal["httpClient"]), its base URL is pointed at Dargah.
    (zarinpal as unknown as { httpClient: { defaults: { baseURL: string } } }).httpClient.defaults.baseURL = baseUrl;

    const created = (await zarinpal.payments.create({
      amount: 120_000,
      callback_url: callback.url,
      description: 'A lamp',
      mobile: '09121234567',
      email: 'buyer@example.com',
    })) as { data: { code: number; authority: string } };
    assert.equal(created.data.code, 100);
    const authority = created.data.authority;
    const paid = await payThroughStart(
      baseUrl,
      merchant.key,
      onDargah(zarinpal.payments.getRedirectUrl(authority), baseUrl),
    );
    assert.equal(paid.amount, 120_000, 'no currency: rials');
    assert.equal((await callback.returnWith('Authority', authority)).Status, 'OK');

    const listed = (await zarinpal.unverified.list()) as { data: { authorities: { authority: string }[] } };
    assert.ok(listed.data.authorities.some((a) => a.authority === authority));
    const inquiryPaid = (await zarinpal.inquiries.inquire({ authority })) as { data: { status: string } };
    assert.equal(inquiryPaid.data.status, 'PAID');

    const first = (await zarinpal.verifications.verify({ amount: 120_000, authority })) as {
      data: { code: number; ref_id: number };
    };
    assert.equal(first.data.code, 100);
    const again = (await zarinpal.verifications.verify({ amount: 120_000, authority })) as {
      data: { code: number; ref_id: number };
    };
    assert.equal(again.data.code, 101);
    assert.equal(again.data.ref_id, first.data.ref_id);
    const inquiryVerified = (await zarinpal.inquiries.inquire({ authority })) as { data: { status: string } };
    assert.equal(inquiryVerified.data.status, 'VERIFIED');

    const reversed = (await zarinpal.reversals.reverse({ authority })) as { data: { code: number } };
    assert.equal(reversed.data.code, 100);
    await waitForStatus(baseUrl, merchant.key, paid.id, 'refunded');

    // A refusal reaches the library as ZarinPal's would: an HTTP error whose body names the code.
    await assert.rejects(
      zarinpal.inquiries.inquire({ authority: `S${'1'.repeat(35)}` }),
      (error: { response?: { status: number; data: { errors: { code: number } } } }) => {
        return error.response?.status === 404 && error.response.data.errors.code === -54;
      },
    );
  });
});
