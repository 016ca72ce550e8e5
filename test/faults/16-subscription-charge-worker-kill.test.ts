/**
 * kill -9 of the only worker while several subscriptions' charges are in flight (docs/SUBSCRIPTIONS.md,
 * issue 52): each subscription's next period is made due by its test clock, its debit is admitted and its
 * checkout reaches the Payman simulator, which takes the money but holds the answer (its `timeout` fault),
 * so the worker dies between the money moving and the gateway hearing of it, the worst moment of a
 * charge. A new worker retries the checkout with the authority recorded on the debit, the provider answers
 * the checkout it made, and every subscription ends its period charged exactly once: one checkout per
 * period in the provider's own ledger, one debit and one verified `direct_debit` payment per period at the
 * gateway, one `subscription.charged` each, nothing left reserved, and the ledger balanced.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Mandate } from '../../src/domain/mandate-schemas.ts';
import type { Plan, Subscription } from '../../src/domain/subscription-schemas.ts';
import { checkLedger } from '../../src/ledger/check.ts';
import { client, waitFor } from '../support/http.ts';
import { mandateOf, paymanCalls, paymanCheckouts, paymanFault } from '../support/mandates.ts';
import {
  faultApi,
  faultMerchant,
  getFaultStack,
  inParallel,
  recordFigures,
  startWorker,
} from '../support/faults/fault-stack.ts';

const SUBSCRIPTIONS = 6;
const AMOUNT = 500_000;
const DAY = 24 * 3600;

describe('fault: the worker is killed while subscriptions are being charged', () => {
  // A failure half-way must not leave the provider holding every later scenario's checkouts.
  afterEach(() => paymanFault('checkout', 'clear'));

  it('a new worker finishes every charge: one checkout, one debit and one payment per period, nothing lost', async () => {
    const s = await getFaultStack();
    const base = await faultApi();
    const m = await faultMerchant();
    const api = client(base, m.key);

    const planRes = await api.post<{ plan: Plan }>(
      '/plans',
      { name: 'Monthly', amount: AMOUNT, interval: 'month' },
      { idempotencyKey: randomUUID() },
    );
    assert.equal(planRes.status, 201, planRes.text);
    const plan = planRes.body.plan;
    // Two charges a day per mandate here (period 0 at once, period 1 by the clock), both within the limits.
    const mandates: Mandate[] = await inParallel(
      Array.from({ length: SUBSCRIPTIONS }, (_, i) => i),
      3,
      () =>
        mandateOf({ db: s.db, baseUrl: base }, api, {
          max_amount: 1_000_000,
          max_daily_count: 5,
          max_monthly_count: 10,
        }),
    );
    const subscriptions: Subscription[] = [];
    for (const mandate of mandates) {
      const res = await api.post<{ subscription: Subscription }>(
        '/subscriptions',
        { plan_id: plan.id, mandate_id: mandate.id },
        { idempotencyKey: randomUUID() },
      );
      assert.equal(res.status, 201, res.text);
      subscriptions.push(res.body.subscription);
    }
    const get = async (id: string) =>
      (await api.get<{ subscription: Subscription }>(`/subscriptions/${id}`)).body.subscription;
    // Period 0 is charged at once, with no fault: the charge under test is period 1's.
    await waitFor(
      'period 0 of every subscription charged',
      async () => {
        const now = await Promise.all(subscriptions.map((x) => get(x.id)));
        return now.every((x) => x.latest_payment_id !== null && x.status === 'active') ? true : undefined;
      },
      60_000,
      200,
    );
    // The contracts the mandates signed at the provider: its ledger is read through them.
    const contracts = new Map(
      (
        await s.db
          .selectFrom('mandates')
          .select(['id', 'provider_authority'])
          .where(
            'id',
            'in',
            mandates.map((x) => x.id),
          )
          .execute()
      ).map((r) => [r.id, r.provider_authority!]),
    );
    const ours = async () => {
      const signed = new Set(contracts.values());
      return (await paymanCheckouts()).filter((c) => c.contract !== null && signed.has(c.contract));
    };
    assert.equal((await ours()).length, SUBSCRIPTIONS, 'one checkout per subscription for period 0');

    // The provider takes the money of every checkout from now on and never answers it.
    await paymanFault('checkout', 'timeout');
    // Not awaited: an advance answers once the charges it started are recorded, which is after the new worker.
    const advanced = subscriptions.map((x) =>
      api.post<{ subscription: Subscription }>(`/test_helpers/subscriptions/${x.id}/advance`, {
        seconds: 31 * DAY + 3600,
      }),
    );
    // Each advance's outcome is kept, so one failing while the others still wait never goes unhandled.
    const answers = advanced.map((p) =>
      p.then(
        (res) => ({ res }),
        (error: unknown) => ({ error }),
      ),
    );
    await waitFor(
      "the provider to have taken every period 1's money",
      async () => ((await ours()).length === 2 * SUBSCRIPTIONS ? true : undefined),
      60_000,
      50,
    );
    const subscriptionIds = subscriptions.map((x) => x.id);
    const periodOneDebits = () =>
      s.db
        .selectFrom('mandate_debits')
        .innerJoin('payments', 'payments.id', 'mandate_debits.payment_id')
        .select([
          'mandate_debits.idempotency_key',
          'mandate_debits.status as debit_status',
          'mandate_debits.provider_authority',
          'payments.status',
        ])
        .where(
          'mandate_debits.idempotency_key',
          'in',
          subscriptionIds.map((id) => `subscription:${id}:1:0`),
        )
        .execute();
    const inFlight = await periodOneDebits();
    assert.equal(inFlight.length, SUBSCRIPTIONS, 'every period 1 debit admitted');
    assert.ok(
      inFlight.every((d) => d.debit_status === 'reserved' && d.provider_authority !== null && d.status === 'created'),
      `no answer recorded when the worker dies: ${JSON.stringify(inFlight)}`,
    );

    const killedAt = Date.now();
    await s.worker!.kill('SIGKILL');
    // The provider answers again; the held answers are lost with the dead worker's connections.
    await paymanFault('checkout', 'clear');
    const checkoutCallsAtRestart = (await paymanCalls()).checkout;
    await startWorker(s);
    const workerReadyAt = Date.now();

    const settled = await waitFor(
      'every subscription charged for period 1',
      async () => {
        const now = await Promise.all(subscriptionIds.map(get));
        return now.every((x) => x.current_period === 1 && x.status === 'active') ? now : undefined;
      },
      180_000,
      200,
    );
    const recordedAt = Date.now();

    // The provider's own ledger: exactly two checkouts per mandate (periods 0 and 1), none doubled.
    const checkouts = await ours();
    assert.equal(checkouts.length, 2 * SUBSCRIPTIONS, 'two checkouts per subscription at the provider');
    // Every checkout held at the kill was asked for again by the new worker, and answered as the first.
    const repeated = (await paymanCalls()).checkout - checkoutCallsAtRestart;
    assert.ok(repeated >= SUBSCRIPTIONS, `the new worker asked the provider again (${repeated} checkouts)`);

    for (const [i, sub] of settled.entries()) {
      const mandate = mandates[i]!;
      assert.equal(sub.id, subscriptions[i]!.id);
      assert.equal(sub.failed_attempts, 0);
      const debits = await s.db
        .selectFrom('mandate_debits')
        .innerJoin('payments', 'payments.id', 'mandate_debits.payment_id')
        .select([
          'mandate_debits.idempotency_key',
          'mandate_debits.status as debit_status',
          'mandate_debits.provider_authority',
          'mandate_debits.provider_reference',
          'payments.id',
          'payments.status',
          'payments.method',
          'payments.amount',
          'payments.reference_id',
        ])
        .where('mandate_debits.mandate_id', '=', mandate.id)
        .orderBy('mandate_debits.created_at')
        .execute();
      assert.deepEqual(
        debits.map((d) => [d.idempotency_key, d.debit_status, d.status, d.method, Number(d.amount)]),
        [0, 1].map((n) => [`subscription:${sub.id}:${n}:0`, 'taken', 'verified', 'direct_debit', AMOUNT]),
        'one taken debit and one verified direct_debit payment per period',
      );
      const atProvider = checkouts.filter((c) => c.contract === contracts.get(mandate.id));
      assert.deepEqual(
        atProvider.map((c) => [c.authority, c.amount, String(c.refrence_id)]).sort(),
        debits.map((d) => [d.provider_authority, AMOUNT, d.provider_reference]).sort(),
        "the provider's checkouts are the debits' authorities, once each, with the references recorded",
      );
      assert.ok(debits.every((d) => d.reference_id === d.provider_reference));
      assert.equal(sub.latest_payment_id, debits[1]!.id);
      const row = await s.db
        .selectFrom('mandates')
        .select('debits_admitted')
        .where('id', '=', mandate.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.debits_admitted), 2, 'the mandate counted two debits');
    }
    const charged = await s.db
      .selectFrom('events')
      .select(['object_id', 'type'])
      .where('merchant_id', '=', m.merchantId)
      .where('type', '=', 'subscription.charged')
      .execute();
    assert.deepEqual(
      charged.map((e) => e.object_id).sort(),
      subscriptionIds.flatMap((id) => [id, id]).sort(),
      'one subscription.charged per period',
    );
    const payments = await s.db
      .selectFrom('payments')
      .select(['status'])
      .where('merchant_id', '=', m.merchantId)
      .execute();
    assert.equal(payments.length, 2 * SUBSCRIPTIONS, 'no payment beyond the two periods');

    // Each advance answered once its charge was recorded, across the kill.
    for (const answer of await Promise.all(answers)) {
      assert.ok('res' in answer, `an advance failed: ${String((answer as { error: unknown }).error)}`);
      assert.equal(answer.res.status, 200, answer.res.text);
      assert.equal(answer.res.body.subscription.current_period, 1);
    }
    const ledger = await checkLedger(s.db);
    assert.ok(ledger.ok, `ledger check: ${JSON.stringify(ledger.breaks.slice(0, 5))}`);
    recordFigures('subscription-charge-worker-kill', {
      subscriptions: SUBSCRIPTIONS,
      checkouts_asked_again: repeated,
      seconds_from_kill_to_charged: Math.round((recordedAt - killedAt) / 1000),
      seconds_from_new_worker_to_charged: Math.round((recordedAt - workerReadyAt) / 1000),
    });
  });
});
