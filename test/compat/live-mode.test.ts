/**
 * Live and test apart, as with API keys: a live credential makes live payments (authority `A…`),
 * on verified https domains only, and a test credential of the same merchant does not see them.
 */
import assert from 'node:assert/strict';
import { getHarness, liveBankApi } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { LIVE_DOMAIN, liveMerchant } from '../support/live.ts';
import { issueCompatCredentials } from '../../src/merchants/compat-credentials.ts';
import { paymentIdOfAuthority } from '../../src/domain/compat-protocols.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

type ZarinpalAnswer = { data: { code?: number; authority?: string; status?: string }; errors: { code: number } | [] };

describe('the compatible protocols in live mode', () => {
  it("a live merchant_id makes live payments on its verified domains; the test one does not see them, nor Zibal's test merchant", async () => {
    const { db } = await getHarness();
    const baseUrl = await liveBankApi();
    const m = await liveMerchant();
    const live = await issueCompatCredentials(db, m.merchantId, 'live');
    const test = await issueCompatCredentials(db, m.merchantId, 'test');
    const zp = (path: string, body: unknown) =>
      request<ZarinpalAnswer>(baseUrl, 'POST', `/pg/v4/payment/${path}`, { body });
    const body = {
      merchant_id: live.zarinpal_merchant_id,
      amount: 2_000_000,
      description: 'A desk',
      callback_url: `https://${LIVE_DOMAIN}/return`,
    };

    const local = await zp('request.json', { ...body, callback_url: 'http://localhost:8000/return' });
    assert.equal((local.body.errors as { code: number }).code, -9, 'plain http is for test mode only');
    const created = await zp('request.json', body);
    assert.equal(created.body.data.code, 100, JSON.stringify(created.body));
    const authority = created.body.data.authority!;
    assert.match(authority, /^A000/);
    const payment = (
      await client(baseUrl, m.liveKey).get<{ payment: Payment }>(`/payments/${paymentIdOfAuthority(authority)}`)
    ).body.payment;
    assert.deepEqual([payment.mode, payment.created_via, payment.settlement_status], ['live', 'zarinpal', 'pending']);

    assert.equal(
      (await zp('inquiry.json', { merchant_id: live.zarinpal_merchant_id, authority })).body.data.status,
      'IN_BANK',
    );
    assert.equal(
      (
        (await zp('inquiry.json', { merchant_id: test.zarinpal_merchant_id, authority })).body.errors as {
          code: number;
        }
      ).code,
      -54,
    );

    const zibal = await request<{ result: number; trackId: number }>(baseUrl, 'POST', '/v1/request', {
      body: { merchant: live.zibal_merchant, amount: 2_000_000, callbackUrl: `https://${LIVE_DOMAIN}/return` },
    });
    assert.equal(zibal.body.result, 100);
    assert.equal(
      (
        await request<{ result: number }>(baseUrl, 'POST', '/v1/inquiry', {
          body: { merchant: test.zibal_merchant, trackId: zibal.body.trackId },
        })
      ).body.result,
      203,
    );
    assert.equal(
      (
        await request<{ result: number; status: number }>(baseUrl, 'POST', '/v1/inquiry', {
          body: { merchant: live.zibal_merchant, trackId: zibal.body.trackId },
        })
      ).body.status,
      -1,
    );
  });
});
