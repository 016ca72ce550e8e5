/**
 * The merchant's actions on one payment at the same instant (docs/SECURITY.md#invariants-between-payments-and-requests),
 * against the real stack. Each goes to the payment's one workflow as an Update, which takes them one at a
 * time, and the record is written only over an older version (src/db/payments.ts writePaymentVersion:
 * UPDATE … WHERE version < v), so:
 * - eight verifies of one paid payment at once: all answer the one verify (its verified_at), one
 *   payment.verified event, the money verified once (the ledger check);
 * - verifies and reverses of one paid payment at once: it ends verified or reversed, never both, and
 *   every answer agrees with how it ended;
 * - eight cancels of one created payment at once: all answer canceled, one payment.canceled event.
 * The ZarinPal/Zibal verifies' one answer 100 is test/compat/concurrent-verify.test.ts.
 */
import assert from 'node:assert/strict';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { createdPayment, paidPayment } from '../support/payments.ts';
import { assertCliLedgerCheck, assertMerchantLedger, atOnce } from '../support/races.ts';

const ROUNDS = 3;
const AT_ONCE = 8;

type Answer = { payment?: Payment; code?: string };

describe('races: the merchant acts on one payment several times at once', function () {
  this.timeout(120_000);
  let h: Harness;
  let m: Awaited<ReturnType<typeof newMerchant>>;
  let api: ReturnType<typeof client>;
  before(async () => {
    h = await getHarness();
    m = await newMerchant();
    api = client(h.baseUrl, m.key);
  });

  const eventsOf = async (paymentId: string, type: string) =>
    (await h.db.selectFrom('events').select('id').where('object_id', '=', paymentId).where('type', '=', type).execute())
      .length;

  it(`verify: ${ROUNDS} rounds of ${AT_ONCE} verifies of one paid payment at once → one verify, one event, verified once in the ledger`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const paid = await paidPayment(h.baseUrl, m.key);
      const answers = await atOnce(AT_ONCE, () =>
        api.post<Answer>(`/payments/${paid.id}/verify`, { amount: paid.amount }),
      );
      for (const a of answers) assert.equal(a.status, 200, a.text);
      assert.deepEqual(
        [...new Set(answers.map((a) => `${a.body.payment?.status} ${a.body.payment?.verified_at}`))],
        [`verified ${answers[0]!.body.payment?.verified_at}`],
        `round ${round}: every answer is the one verify`,
      );
      assert.equal(await eventsOf(paid.id, 'payment.verified'), 1, `round ${round}: payment.verified events`);
      await assertMerchantLedger(h.db, [m.merchantId], `after round ${round} of verifies`);
    }
  });

  it(`verify against reverse: ${ROUNDS} rounds of ${AT_ONCE / 2} verifies and ${AT_ONCE / 2} reverses at once → verified or reversed, never both`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const paid = await paidPayment(h.baseUrl, m.key);
      const answers = await atOnce(AT_ONCE, (i) =>
        i % 2 === 0
          ? api
              .post<Answer>(`/payments/${paid.id}/verify`, { amount: paid.amount })
              .then((a) => ({ ...a, verb: 'verify' }))
          : api.post<Answer>(`/payments/${paid.id}/reverse`).then((a) => ({ ...a, verb: 'reverse' })),
      );
      const after = (await api.get<{ payment: Payment }>(`/payments/${paid.id}`)).body.payment;
      assert.ok(after.status === 'verified' || after.status === 'reversed', `round ${round}: ${after.status}`);
      const won = after.status === 'verified' ? 'verify' : 'reverse';
      for (const a of answers) {
        if (a.verb === won) {
          assert.equal(a.status, 200, `round ${round}: ${a.verb} ${a.text}`);
          assert.equal(a.body.payment?.status, after.status);
        } else {
          assert.ok(a.status === 409 || a.status === 422, `round ${round}: ${a.verb} ${a.status} ${a.text}`);
          assert.ok(a.body.code !== undefined, a.text);
        }
      }
      const [verified, reversed] = [
        await eventsOf(paid.id, 'payment.verified'),
        await eventsOf(paid.id, 'payment.reversed'),
      ];
      assert.deepEqual([verified, reversed], won === 'verify' ? [1, 0] : [0, 1], `round ${round}: events`);
      await assertMerchantLedger(h.db, [m.merchantId], `after round ${round} of verify against reverse`);
    }
    await assertCliLedgerCheck([m.merchantId]);
  });

  it(`cancel: ${ROUNDS} rounds of ${AT_ONCE} cancels of one created payment at once → canceled once`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const created = await createdPayment(h.baseUrl, m.key);
      const answers = await atOnce(AT_ONCE, () => api.post<Answer>(`/payments/${created.id}/cancel`));
      for (const a of answers) {
        assert.equal(a.status, 200, a.text);
        assert.equal(a.body.payment?.status, 'canceled');
      }
      assert.equal(await eventsOf(created.id, 'payment.canceled'), 1, `round ${round}: payment.canceled events`);
    }
  });
});
