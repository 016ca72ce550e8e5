/**
 * The capture is answered once (docs/SECURITY.md, "Compatible protocols"; issue 42, item 5), on the
 * real stack: several verifies of one paid payment at the same instant on the ZarinPal or Zibal
 * protocol get exactly one 100; every other answers 101 (Zibal: 201), as a later one does, so a
 * plugin that ships the order on 100 ships it once; the payment is verified once in the ledger (its check).
 */
import assert from 'node:assert/strict';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { paymentIdOfAuthority } from '../../src/domain/compat-protocols.ts';
import { compatMerchant } from '../support/compat.ts';
import { getHarness, type Harness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { payAtBank } from '../support/payments.ts';

const AT_ONCE = 4;

describe('concurrent verifies on the compatible protocols answer the capture once', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await getHarness();
  });

  it(`ZarinPal: ${AT_ONCE} verify.json at once on one paid payment → one 100, the rest 101; a later one 101`, async () => {
    const m = await compatMerchant();
    const created = await request<{ data: { authority: string } }>(h.baseUrl, 'POST', '/pg/v4/payment/request.json', {
      body: {
        merchant_id: m.zarinpal_merchant_id,
        amount: 30_000,
        description: 'once',
        callback_url: 'http://localhost:8000/back',
      },
    });
    const authority = created.body.data.authority;
    await payAtBank(h.baseUrl, m.key, { id: paymentIdOfAuthority(authority)! } as Payment);
    const verify = () =>
      request<{ data: { code?: number } }>(h.baseUrl, 'POST', '/pg/v4/payment/verify.json', {
        body: { merchant_id: m.zarinpal_merchant_id, amount: 30_000, authority },
      });
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, verify));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array<number>(AT_ONCE).fill(200),
    );
    assert.deepEqual(answers.map((a) => a.body.data.code).sort(), [100, ...Array<number>(AT_ONCE - 1).fill(101)]);
    assert.equal((await verify()).body.data.code, 101);
    await assertLedgerBalanced(h.db, 'after ZarinPal verifies at once', { merchantIds: [m.merchantId] });
  });

  it(`Zibal: ${AT_ONCE} /v1/verify at once on one paid payment → one 100, the rest 201; a later one 201`, async () => {
    const m = await compatMerchant();
    const created = await request<{ trackId: number }>(h.baseUrl, 'POST', '/v1/request', {
      body: { merchant: m.zibal_merchant, amount: 30_000, callbackUrl: 'http://localhost:8000/back' },
    });
    const trackId = created.body.trackId;
    const start = await fetch(`${h.baseUrl}/start/${trackId}`, { redirect: 'manual' });
    const paymentId = /^\/pay\/([0-9a-f-]{36})$/.exec(start.headers.get('location') ?? '')?.[1];
    assert.ok(paymentId !== undefined);
    await payAtBank(h.baseUrl, m.key, { id: paymentId } as Payment);
    const verify = () =>
      request<{ result: number }>(h.baseUrl, 'POST', '/v1/verify', { body: { merchant: m.zibal_merchant, trackId } });
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, verify));
    assert.deepEqual(answers.map((a) => a.body.result).sort(), [100, ...Array<number>(AT_ONCE - 1).fill(201)]);
    assert.equal((await verify()).body.result, 201);
    await assertLedgerBalanced(h.db, 'after Zibal verifies at once', { merchantIds: [m.merchantId] });
  });
});
