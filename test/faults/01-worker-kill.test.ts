/**
 * kill -9 of the only worker while 300 payments are in every state: a new
 * worker finishes every one, nothing is lost, no money goes back twice, and
 * MySQL ends equal to the workflows.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { BankOutcome } from '../../src/domain/payment.ts';
import { client, waitFor } from '../support/http.ts';
import { createPayment } from '../support/payments.ts';
import {
  faultApi,
  faultMerchant,
  getFaultStack,
  inParallel,
  recordFigures,
  startWorker,
} from '../support/faults/fault-stack.ts';
import {
  codeOf,
  moneyCheck,
  payThroughFaults,
  recordsDifferingFromWorkflows,
  untilAnswered,
  verifyThroughFaults,
} from '../support/faults/checks.ts';
import { REFUND_IBAN } from '../support/refunds.ts';

type Plan = 'verify' | 'verify_refund' | 'failure' | 'cancel' | 'unverified' | 'delay' | 'expire' | 'pay_during_outage';
const EXPECTED: Record<Plan, Payment['status']> = {
  verify: 'verified',
  verify_refund: 'refunded',
  failure: 'failed',
  cancel: 'canceled',
  unverified: 'reversed',
  delay: 'reversed',
  expire: 'expired',
  pay_during_outage: 'verified',
};
const OUTCOME: Partial<Record<Plan, BankOutcome>> = {
  verify: 'success',
  verify_refund: 'success',
  failure: 'failure',
  cancel: 'cancel',
  unverified: 'success',
  delay: 'delay',
};
const PLANS = Object.keys(EXPECTED) as Plan[];
const TOTAL = 304; // 38 of each plan

describe('fault: the worker is killed with SIGKILL while 300 payments are in flight', () => {
  it('a new worker finishes every payment: 0 lost, 0 paid back twice, records equal to workflows', async () => {
    const s = await getFaultStack();
    const merchant = await faultMerchant();
    // Windows short enough to fire around the outage, long enough to create everything first.
    const apis = {
      long: await faultApi({ PAYMENT_TTL_SECONDS: '900', VERIFY_WINDOW_SECONDS: '900' }),
      reverse: await faultApi({ PAYMENT_TTL_SECONDS: '900', VERIFY_WINDOW_SECONDS: '45' }),
      expire: await faultApi({ PAYMENT_TTL_SECONDS: '45' }),
    };
    const apiFor = (plan: Plan) =>
      plan === 'unverified' || plan === 'delay' ? apis.reverse : plan === 'expire' ? apis.expire : apis.long;

    const planOf = (i: number) => PLANS[i % PLANS.length]!;
    const created = await inParallel(
      Array.from({ length: TOTAL }, (_, i) => i),
      12,
      async (i) => {
        const { res } = await untilAnswered(() =>
          createPayment(apiFor(planOf(i)), merchant.key, { merchant_reference: `kill-${i}` }, `kill-${i}`),
        );
        assert.equal(res.status, 201, res.text);
        return { plan: planOf(i), payment: res.body.payment };
      },
    );

    // The customers choose, the merchants verify and refund; the worker dies half-way through.
    let done = 0;
    let killedAt = 0;
    const act = async ({ plan, payment }: (typeof created)[number]) => {
      const outcome = OUTCOME[plan];
      if (outcome === undefined) return;
      const chosen = await payThroughFaults(apiFor(plan), merchant.key, payment.id, outcome);
      assert.ok(chosen.wentThrough || chosen.res.status === 303, chosen.res.text);
      done += 1;
      if (plan === 'verify' || plan === 'verify_refund') {
        const verified = await verifyThroughFaults(apis.long, merchant.key, payment);
        assert.equal(verified.res.status, 200, verified.res.text);
      }
      if (plan === 'verify_refund') {
        const refund = await untilAnswered(
          () =>
            client(apis.long, merchant.key).post(
              `/payments/${payment.id}/refunds`,
              { destination_iban: REFUND_IBAN },
              { idempotencyKey: `refund-${payment.id}` },
            ),
          (r) => codeOf(r) === 'idempotency_key_in_use',
        );
        assert.equal(refund.res.status, 201, refund.res.text);
      }
    };
    const actions = inParallel(created, 12, act);
    const actionsTotal = created.filter((c) => OUTCOME[c.plan] !== undefined).length;
    await waitFor(
      'half the customers to have chosen',
      async () => (done >= actionsTotal / 2 ? true : undefined),
      240_000,
      50,
    );
    await s.worker!.kill('SIGKILL');
    killedAt = Date.now();
    const inFlightAtKill = await s.db
      .selectFrom('payments')
      .select(['status'])
      .where('merchant_id', '=', merchant.merchantId)
      .execute();
    const statesAtKill: Record<string, number> = {};
    for (const r of inFlightAtKill) statesAtKill[r.status] = (statesAtKill[r.status] ?? 0) + 1;

    // While no worker runs, more customers press Pay: the bank's token is an activity's answer, so
    // their Pay is answered 503 until a worker runs again, and they retry.
    const outage = inParallel(
      created.filter((c) => c.plan === 'pay_during_outage'),
      12,
      async ({ payment }) => {
        const chosen = await payThroughFaults(apis.long, merchant.key, payment.id, 'success');
        assert.ok(chosen.wentThrough || chosen.res.status === 303, chosen.res.text);
      },
    );
    await sleep(10_000);
    const restartAt = Date.now();
    await startWorker(s);
    const workerReadyAt = Date.now();
    await outage;
    await inParallel(
      created.filter((c) => c.plan === 'pay_during_outage'),
      12,
      async ({ payment }) => {
        const verified = await verifyThroughFaults(apis.long, merchant.key, payment);
        assert.equal(verified.res.status, 200, verified.res.text);
      },
    );
    await actions;

    const ids = created.map((c) => c.payment.id);
    const expected = new Map(created.map((c) => [c.payment.id, EXPECTED[c.plan]]));
    let unfinished: string[] = ids;
    await waitFor(
      'every payment to reach its final state in MySQL',
      async () => {
        const rows = await s.db.selectFrom('payments').select(['id', 'status']).where('id', 'in', ids).execute();
        unfinished = ids.filter((id) => rows.find((r) => r.id === id)?.status !== expected.get(id));
        const refunds = await s.db
          .selectFrom('refunds')
          .select('id')
          .where('payment_id', 'in', ids)
          .where('status', '=', 'pending')
          .execute();
        return unfinished.length === 0 && refunds.length === 0 ? true : undefined;
      },
      300_000,
      500,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; unfinished: ${unfinished.length}, e.g. ${unfinished.slice(0, 3).join(', ')}`);
    });
    const convergedAt = Date.now();
    const differing = await recordsDifferingFromWorkflows(s, ids);
    const money = await moneyCheck(s, ids);
    const rows = await s.db
      .selectFrom('payments')
      .select(['id'])
      .where('merchant_id', '=', merchant.merchantId)
      .execute();
    const events = await s.db
      .selectFrom('events')
      .select(['object_id', 'type'])
      .where('merchant_id', '=', merchant.merchantId)
      .execute();
    const eventKeys = events.map((e) => `${e.object_id}:${e.type}`);
    const duplicateEvents = eventKeys.length - new Set(eventKeys).size;

    const figures = {
      payments: ids.length,
      plans: Object.fromEntries(PLANS.map((p) => [p, created.filter((c) => c.plan === p).length])),
      states_in_mysql_at_kill: statesAtKill,
      worker_down_ms: restartAt - killedAt,
      new_worker_start_ms: workerReadyAt - restartAt,
      convergence_after_new_worker_ms: convergedAt - workerReadyAt,
      convergence_after_kill_ms: convergedAt - killedAt,
      lost: ids.length - rows.length + unfinished.length,
      duplicate_payments: rows.length - ids.length,
      records_differing_from_workflows: differing.length,
      duplicate_events: duplicateEvents,
      ...money,
    };
    recordFigures('worker_kill', figures);
    assert.equal(figures.lost, 0);
    assert.equal(figures.duplicate_payments, 0);
    assert.deepEqual(differing, []);
    assert.equal(duplicateEvents, 0);
    assert.equal(money.paid_back_twice, 0);
    assert.equal(money.reversals_missing, 0);
    assert.equal(money.ledger_mismatches, 0);
    assert.ok(figures.convergence_after_new_worker_ms < 240_000);
  });
});
