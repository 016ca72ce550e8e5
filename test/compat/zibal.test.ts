/**
 * Zibal's v1 protocol on Dargah's payments, and its `zibal` client library unmodified, its URL
 * module pointed at Dargah (the library reads its addresses from it on every call).
 */
import assert from 'node:assert/strict';
import Zibal from 'zibal';
import zibalUrls from 'zibal/lib/urls.js';
import { getHarness } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { compatMerchant, payThroughStart, startCallbackReceiver, type CallbackReceiver } from '../support/compat.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

type ZibalBody = {
  result: number;
  message: string;
  trackId?: number;
  status?: number;
  amount?: number;
  cardNumber?: string | null;
  refNumber?: string | null;
  orderId?: string;
};

describe("Zibal's v1 protocol on Dargah's payments", () => {
  let baseUrl: string;
  let callback: CallbackReceiver;
  let merchant: Awaited<ReturnType<typeof compatMerchant>>;
  const zb = (path: string, body: unknown) => request<ZibalBody>(baseUrl, 'POST', `/v1/${path}`, { body });
  const paymentCount = async () =>
    Number(
      (
        await (
          await getHarness()
        ).db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('merchant_id', '=', merchant.merchantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
    callback = await startCallbackReceiver();
    merchant = await compatMerchant();
  });
  after(() => callback.close());

  it('the zibal client, unmodified: request → start → the bank → our result page → the callback → verify 100, then 201 (which the client rejects) → inquiry', async () => {
    zibalUrls.requestURL = `${baseUrl}/v1/request`;
    zibalUrls.verifyURL = `${baseUrl}/v1/verify`;
    const zibal = new Zibal({ merchant: merchant.zibal_merchant, callbackUrl: callback.url });
    const created = await zibal.request({
      amount: 180_000,
      orderId: 'order-7',
      mobile: '09121234567',
      description: 'A chair',
    });
    assert.equal(created.success, true, JSON.stringify(created));
    assert.equal(created.result, 100);
    const trackId = created.trackId!;
    assert.equal(typeof trackId, 'number');
    const startUrl = `${baseUrl}${new URL(created.paymentUrl!).pathname}`;
    const paid = await payThroughStart(baseUrl, merchant.key, startUrl);
    const back = await callback.returnWith('trackId', String(trackId));
    assert.deepEqual(
      { success: back.success, orderId: back.orderId, status: back.status },
      { success: '1', orderId: 'order-7', status: '2' },
    );

    const shown = (await client(baseUrl, merchant.key).get<{ payment: Payment }>(`/payments/${paid.id}`)).body.payment;
    assert.equal(shown.created_via, 'zibal');
    assert.equal(shown.amount, 180_000);
    assert.equal((await zb('inquiry', { merchant: merchant.zibal_merchant, trackId })).body.status, 2);

    const verified = await zibal.verify({ trackId: back.trackId! });
    assert.equal(verified.result, 100);
    assert.equal(verified.amount, 180_000);
    assert.equal(verified.refNumber, paid.rrn);
    assert.equal(verified.cardNumber, paid.card_pan);
    await assert.rejects(
      zibal.verify({ trackId }),
      (answer: { result?: number; success?: boolean }) => answer.result === 201 && answer.success === false,
    );
    const inquiry = await zb('inquiry', { merchant: merchant.zibal_merchant, trackId });
    assert.equal(inquiry.body.result, 100);
    assert.equal(inquiry.body.status, 1);
    assert.equal(
      (await client(baseUrl, merchant.key).get<{ payment: Payment }>(`/payments/${paid.id}`)).body.payment.status,
      'verified',
    );
  });

  it('a payment not paid is 202 at verify; a canceled one returns with success=0 and status 3', async () => {
    const created = await zb('request', {
      merchant: merchant.zibal_merchant,
      amount: 50_000,
      callbackUrl: callback.url,
    });
    assert.equal(created.body.result, 100);
    const notPaid = await zb('verify', { merchant: merchant.zibal_merchant, trackId: created.body.trackId });
    assert.deepEqual([notPaid.status, notPaid.body.result], [200, 202]);
    assert.equal(
      (await zb('inquiry', { merchant: merchant.zibal_merchant, trackId: String(created.body.trackId) })).body.status,
      -1,
    );
  });

  it('refusals write nothing: 102 merchant, 105/113 amount, 106 callbackUrl, 203 trackId, -1 a body it cannot read', async () => {
    const before = await paymentCount();
    const base = { merchant: merchant.zibal_merchant, amount: 50_000, callbackUrl: callback.url };
    const codeOf = async (path: string, body: unknown) => {
      const res = await zb(path, body);
      assert.equal(res.status, 200, res.text);
      return res.body.result;
    };
    assert.equal(await codeOf('request', { ...base, merchant: 'nobody' }), 102);
    assert.equal(await codeOf('request', { ...base, merchant: undefined }), 102);
    assert.equal(await codeOf('request', { ...base, amount: 100 }), 105);
    assert.equal(await codeOf('request', { ...base, amount: 'many' }), 105);
    assert.equal(await codeOf('request', { ...base, amount: 10_000_000_000 }), 113);
    assert.equal(await codeOf('request', { ...base, callbackUrl: 'https://evil.example/back' }), 106);
    assert.equal(await codeOf('request', { ...base, callbackUrl: 'not a url' }), 106);
    assert.equal(await codeOf('request', { ...base, mobile: '12345' }), -1);
    assert.equal(await codeOf('verify', { merchant: merchant.zibal_merchant, trackId: 123 }), 203);
    const other = await compatMerchant();
    const theirs = await zb('request', { ...base, merchant: other.zibal_merchant });
    assert.equal(
      await codeOf('inquiry', { merchant: merchant.zibal_merchant, trackId: theirs.body.trackId }),
      203,
      "another merchant's payment does not exist for this one",
    );
    assert.equal(
      await codeOf('request', { merchant: merchant.zarinpal_merchant_id, amount: 50_000, callbackUrl: callback.url }),
      102,
      'a ZarinPal merchant_id is not a Zibal merchant',
    );
    const broken = await request<ZibalBody>(baseUrl, 'POST', '/v1/request', {
      rawBody: '{"merchant":',
      headers: { 'content-type': 'application/json' },
    });
    assert.deepEqual([broken.status, broken.body.result], [200, -1]);
    assert.equal(await paymentCount(), before);
    assert.equal((await fetch(`${baseUrl}/start/123`, { redirect: 'manual' })).status, 404);
  });
});
