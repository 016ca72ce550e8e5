/** Storms of concurrent requests on one thing: exactly-once results. */
import assert from 'node:assert/strict';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { client, request } from '../support/http.ts';
import { paidPayment, paymentRequest, type CreateResponse } from '../support/payments.ts';
import { faultApi, faultMerchant, getFaultStack, inParallel, recordFigures } from '../support/faults/fault-stack.ts';
import { codeOf, moneyCheck, untilAnswered } from '../support/faults/checks.ts';
import { approveTypedIban, REFUND_IBAN } from '../support/refunds.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

const KEYS = 25;
const CREATES_PER_KEY = 10;
const PAYMENTS = 15;
const VERIFIES_PER_PAYMENT = 8;
const REFUNDS_PER_PAYMENT = 8;
/** Each refund asks for a quarter: at most four of the eight can be taken. */
const REFUND_PARTS = 4;

describe('races: concurrent creates, verifies and refunds', () => {
  it('every storm has exactly one result', async () => {
    const s = await getFaultStack();
    const merchant = await faultMerchant();
    const api = await faultApi();

    // Creates sharing Idempotency-Keys, all at once. Every storm retries a 503 with the same key, as a
    // merchant does: a busy machine may answer one, and "exactly one result" is about what follows.
    const bodies = Array.from({ length: KEYS }, () => paymentRequest());
    const creates = await Promise.all(
      bodies.flatMap((body, k) =>
        Array.from({ length: CREATES_PER_KEY }, () =>
          untilAnswered(() =>
            request<CreateResponse>(api, 'POST', '/api/v1/payments', {
              key: merchant.key,
              body,
              idempotencyKey: `race-${k}`,
            }),
          ).then(({ res }) => ({ k, res })),
        ),
      ),
    );
    const unexpected = creates.filter(
      ({ res }) => !(res.status === 201 || (res.status === 409 && codeOf(res) === 'idempotency_key_in_use')),
    );
    const idsPerKey = new Map<number, Set<string>>();
    for (const { k, res } of creates.filter((c) => c.res.status === 201))
      idsPerKey.set(k, (idsPerKey.get(k) ?? new Set()).add(res.body.payment.id));
    const created = await s.db
      .selectFrom('payments')
      .select('id')
      .where('merchant_id', '=', merchant.merchantId)
      .execute();

    // Verifies of one paid payment, all at once.
    const paid = await inParallel(
      Array.from({ length: PAYMENTS }, () => 0),
      5,
      () => paidPayment(api, merchant.key),
    );
    const verifies = await Promise.all(
      paid.flatMap((p) =>
        Array.from({ length: VERIFIES_PER_PAYMENT }, () =>
          untilAnswered(() =>
            client(api, merchant.key).post<{ payment: Payment }>(`/payments/${p.id}/verify`, { amount: p.amount }),
          ).then(({ res }) => ({ p, res })),
        ),
      ),
    );
    const verifyAnswers = new Map<string, Set<string>>();
    for (const { p, res } of verifies)
      verifyAnswers.set(
        p.id,
        (verifyAnswers.get(p.id) ?? new Set()).add(
          `${res.status}:${res.body.payment?.status}:${res.body.payment?.verified_at}`,
        ),
      );
    const verifiedEvents = await s.db
      .selectFrom('events')
      .select('object_id')
      .where('merchant_id', '=', merchant.merchantId)
      .where('type', '=', 'payment.verified')
      .execute();

    // Refunds of one verified payment, each for a quarter, all at once with distinct keys.
    const refunds = await Promise.all(
      paid.flatMap((p) =>
        Array.from({ length: REFUNDS_PER_PAYMENT }, (_, r) =>
          // A 503 (the workflow did not answer within the API's bound) is retried with the same key, as a merchant does.
          untilAnswered(() =>
            client(api, merchant.key).post<{ refund: Refund }>(
              `/payments/${p.id}/refunds`,
              { destination_iban: REFUND_IBAN, amount: p.amount / REFUND_PARTS },
              { idempotencyKey: `race-refund-${p.id}-${r}` },
            ),
          ).then(({ res }) => ({ p, res })),
        ),
      ),
    );
    const takenPerPayment = paid.map((p) => refunds.filter((r) => r.p.id === p.id && r.res.status === 201).length);
    // Each taken refund is held for its typed IBAN (docs/PAYMENTS.md#refund-states): the operator approves each,
    // so the money check below counts what the bank paid for them.
    await Promise.all(
      refunds
        .filter((r) => r.res.status === 201)
        .map((r) => approveTypedIban(r.res.body.refund, { db: s.db, temporal: s.temporal, config: s.baseConfig })),
    );
    const refusedCodes = new Set(
      refunds.filter((r) => r.res.status !== 201).map((r) => `${r.res.status}:${codeOf(r.res)}`),
    );
    const rows = await s.db
      .selectFrom('payments')
      .select(['id', 'amount', 'refunded_amount'])
      .where(
        'id',
        'in',
        paid.map((p) => p.id),
      )
      .execute();
    const money = await moneyCheck(
      s,
      paid.map((p) => p.id),
    );

    const figures = {
      create_requests: creates.length,
      idempotency_keys: KEYS,
      payments_created: created.length,
      keys_answered_with_two_ids: [...idsPerKey.values()].filter((ids) => ids.size > 1).length,
      unexpected_create_answers: unexpected.length,
      verify_requests: verifies.length,
      payments_with_inconsistent_verify_answers: [...verifyAnswers.values()].filter((a) => a.size !== 1).length,
      verified_events: verifiedEvents.length,
      refund_requests: refunds.length,
      refunds_taken: takenPerPayment.reduce((a, b) => a + b, 0),
      refund_refusals: [...refusedCodes],
      over_refunded_payments: rows.filter((r) => Number(r.refunded_amount) > Number(r.amount)).length,
    };
    recordFigures('races', { ...figures, paid_back_twice: money.paid_back_twice });
    assert.deepEqual(
      unexpected.map((u) => u.res.text),
      [],
    );
    assert.equal(figures.payments_created, KEYS);
    assert.equal(figures.keys_answered_with_two_ids, 0);
    assert.equal(figures.payments_with_inconsistent_verify_answers, 0);
    assert.ok([...verifyAnswers.values()].every((a) => [...a][0]!.startsWith('200:verified:')));
    assert.equal(figures.verified_events, PAYMENTS);
    assert.deepEqual(
      takenPerPayment,
      paid.map(() => REFUND_PARTS),
    );
    assert.equal(figures.over_refunded_payments, 0);
    assert.ok(rows.every((r) => Number(r.refunded_amount) === Number(r.amount)));
  });
});
