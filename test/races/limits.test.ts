/**
 * A merchant's bounded counts hold however many requests take the last places at once
 * (docs/SECURITY.md#invariants-between-payments-and-requests), against the real stack:
 * - webhook endpoints, at most MAX_ENDPOINTS per merchant and mode: each endpoint holds one of the
 *   places and the unique key (merchant_id, mode, place) decides (migration 0046). Before it the bound
 *   was a count read before the insert, and eight creates at once with a few places left all passed it.
 * - test API keys, at most TEST_KEYS_PER_MERCHANT working: counted with the merchant's row locked, in
 *   the transaction that inserts the key (src/merchants/onboarding.ts takeTestKeyPlace), the function
 *   the dashboard's Developers page and `keys create` both call.
 * - ZarinPal/Zibal credentials, at most two pairs working per merchant and mode (the newest and the one
 *   before it, in its grace): issued with the merchant's row locked (src/merchants/compat-credentials.ts).
 * Each: several rounds of eight requests at the same instant, the counts exact after each.
 */
import assert from 'node:assert/strict';
import { revokeApiKey, workingTestKeyCount } from '../../src/db/api-keys.ts';
import { workingCompatCredentials } from '../../src/db/compat-credentials.ts';
import { issueCompatCredentials } from '../../src/merchants/compat-credentials.ts';
import { createMerchantKey, TestKeyLimitReached } from '../../src/merchants/onboarding.ts';
import { MAX_ENDPOINTS } from '../../src/webhooks/service.ts';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { atOnce } from '../support/races.ts';

const ROUNDS = 5;
const AT_ONCE = 8;
/** Places left free before each round: fewer than the requests, so most of them must be refused. */
const LEFT = 3;

describe('races: bounded counts of a merchant', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await getHarness();
  });

  it(`webhook endpoints: ${ROUNDS} rounds of ${AT_ONCE} creates at once with ${LEFT} places left → exactly ${LEFT} made, never more than ${MAX_ENDPOINTS}`, async () => {
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const create = (i: number) =>
      api.post<{ webhook_endpoint: { id: string }; code?: string }>('/webhook_endpoints', {
        url: `http://127.0.0.1:9/races/${i}`,
      });
    const live = async () =>
      (
        await h.db
          .selectFrom('webhook_endpoints')
          .select('id')
          .where('merchant_id', '=', m.merchantId)
          .where('mode', '=', 'test')
          .where('deleted_at', 'is', null)
          .orderBy('created_at')
          .execute()
      ).map((r) => r.id);
    for (let i = 0; i < MAX_ENDPOINTS - LEFT; i++) assert.equal((await create(i)).status, 201);
    for (let round = 1; round <= ROUNDS; round++) {
      const answers = await atOnce(AT_ONCE, create);
      const made = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status !== 201);
      assert.equal(made.length, LEFT, `round ${round}: ${answers.map((a) => `${a.status} ${a.text}`).join('\n')}`);
      for (const r of refused) {
        assert.equal(r.status, 422, r.text);
        assert.equal(r.body.code, 'validation_failed');
      }
      const ids = await live();
      assert.equal(ids.length, MAX_ENDPOINTS, `round ${round}: endpoints`);
      // The next round: the newest LEFT deleted (through the API), their places free again.
      for (const id of ids.slice(-LEFT)) assert.equal((await api.del(`/webhook_endpoints/${id}`)).status, 200);
      assert.equal((await live()).length, MAX_ENDPOINTS - LEFT);
    }
  });

  it(`test API keys: ${ROUNDS} rounds of ${AT_ONCE} key creations at once with ${LEFT} places left → exactly ${LEFT} made`, async () => {
    const m = await newMerchant();
    const limit = h.config.TEST_KEYS_PER_MERCHANT;
    const working = () => workingTestKeyCount(h.db, m.merchantId, new Date());
    // newMerchant made one; the others up to LEFT places short of the limit.
    while ((await working()) < limit - LEFT) await createMerchantKey(h.db, m.merchantId, 'test', limit);
    for (let round = 1; round <= ROUNDS; round++) {
      const outcomes = await atOnce(AT_ONCE, () =>
        createMerchantKey(h.db, m.merchantId, 'test', limit).then(
          (key) => key.key_id,
          (error: unknown) => {
            if (error instanceof TestKeyLimitReached) return 'refused';
            throw error;
          },
        ),
      );
      const made = outcomes.filter((o) => o !== 'refused');
      assert.equal(made.length, LEFT, `round ${round}: ${outcomes.join(', ')}`);
      assert.equal(await working(), limit, `round ${round}: working test keys`);
      const at = new Date();
      for (const keyId of made) await revokeApiKey(h.db, keyId, at);
      assert.equal(await working(), limit - LEFT);
    }
  });

  it(`ZarinPal/Zibal credentials: ${ROUNDS} rounds of ${AT_ONCE} issues at once, each giving the pair before a week of grace → two pairs work`, async () => {
    const m = await newMerchant();
    const WEEK = 7 * 24 * 3600;
    for (let round = 1; round <= ROUNDS; round++) {
      const issued = await atOnce(AT_ONCE, () => issueCompatCredentials(h.db, m.merchantId, 'test', WEEK));
      assert.equal(issued.length, AT_ONCE);
      const working = await workingCompatCredentials(h.db, m.merchantId, 'test', new Date());
      assert.equal(working.length, 4, `round ${round}: two pairs (a ZarinPal and a Zibal value each) work`);
      assert.equal(new Set(working.map((w) => w.created_at.getTime())).size, 2, `round ${round}: pairs`);
    }
  });
});
