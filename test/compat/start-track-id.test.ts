/**
 * Zibal's `GET /start/{trackId}` walks no payment (docs/SECURITY.md, "Public pages"; issue 42,
 * item 3), on the real stack: it resolves only payments Zibal's /v1/request created, by a trackId of
 * sixteen random digits that is not the payment's tracking code, and it is counted per client address.
 */
import assert from 'node:assert/strict';
import { paymentIdOfAuthority } from '../../src/domain/compat-protocols.ts';
import { compatMerchant } from '../support/compat.ts';
import { apiWith, getHarness, type Harness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { createdPayment } from '../support/payments.ts';

const start = (base: string, trackId: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/start/${trackId}`, { redirect: 'manual', headers });

describe("Zibal's /start/{trackId}: only Zibal's payments, by a trackId nobody can walk", function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => {
    h = await getHarness();
  });

  it("resolves a Zibal payment by its 16-digit trackId, and no payment by a tracking code (the API's, ZarinPal's or Zibal's own)", async () => {
    const m = await compatMerchant();
    const apiMade = await createdPayment(h.baseUrl, m.key);
    assert.equal((await start(h.baseUrl, apiMade.tracking_code)).status, 404, "an API payment's tracking code");

    const zarinpal = await request<{ data: { authority: string } }>(h.baseUrl, 'POST', '/pg/v4/payment/request.json', {
      body: {
        merchant_id: m.zarinpal_merchant_id,
        amount: 20_000,
        description: 'walk',
        callback_url: 'http://localhost:8000/back',
      },
    });
    const zarinpalRow = await h.db
      .selectFrom('payments')
      .select('tracking_code')
      .where('id', '=', paymentIdOfAuthority(zarinpal.body.data.authority)!)
      .executeTakeFirstOrThrow();
    assert.equal((await start(h.baseUrl, zarinpalRow.tracking_code)).status, 404, "a ZarinPal payment's tracking code");

    const zibal = await request<{ result: number; trackId: number }>(h.baseUrl, 'POST', '/v1/request', {
      body: { merchant: m.zibal_merchant, amount: 20_000, callbackUrl: 'http://localhost:8000/back' },
    });
    assert.equal(zibal.body.result, 100);
    const trackId = String(zibal.body.trackId);
    assert.match(trackId, /^[1-9][0-9]{15}$/, 'sixteen digits');
    assert.ok(Number.isSafeInteger(zibal.body.trackId), 'exact as a JSON number');
    const found = await start(h.baseUrl, trackId);
    assert.equal(found.status, 302);
    const paymentId = /^\/pay\/([0-9a-f-]{36})$/.exec(found.headers.get('location') ?? '')?.[1];
    assert.ok(paymentId !== undefined);
    const zibalRow = await h.db
      .selectFrom('payments')
      .select(['tracking_code', 'created_via'])
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    assert.equal(zibalRow.created_via, 'zibal');
    assert.notEqual(zibalRow.tracking_code, trackId, 'not the tracking code the customer sees');
    assert.equal((await start(h.baseUrl, zibalRow.tracking_code)).status, 404, "a Zibal payment's tracking code");
    // Two Zibal payments' trackIds are not neighbours.
    const next = await request<{ trackId: number }>(h.baseUrl, 'POST', '/v1/request', {
      body: { merchant: m.zibal_merchant, amount: 20_000, callbackUrl: 'http://localhost:8000/back' },
    });
    assert.ok(Math.abs(next.body.trackId - zibal.body.trackId) > 1_000_000, 'random, not sequential');

    // A Zibal payment an API of the version before made during an upgrade (no trackId drawn): its
    // tracking code, the trackId its merchant was given, still leads to it, for /start and for verify.
    const before = await request<{ trackId: number }>(h.baseUrl, 'POST', '/v1/request', {
      body: { merchant: m.zibal_merchant, amount: 20_000, callbackUrl: 'http://localhost:8000/back' },
    });
    const beforeId = /^\/pay\/([0-9a-f-]{36})$/.exec(
      (await start(h.baseUrl, String(before.body.trackId))).headers.get('location') ?? '',
    )![1]!;
    await h.db.updateTable('payments').set({ zibal_track_id: null }).where('id', '=', beforeId).execute();
    const beforeRow = await h.db
      .selectFrom('payments')
      .select('tracking_code')
      .where('id', '=', beforeId)
      .executeTakeFirstOrThrow();
    assert.equal((await start(h.baseUrl, beforeRow.tracking_code)).headers.get('location'), `/pay/${beforeId}`);
    const inquiry = await request<{ result: number; trackId: number }>(h.baseUrl, 'POST', '/v1/inquiry', {
      body: { merchant: m.zibal_merchant, trackId: beforeRow.tracking_code },
    });
    assert.deepEqual(
      { result: inquiry.body.result, trackId: String(inquiry.body.trackId) },
      { result: 100, trackId: beforeRow.tracking_code },
    );
  });

  it('counts lookups per client address: past the limit 429, even for a good trackId; another address is served', async () => {
    const base = await apiWith({ TRUSTED_PROXIES: '127.0.0.1', PAGE_ACTIONS_PER_CLIENT_PER_MINUTE: '3' });
    const m = await compatMerchant();
    const zibal = await request<{ trackId: number }>(base, 'POST', '/v1/request', {
      body: { merchant: m.zibal_merchant, amount: 20_000, callbackUrl: 'http://localhost:8000/back' },
    });
    const walker = { 'x-forwarded-for': `192.0.2.${1 + Math.floor(Math.random() * 120)}` };
    const customer = { 'x-forwarded-for': `192.0.2.${130 + Math.floor(Math.random() * 120)}` };
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 20_000) await new Promise((r) => setTimeout(r, left + 100));
    for (const guess of ['100000000000001', '100000000000002', '100000000000003'])
      assert.equal((await start(base, guess, walker)).status, 404);
    const limited = await start(base, String(zibal.body.trackId), walker);
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('retry-after') ?? '', /^[0-9]+$/);
    assert.equal((await start(base, String(zibal.body.trackId), customer)).status, 302);
  });
});
