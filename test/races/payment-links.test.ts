/**
 * A payment link's places hold however many customers start at the same instant
 * (docs/PAYMENTS.md#payment-links, docs/SECURITY.md#invariants-between-payments-and-requests), against
 * the real stack: the link's row is locked (SELECT … FOR UPDATE, src/db/payment-links.ts lockLinkForStart)
 * in the transaction that counts its payments and inserts the new one (src/payments/links.ts
 * startLinkPayment), so starts of one link are taken one at a time; payment_links_count_within_max
 * (a CHECK on the count written with each start) backs max_payments.
 * - LINK_OPEN_PAYMENTS_MAX: of eight starts at once with the bound at 3, exactly 3 start, 5 get 429.
 * - max_payments: of eight starts at once on a link of 2 places, exactly 2 start, 6 get 410 used up
 *   (also test/payments/payment-links.test.ts, one round of six).
 * Several rounds, a new link each.
 */
import assert from 'node:assert/strict';
import type { PaymentLink } from '../../src/domain/payment-link.ts';
import { apiWith, getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { createdLink, openLink, postLink, startedPaymentId } from '../support/payment-links.ts';
import { atOnce } from '../support/races.ts';

const ROUNDS = 4;
const AT_ONCE = 8;
const OPEN_MAX = 3;
const PLACES = 2;

describe('races: starts of one payment link at once', function () {
  this.timeout(120_000);
  let h: Harness;
  let base: string;
  let api: ReturnType<typeof client>;
  before(async () => {
    h = await getHarness();
    base = await apiWith({ LINK_OPEN_PAYMENTS_MAX: String(OPEN_MAX) });
    api = client(h.baseUrl, (await newMerchant()).key);
  });

  /** Eight customers, each with the page's form open, press start at the same instant. */
  async function startsAtOnce(link: PaymentLink) {
    const sessions = await atOnce(AT_ONCE, () => openLink(base, link.slug));
    const answers = await atOnce(AT_ONCE, (i) => postLink(base, link.slug, sessions[i]!.session, {}));
    const started = answers.filter((a) => a.status === 303).map(startedPaymentId);
    const refused = await Promise.all(
      answers.filter((a) => a.status !== 303).map(async (a) => ({ status: a.status, html: await a.text() })),
    );
    const rows = await h.db.selectFrom('payments').select('id').where('payment_link_id', '=', link.id).execute();
    assert.deepEqual(rows.map((r) => r.id).sort(), [...started].sort(), 'the payments written are those started');
    return { started, refused };
  }

  it(`LINK_OPEN_PAYMENTS_MAX ${OPEN_MAX}: ${ROUNDS} rounds of ${AT_ONCE} starts at once → exactly ${OPEN_MAX} open, the rest 429`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const link = await createdLink(api, { title: `Open bound ${round}` });
      const { started, refused } = await startsAtOnce(link);
      assert.equal(started.length, OPEN_MAX, `round ${round}: ${refused.map((r) => r.status).join(', ')}`);
      for (const r of refused) assert.equal(r.status, 429, r.html.slice(0, 200));
    }
  });

  it(`max_payments ${PLACES}: ${ROUNDS} rounds of ${AT_ONCE} starts at once → exactly ${PLACES} places taken, the rest 410 used up`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const link = await createdLink(api, { title: `Places ${round}`, max_payments: PLACES });
      const { started, refused } = await startsAtOnce(link);
      assert.equal(started.length, PLACES, `round ${round}: ${refused.map((r) => r.status).join(', ')}`);
      for (const r of refused) {
        assert.equal(r.status, 410, r.html.slice(0, 200));
        assert.match(r.html, /data-why="payment_link_used_up"/);
      }
      const read = await api.get<{ payment_link: PaymentLink }>(`/payment_links/${link.id}`);
      assert.equal(read.body.payment_link.payments_count, PLACES);
    }
  });
});
