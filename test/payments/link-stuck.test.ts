/**
 * A payment link's payment whose settle its workflow gave up on stays `paid` for its deadline's reversal, and
 * the stuck-records listing (`cli stuck`, dargah_stuck_records) raises it once its workflow's settle bound and
 * the margin have passed, well before the verify window that raises every other paid payment
 * (docs/RELIABILITY.md#waiting-states, docs/PAYMENTS.md#payment-links). Against the real MySQL: two paid
 * payments, one of them marked as its link's, listed at instants after each bound.
 */
import assert from 'node:assert/strict';
import { stuckRecords, waitingBoundsSeconds } from '../../src/db/stuck.ts';
import type { PaymentLink } from '../../src/domain/payment-link.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { paidPayment } from '../support/payments.ts';

describe("stuck records: a payment link's payment left paid", () => {
  it('is raised past its settle bound plus the margin; another paid payment only past the verify window', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const link = await client(h.baseUrl, key).post<{ payment_link: PaymentLink }>('/payment_links', {
      title: 'Notebook',
      amount: 500_000,
    });
    assert.equal(link.status, 201, link.text);
    const [byLink, other] = [await paidPayment(h.baseUrl, key), await paidPayment(h.baseUrl, key)];
    // The link's payment as its workflow leaves it after giving up on the settle: paid, with its link (the test-mode PSP
    // captures at its verify, so a real link payment here is verified at once and never asks a settle).
    // Both dated alike, so one instant is past (or short of) the same bound for both.
    const { updated_at } = await h.db
      .selectFrom('payments')
      .select('updated_at')
      .where('id', '=', other.id)
      .executeTakeFirstOrThrow();
    await h.db
      .updateTable('payments')
      .set({ payment_link_id: link.body.payment_link.id, updated_at })
      .where('id', '=', byLink.id)
      .execute();
    const bounds = waitingBoundsSeconds(h.config);
    assert.ok(bounds['payment paid by link']! < bounds['payment paid']!, 'the link bound is the shorter');
    const listedAt = async (secondsAfter: number) =>
      (await stuckRecords(h.db, h.config, { now: new Date(new Date(updated_at).getTime() + secondsAfter * 1000) }))
        .filter((r) => r.record === 'payment' && r.state === 'paid' && [byLink.id, other.id].includes(r.id))
        .map((r) => r.id)
        .sort();

    assert.deepEqual(await listedAt(bounds['payment paid by link']! - 5), [], 'nothing before the link bound');
    assert.deepEqual(
      await listedAt(bounds['payment paid by link']! + 5),
      [byLink.id],
      'the link payment past its bound',
    );
    assert.deepEqual(
      await listedAt(bounds['payment paid']! + 5),
      [byLink.id, other.id].sort(),
      'both past the verify window',
    );
  });
});
