/**
 * One Idempotency-Key, one answer (docs/API.md#idempotency, docs/SECURITY.md#invariants-between-payments-and-requests),
 * against the real stack: the same request with the same key sent several times at the same instant makes one
 * resource, whichever operation. The key's row is claimed by its insert (primary key merchant_id, mode,
 * operation, idempotency_key, src/db/idempotency-keys.ts); every request that loses is answered 409
 * idempotency_key_in_use or, once the first answered, replays it. Several rounds of eight at once each; where
 * money moves (refunds) the ledger is checked after every round and by the operator's CLI at the end.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { PaymentLink } from '../../src/domain/payment-link.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client, type TestResponse } from '../support/http.ts';
import { paymentRequest } from '../support/payments.ts';
import { assertCliLedgerCheck, assertMerchantLedger, atOnce } from '../support/races.ts';
import { approveTypedIban, REFUND_IBAN, verifiedPayment } from '../support/refunds.ts';

const ROUNDS = 5;
const AT_ONCE = 8;

/** Every answer is the one resource (201, or 200 for a replay where the API says so) or 409 idempotency_key_in_use; answers its id. */
function oneResource<T>(answers: TestResponse<T & { code?: string }>[], idOf: (body: T) => string, what: string) {
  const ids = new Set<string>();
  for (const a of answers) {
    if (a.status === 409) {
      assert.equal(a.body.code, 'idempotency_key_in_use', a.text);
      continue;
    }
    assert.equal(a.status, 201, `${what}: ${a.text}`);
    ids.add(idOf(a.body));
  }
  assert.equal(ids.size, 1, `${what}: one resource for the key, answered ${[...ids].join(', ')}`);
  return [...ids][0]!;
}

describe('races: one Idempotency-Key, one answer', function () {
  this.timeout(120_000);
  let h: Harness;
  let m: Awaited<ReturnType<typeof newMerchant>>;
  let api: ReturnType<typeof client>;
  before(async () => {
    h = await getHarness();
    m = await newMerchant();
    api = client(h.baseUrl, m.key);
  });

  it(`create payment: ${ROUNDS} rounds of ${AT_ONCE} creates with one key at once → one payment per key`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const key = `races-payment-${randomUUID()}`;
      const body = paymentRequest();
      const answers = await atOnce(AT_ONCE, () =>
        api.post<{ payment: Payment; code?: string }>('/payments', body, { idempotencyKey: key }),
      );
      const id = oneResource(answers, (b) => b.payment.id, `round ${round}`);
      const rows = await h.db
        .selectFrom('payments')
        .select('id')
        .where('merchant_id', '=', m.merchantId)
        .where('merchant_reference', '=', body.merchant_reference)
        .execute();
      assert.deepEqual(
        rows.map((r) => r.id),
        [id],
      );
      const later = await api.post<{ payment: Payment }>('/payments', body, { idempotencyKey: key });
      assert.equal(later.body.payment.id, id, 'a later request replays the answer');
    }
  });

  it(`create payment link: ${ROUNDS} rounds of ${AT_ONCE} creates with one key at once → one link per key`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const key = `races-link-${randomUUID()}`;
      const title = `Race ${round} ${key}`;
      const answers = await atOnce(AT_ONCE, () =>
        api.post<{ payment_link: PaymentLink; code?: string }>(
          '/payment_links',
          { title, amount: 250_000 },
          { idempotencyKey: key },
        ),
      );
      const id = oneResource(answers, (b) => b.payment_link.id, `round ${round}`);
      const rows = await h.db
        .selectFrom('payment_links')
        .select('id')
        .where('merchant_id', '=', m.merchantId)
        .where('title', '=', title)
        .execute();
      assert.deepEqual(
        rows.map((r) => r.id),
        [id],
      );
    }
  });

  it(`create refund: ${ROUNDS} rounds of ${AT_ONCE} refunds with one key at once → one refund per key, refunded once, the ledger balanced`, async () => {
    // One payment, a new key each round: each round's refund is taken once, on top of the rounds before.
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 1_000_000 });
    const taken: [string, number][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const key = `races-refund-${randomUUID()}`;
      const answers = await atOnce(AT_ONCE, () =>
        api.post<{ refund: Refund; code?: string }>(
          `/payments/${payment.id}/refunds`,
          { amount: 100_000, destination_iban: REFUND_IBAN },
          { idempotencyKey: key },
        ),
      );
      const id = oneResource(answers, (b) => b.refund.id, `round ${round}`);
      taken.push([id, 100_000]);
      // A typed IBAN is held for the operator: approved once, its amount leaves the balance (checked below).
      await approveTypedIban(answers.find((a) => a.status === 201 && a.body.refund.id === id)!.body.refund);
      const refunds = await h.db
        .selectFrom('refunds')
        .select(['id', 'amount'])
        .where('payment_id', '=', payment.id)
        .execute();
      assert.deepEqual(refunds.map((r) => [r.id, Number(r.amount)]).sort(), [...taken].sort(), `round ${round}`);
      const row = await h.db
        .selectFrom('payments')
        .select('refunded_amount')
        .where('id', '=', payment.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.refunded_amount), round * 100_000, `round ${round}: each key refunded once`);
      await assertMerchantLedger(h.db, [m.merchantId], `after round ${round} of one-key refunds`);
    }
    await assertCliLedgerCheck([m.merchantId]);
  });
});
