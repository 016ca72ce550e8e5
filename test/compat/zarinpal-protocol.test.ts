import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { apiWith, apiWithDeadTemporal, getHarness, testConfig } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { cli } from '../support/cli.ts';
import { compatMerchant, payThroughStart, startCallbackReceiver, type CallbackReceiver } from '../support/compat.ts';
import { forPayment, merchantWithReceiver } from '../support/webhooks.ts';
import { waitForStatus } from '../support/payments.ts';
import { issueCompatCredentials, revokeCompatCredentials } from '../../src/merchants/compat-credentials.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';

type ZarinpalAnswer = {
  data: Record<string, unknown> & { code?: number };
  errors: { code: number; message: string; validations: Record<string, string>[] } | [];
};

describe("ZarinPal's v4 protocol on Dargah's payments", () => {
  let baseUrl: string;
  let callback: CallbackReceiver;
  let merchant: Awaited<ReturnType<typeof compatMerchant>>;
  const zp = (path: string, body: unknown) =>
    request<ZarinpalAnswer>(baseUrl, 'POST', `/pg/v4/payment/${path}`, { body });
  const paymentCount = async (merchantId: string) =>
    Number(
      (
        await (
          await getHarness()
        ).db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('merchant_id', '=', merchantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    baseUrl = (await getHarness()).baseUrl;
    callback = await startCallbackReceiver();
    merchant = await compatMerchant();
  });
  after(() => callback.close());

  const requestBody = (overrides: Record<string, unknown> = {}) => ({
    merchant_id: merchant.zarinpal_merchant_id,
    amount: 150_000,
    description: 'Two notebooks',
    callback_url: callback.url,
    metadata: { mobile: '09121234567', email: 'buyer@example.com', order_id: 'order-42' },
    ...overrides,
  });

  it('request → StartPay → the bank → our result page → the callback with Authority and Status=OK → verify 100, then 101', async () => {
    const created = await zp('request.json', requestBody());
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.data.code, 100);
    assert.deepEqual(created.body.errors, []);
    const authority = String(created.body.data.authority);
    assert.match(authority, /^S[0-9a-zA-Z]{35}$/, 'a test-mode authority starts with S, 36 characters');
    assert.equal(created.body.data.fee_type, 'Merchant');
    assert.equal(typeof created.body.data.fee, 'number');

    const paid = await payThroughStart(baseUrl, merchant.key, `${baseUrl}/pg/StartPay/${authority}`);
    const back = await callback.returnWith('Authority', authority);
    assert.equal(back.Status, 'OK');
    assert.equal(back.cart, '7', "the merchant's own query is kept");

    const shown = (await client(baseUrl, merchant.key).get<{ payment: Payment }>(`/payments/${paid.id}`)).body.payment;
    assert.equal(shown.created_via, 'zarinpal');
    assert.equal(shown.amount, 150_000);
    assert.equal(shown.merchant_reference, 'order-42');

    const unverified = await zp('unVerified.json', { merchant_id: merchant.zarinpal_merchant_id });
    assert.equal(unverified.status, 200);
    const listed = (unverified.body.data.authorities as { authority: string; amount: number }[]).find(
      (a) => a.authority === authority,
    );
    assert.equal(listed?.amount, 150_000);
    assert.equal(
      (await zp('inquiry.json', { merchant_id: merchant.zarinpal_merchant_id, authority })).body.data.status,
      'PAID',
    );

    const first = await zp('verify.json', { merchant_id: merchant.zarinpal_merchant_id, amount: 150_000, authority });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.code, 100);
    // SEP's RefNum is no number (docs/psps/sep.md): ZarinPal's numeric ref_id is the payment's RRN.
    assert.equal(first.body.data.ref_id, Number(paid.rrn));
    assert.equal(first.body.data.card_pan, paid.card_pan);
    // The SHA-256 of the masked card (docs/COMPAT.md): what every card of that mask shares, not the card's own hash.
    assert.equal(first.body.data.card_hash, createHash('sha256').update(paid.card_pan!).digest('hex').toUpperCase());
    const again = await zp('verify.json', { merchant_id: merchant.zarinpal_merchant_id, amount: 150_000, authority });
    assert.equal(again.body.data.code, 101);
    assert.equal(again.body.data.ref_id, first.body.data.ref_id);
    const stillUnverified = (await zp('unVerified.json', { merchant_id: merchant.zarinpal_merchant_id })).body.data
      .authorities as { authority: string }[];
    assert.ok(!stillUnverified.some((a) => a.authority === authority));
    assert.equal(
      (await zp('inquiry.json', { merchant_id: merchant.zarinpal_merchant_id, authority })).body.data.status,
      'VERIFIED',
    );

    const reversed = await zp('reverse.json', { merchant_id: merchant.zarinpal_merchant_id, authority });
    assert.equal(reversed.status, 200, reversed.text);
    assert.equal(reversed.body.data.code, 100);
    await waitForStatus(baseUrl, merchant.key, paid.id, 'refunded');
    assert.equal(
      (await zp('inquiry.json', { merchant_id: merchant.zarinpal_merchant_id, authority })).body.data.status,
      'REVERSED',
    );
    assert.equal(
      (await zp('reverse.json', { merchant_id: merchant.zarinpal_merchant_id, authority })).body.data.code,
      100,
      'a repeat answers the same',
    );
  });

  it('IRT amounts are toman: the payment is ten times as many rials, and verify takes toman', async () => {
    const created = await zp('request.json', requestBody({ amount: 15_000, currency: 'IRT' }));
    assert.equal(created.body.data.code, 100, created.text);
    const authority = String(created.body.data.authority);
    const paid = await payThroughStart(baseUrl, merchant.key, `${baseUrl}/pg/StartPay/${authority}`);
    assert.equal(paid.amount, 150_000);
    const inRials = await zp('verify.json', { merchant_id: merchant.zarinpal_merchant_id, amount: 150_000, authority });
    assert.equal(inRials.status, 422);
    assert.deepEqual((inRials.body.errors as { code: number }).code, -50);
    const inToman = await zp('verify.json', { merchant_id: merchant.zarinpal_merchant_id, amount: 15_000, authority });
    assert.equal(inToman.body.data.code, 100, inToman.text);
  });

  it('a paid payment nobody verifies is reversed at its deadline by itself; verify is then -51, and reverse.json reverses a paid one at once', async () => {
    const auto = String((await zp('request.json', requestBody())).body.data.authority);
    const autoPaid = await payThroughStart(baseUrl, merchant.key, `${baseUrl}/pg/StartPay/${auto}`);
    const advanced = await client(baseUrl, merchant.key).post(`/test_helpers/payments/${autoPaid.id}/advance`, {
      seconds: testConfig().VERIFY_WINDOW_SECONDS + 1,
    });
    assert.equal(advanced.status, 200, advanced.text);
    await waitForStatus(baseUrl, merchant.key, autoPaid.id, 'reversed');
    assert.equal(
      (await zp('inquiry.json', { merchant_id: merchant.zarinpal_merchant_id, authority: auto })).body.data.status,
      'REVERSED',
    );
    const late = await zp('verify.json', {
      merchant_id: merchant.zarinpal_merchant_id,
      amount: 150_000,
      authority: auto,
    });
    assert.equal((late.body.errors as { code: number }).code, -51);

    const now = String((await zp('request.json', requestBody())).body.data.authority);
    const nowPaid = await payThroughStart(baseUrl, merchant.key, `${baseUrl}/pg/StartPay/${now}`);
    assert.equal(
      (await zp('reverse.json', { merchant_id: merchant.zarinpal_merchant_id, authority: now })).body.data.code,
      100,
    );
    await waitForStatus(baseUrl, merchant.key, nowPaid.id, 'reversed');
  });

  it("is listed by /api/v1/payments and fires payment.verified to the merchant's webhook endpoint", async () => {
    const { h, merchant: m, api, rcv } = await merchantWithReceiver();
    const { zarinpal_merchant_id } = await issueCompatCredentials(h.db, m.merchantId, 'test');
    const authority = String(
      (await zp('request.json', requestBody({ merchant_id: zarinpal_merchant_id }))).body.data.authority,
    );
    const paid = await payThroughStart(baseUrl, m.key, `${baseUrl}/pg/StartPay/${authority}`);
    const listed = await api.get<{ data: Payment[] }>('/payments?status=paid');
    assert.ok(listed.body.data.some((p) => p.id === paid.id && p.created_via === 'zarinpal'));
    assert.equal(
      (await zp('verify.json', { merchant_id: zarinpal_merchant_id, amount: 150_000, authority })).body.data.code,
      100,
    );
    const [delivery] = await rcv.waitForDeliveries(forPayment(paid.id, 'payment.verified'));
    assert.equal(delivery?.event.data.payment?.created_via, 'zarinpal');
  });

  describe("refusals write nothing and answer in ZarinPal's words", () => {
    it("-9 with validations for a bad body, an amount out of bounds, or a callback_url off the merchant's domains", async () => {
      const before = await paymentCount(merchant.merchantId);
      const missing = await zp('request.json', requestBody({ description: undefined, amount: 'ten' }));
      assert.equal(missing.status, 422);
      assert.deepEqual(missing.body.data, []);
      const errors = missing.body.errors as { code: number; validations: Record<string, string>[] };
      assert.equal(errors.code, -9);
      assert.ok(errors.validations.some((v) => 'description' in v));
      assert.ok(errors.validations.some((v) => 'amount' in v));
      assert.equal(((await zp('request.json', requestBody({ amount: 1 }))).body.errors as { code: number }).code, -9);
      const offDomain = await zp('request.json', requestBody({ callback_url: 'https://evil.example/return' }));
      assert.equal((offDomain.body.errors as { code: number }).code, -9);
      const notJson = await request(baseUrl, 'POST', '/pg/v4/payment/request.json', {
        rawBody: '{"merchant_id":',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal((notJson.body.errors as { code: number }).code, -9);
      assert.equal(await paymentCount(merchant.merchantId), before);
    });

    it("-10 for an unknown, revoked or rolled merchant_id; another merchant's authority is -54", async () => {
      const unknown = await zp('request.json', requestBody({ merchant_id: '00000000-0000-4000-8000-000000000000' }));
      assert.equal(unknown.status, 401);
      assert.equal((unknown.body.errors as { code: number }).code, -10);

      const other = await compatMerchant();
      const authority = String((await zp('request.json', requestBody())).body.data.authority);
      const foreign = await zp('inquiry.json', { merchant_id: other.zarinpal_merchant_id, authority });
      assert.equal(foreign.status, 404);
      assert.equal((foreign.body.errors as { code: number }).code, -54);

      const h = await getHarness();
      const rolled = await issueCompatCredentials(h.db, other.merchantId, 'test');
      assert.equal(
        (await zp('inquiry.json', { merchant_id: other.zarinpal_merchant_id, authority })).status,
        401,
        'the rolled-over value is refused',
      );
      assert.equal((await zp('unVerified.json', { merchant_id: rolled.zarinpal_merchant_id })).status, 200);
      await revokeCompatCredentials(h.db, other.merchantId, 'test');
      assert.equal(
        ((await zp('unVerified.json', { merchant_id: rolled.zarinpal_merchant_id })).body.errors as { code: number })
          .code,
        -10,
      );
    });

    it('a Zibal value is not a ZarinPal merchant_id (-10), and live credentials wait for live mode', async () => {
      const wrongProtocol = await zp('unVerified.json', { merchant_id: merchant.zibal_merchant.padEnd(36, '0') });
      assert.equal((wrongProtocol.body.errors as { code: number }).code, -10);
      const h = await getHarness();
      await assert.rejects(issueCompatCredentials(h.db, merchant.merchantId, 'live'), /live mode is not active/);
    });

    it('-54 for an authority no payment has; StartPay of one answers 404', async () => {
      const none = await zp('inquiry.json', {
        merchant_id: merchant.zarinpal_merchant_id,
        authority: `S${'0'.repeat(35)}`,
      });
      assert.equal((none.body.errors as { code: number }).code, -54);
      assert.equal((await fetch(`${baseUrl}/pg/StartPay/nothing`, { redirect: 'manual' })).status, 404);
    });
  });

  it('Temporal down: request.json and verify.json answer 503 with -52 and no detail, lose nothing, and a retry on a healthy API completes', async () => {
    const broken = await apiWithDeadTemporal();
    const before = await paymentCount(merchant.merchantId);
    const refused = await request<ZarinpalAnswer>(broken, 'POST', '/pg/v4/payment/request.json', {
      body: requestBody(),
    });
    assert.equal(refused.status, 503);
    assert.equal((refused.body.errors as { code: number }).code, -52);
    assert.doesNotMatch(refused.text, /\bat \/|Error:|stack/i, 'no stack trace');
    assert.equal(await paymentCount(merchant.merchantId), before, 'the payment nobody could finish is taken back');

    const authority = String((await zp('request.json', requestBody())).body.data.authority);
    await payThroughStart(baseUrl, merchant.key, `${baseUrl}/pg/StartPay/${authority}`);
    const verifyBody = { merchant_id: merchant.zarinpal_merchant_id, amount: 150_000, authority };
    const down = await request<ZarinpalAnswer>(broken, 'POST', '/pg/v4/payment/verify.json', { body: verifyBody });
    assert.deepEqual([down.status, (down.body.errors as { code: number }).code], [503, -52]);
    assert.equal((await zp('verify.json', verifyBody)).body.data.code, 100, 'the same verify on a healthy API');
    const zibalDown = await request<{ result: number }>(broken, 'POST', '/v1/request', {
      body: { merchant: merchant.zibal_merchant, amount: 50_000, callbackUrl: callback.url },
    });
    assert.deepEqual([zibalDown.status, zibalDown.body.result], [503, -1]);
    assert.equal(await paymentCount(merchant.merchantId), before + 1);
  });

  it("counts against the merchant's rate limit as a key does: -12 (429, Retry-After) past it, and Zibal's credential shares that budget", async () => {
    const limited = await apiWith({ RATE_LIMIT_REQUESTS: '2', RATE_LIMIT_WINDOW_SECONDS: '60' });
    const m = await compatMerchant();
    const call = () =>
      request<ZarinpalAnswer>(limited, 'POST', '/pg/v4/payment/unVerified.json', {
        body: { merchant_id: m.zarinpal_merchant_id },
      });
    assert.equal((await call()).status, 200);
    assert.equal((await call()).status, 200);
    const third = await call();
    assert.equal(third.status, 429);
    assert.equal((third.body.errors as { code: number }).code, -12);
    assert.match(third.headers.get('retry-after') ?? '', /^[0-9]+$/);
    // One budget per merchant and mode for both protocols' credentials (docs/COMPAT.md#credentials).
    const zibal = await request<{ result: number }>(limited, 'POST', '/v1/inquiry', {
      body: { merchant: m.zibal_merchant, trackId: 1 },
    });
    assert.equal(zibal.status, 429);
    assert.equal(zibal.body.result, -1);
  });

  it("the CLI prints a merchant's credentials once, as JSON, and they authenticate", async () => {
    const other = await compatMerchant();
    const res = await cli('compat', 'credentials', '--merchant', other.merchantId, '--mode', 'test', '--json');
    assert.equal(res.code, 0, res.stderr);
    const printed = JSON.parse(res.stdout) as { zarinpal_merchant_id: string; zibal_merchant: string };
    assert.deepEqual(Object.keys(printed).sort(), ['zarinpal_merchant_id', 'zibal_merchant']);
    assert.match(printed.zarinpal_merchant_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.match(printed.zibal_merchant, /^[0-9a-f]{24}$/);
    assert.equal((await zp('unVerified.json', { merchant_id: printed.zarinpal_merchant_id })).status, 200);
    const stored = await (
      await getHarness()
    ).db
      .selectFrom('compat_credentials')
      .select('value_hash')
      .where('merchant_id', '=', other.merchantId)
      .execute();
    assert.ok(
      stored.every((row) => !row.value_hash.toString('utf8').includes(printed.zarinpal_merchant_id)),
      'only hashes are stored',
    );
    const refused = await cli('compat', 'credentials', '--merchant', other.merchantId, '--mode', 'both');
    assert.equal(refused.code, 1);
  });
});
