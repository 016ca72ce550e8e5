/**
 * ZarinPal/Zibal credentials cannot be multiplied (docs/SECURITY.md, "Compatible protocols"; issue 42,
 * item 6), on the real stack: after any number of re-issues only the current pair and the one before
 * it (in its grace) authenticate, and the request budget is one per merchant and mode, whichever
 * credential or protocol a request uses.
 */
import assert from 'node:assert/strict';
import { issueCompatCredentials } from '../../src/merchants/compat-credentials.ts';
import { apiWith, getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { request } from '../support/http.ts';

const WEEK = 604_800;

describe('compatible protocols: at most two working pairs, one request budget per merchant and mode', function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => {
    h = await getHarness();
  });

  /** ZarinPal's answer code to inquiry.json of an authority nobody has: -54 when the credential authenticates, -10 when not. */
  const zarinpalCode = async (base: string, merchantId: string) =>
    (
      await request<{ errors: { code: number } }>(base, 'POST', '/pg/v4/payment/inquiry.json', {
        body: { merchant_id: merchantId, authority: `S000${'0'.repeat(32)}` },
      })
    ).body.errors.code;
  /** Zibal's: 203 when it authenticates, 102 when not. */
  const zibalCode = async (base: string, merchant: string) =>
    (await request<{ result: number }>(base, 'POST', '/v1/inquiry', { body: { merchant, trackId: 123 } })).body.result;

  it('re-issued three times with a week of grace each: only the newest pair and the one before it work', async () => {
    const m = await newMerchant();
    const pairs = [];
    for (let i = 0; i < 4; i += 1) pairs.push(await issueCompatCredentials(h.db, m.merchantId, 'test', WEEK));
    const zarinpal = await Promise.all(pairs.map((p) => zarinpalCode(h.baseUrl, p.zarinpal_merchant_id)));
    const zibal = await Promise.all(pairs.map((p) => zibalCode(h.baseUrl, p.zibal_merchant)));
    assert.deepEqual(zarinpal, [-10, -10, -54, -54]);
    assert.deepEqual(zibal, [102, 102, 203, 203]);
    const valid = await h.db
      .selectFrom('compat_credentials')
      .select('id')
      .where('merchant_id', '=', m.merchantId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .execute();
    assert.equal(valid.length, 4, 'two pairs of two protocols');
  });

  it("shares one request budget among the merchant's credentials of a mode, both protocols alike", async () => {
    const limited = await apiWith({ RATE_LIMIT_REQUESTS: '4', RATE_LIMIT_WINDOW_SECONDS: '60' });
    const m = await newMerchant();
    const older = await issueCompatCredentials(h.db, m.merchantId, 'test', WEEK);
    const newer = await issueCompatCredentials(h.db, m.merchantId, 'test', WEEK);
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 20_000) await new Promise((r) => setTimeout(r, left + 100));
    assert.equal(await zarinpalCode(limited, older.zarinpal_merchant_id), -54);
    assert.equal(await zarinpalCode(limited, newer.zarinpal_merchant_id), -54);
    assert.equal(await zibalCode(limited, older.zibal_merchant), 203);
    assert.equal(await zibalCode(limited, newer.zibal_merchant), 203);
    // The fifth request, on any of them: over the one budget.
    const zibal = await request<{ result: number }>(limited, 'POST', '/v1/inquiry', {
      body: { merchant: newer.zibal_merchant, trackId: 123 },
    });
    assert.equal(zibal.status, 429);
    assert.equal(zibal.body.result, -1);
    assert.equal(await zarinpalCode(limited, older.zarinpal_merchant_id), -12);
    // The same merchant's live budget, and another merchant's, are their own (a fresh merchant is served).
    const other = await newMerchant();
    const theirs = await issueCompatCredentials(h.db, other.merchantId, 'test');
    assert.equal(await zibalCode(limited, theirs.zibal_merchant), 203);
  });
});
