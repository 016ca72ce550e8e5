/**
 * Subscriptions end to end (docs/API.md#subscriptions, docs/SUBSCRIPTIONS.md#subscriptions) on the
 * real stack: the API, the subscription workflow and its debits' workflows on the suite's worker,
 * MySQL, and the Payman simulator. Each subscription's own clock is moved by the test helper, so a
 * month passes in a request: a monthly plan charges three periods (three verified debits, the ledger
 * balanced); a refused charge makes it past_due (with its webhook) and a retry makes it active again,
 * or the last retry cancels it; a cancel at the period's end stops the next charge, a cancel at once
 * stops it now; a mandate's cancel ends its subscriptions at once; bad input is refused with the documented error and writes nothing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Mandate } from '../../src/domain/mandate-schemas.ts';
import type { Plan, Subscription } from '../../src/domain/subscription-schemas.ts';
import type { Harness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { mandateOf, paymanFault } from '../support/mandates.ts';
import type { ReceivedDelivery, Receiver } from '../support/receiver.ts';
import { closeReceivers, merchantWithReceiver, type Api } from '../support/webhooks.ts';

interface Refusal {
  code: string;
  message: string;
  request_id: string;
  details?: { path: string; message: string }[];
}
const DAY = 24 * 3600;

describe('subscriptions (plans, the workflow, its test clock, debits, webhooks)', function () {
  this.timeout(180_000);
  let h: Harness;
  let api: Api;
  let rcv: Receiver;
  let merchantId: string;

  before(async () => {
    const m = await merchantWithReceiver([
      'subscription.created',
      'subscription.charged',
      'subscription.past_due',
      'subscription.canceled',
    ]);
    ({ h, api, rcv } = m);
    merchantId = m.merchant.merchantId;
  });
  after(async () => {
    await paymanFault('checkout', 'clear');
    await closeReceivers();
  });

  const plan = async (body: Record<string, unknown> = { name: 'Monthly', amount: 500_000, interval: 'month' }) => {
    const res = await api.post<{ plan: Plan }>('/plans', body, { idempotencyKey: randomUUID() });
    assert.equal(res.status, 201, res.text);
    return res.body.plan;
  };
  const mandate = () => mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 10, max_monthly_count: 20 });
  const subscribe = async (p: Plan, m: Mandate) => {
    const res = await api.post<{ subscription: Subscription }>(
      '/subscriptions',
      { plan_id: p.id, mandate_id: m.id },
      { idempotencyKey: randomUUID() },
    );
    assert.equal(res.status, 201, res.text);
    return res.body.subscription;
  };
  const get = async (id: string) =>
    (await api.get<{ subscription: Subscription }>(`/subscriptions/${id}`)).body.subscription;
  const until = (id: string, what: string, ok: (s: Subscription) => boolean) =>
    waitFor(`subscription ${what}`, async () => {
      const s = await get(id);
      return ok(s) ? s : undefined;
    });
  const advance = async (id: string, seconds: number) => {
    const res = await api.post<{ subscription: Subscription }>(`/test_helpers/subscriptions/${id}/advance`, {
      seconds,
    });
    assert.equal(res.status, 200, res.text);
    return res.body.subscription;
  };
  const debitsOf = (id: string) =>
    h.db
      .selectFrom('mandate_debits')
      .innerJoin('payments', 'payments.id', 'mandate_debits.payment_id')
      .select(['mandate_debits.idempotency_key', 'payments.status', 'payments.id', 'payments.amount'])
      .where('mandate_debits.idempotency_key', 'like', `subscription:${id}:%`)
      .orderBy('mandate_debits.created_at')
      .execute();
  const forSubscription = (id: string, type: string) => (d: ReceivedDelivery) =>
    d.event.data.subscription?.id === id && d.event.type === type;

  it('a monthly plan charges three periods under the test clock: three verified debits, the ledger balanced', async () => {
    const p = await plan();
    assert.equal(p.interval, 'month');
    assert.equal((await api.get<{ plan: Plan }>(`/plans/${p.id}`)).body.plan.amount, 500_000);
    const listed = await api.get<{ data: Plan[] }>('/plans');
    assert.ok(listed.body.data.some((x) => x.id === p.id));

    const s = await subscribe(p, await mandate());
    assert.equal(s.status, 'active');
    await rcv.waitForDeliveries(forSubscription(s.id, 'subscription.created'));
    // Period 0 is charged at once.
    await until(s.id, 'charged once', (x) => x.latest_payment_id !== null);
    // A month and an hour, twice: periods 1 and 2 fall due (each counted from the anchor).
    await advance(s.id, 31 * DAY + 3600);
    await until(s.id, 'in period 1', (x) => x.current_period === 1);
    await advance(s.id, 31 * DAY + 3600);
    const third = await until(s.id, 'in period 2', (x) => x.current_period === 2);
    assert.equal(third.status, 'active');

    const debits = await debitsOf(s.id);
    assert.deepEqual(
      debits.map((d) => [d.idempotency_key, d.status, Number(d.amount)]),
      [0, 1, 2].map((n) => [`subscription:${s.id}:${n}:0`, 'verified', 500_000]),
      'one verified debit per period',
    );
    assert.equal(third.latest_payment_id, debits[2]!.id);
    const charged = await rcv.waitForDeliveries(forSubscription(s.id, 'subscription.charged'), 3);
    assert.deepEqual(new Set(charged.map((d) => d.event.data.payment_id)), new Set(debits.map((d) => d.id)));
    await assertLedgerBalanced(h.db, 'after three periods', { merchantIds: [merchantId] });
    const all = await api.get<{ data: Subscription[] }>('/subscriptions');
    assert.ok(all.body.data.some((x) => x.id === s.id));
  });

  it('a refused charge makes it past_due (webhook) and a retry a day later makes it active again', async () => {
    const m = await mandate();
    const p = await plan();
    await paymanFault('checkout', 'refuse');
    let s: Subscription;
    try {
      s = await subscribe(p, m);
      const due = await until(s.id, 'past_due', (x) => x.status === 'past_due');
      assert.equal(due.failed_attempts, 1);
      const [hook] = await rcv.waitForDeliveries(forSubscription(s.id, 'subscription.past_due'));
      assert.equal(hook!.event.data.payment_id, due.latest_payment_id);
    } finally {
      await paymanFault('checkout', 'clear');
    }
    await advance(s.id, DAY + 60);
    const back = await until(s.id, 'active again', (x) => x.status === 'active');
    assert.equal(back.failed_attempts, 0);
    assert.equal(back.current_period, 0);
    const debits = await debitsOf(s.id);
    assert.deepEqual(
      debits.map((d) => [d.idempotency_key, d.status]),
      [
        [`subscription:${s.id}:0:0`, 'failed'],
        [`subscription:${s.id}:0:1`, 'verified'],
      ],
    );
    await rcv.waitForDeliveries(forSubscription(s.id, 'subscription.charged'));
  });

  it('when every retry is refused (1, 3 and 5 days after) it ends canceled, charge_failed', async () => {
    const m = await mandate();
    const p = await plan();
    await paymanFault('checkout', 'refuse');
    try {
      const s = await subscribe(p, m);
      await until(s.id, 'past_due', (x) => x.status === 'past_due');
      await advance(s.id, DAY + 60);
      await until(s.id, 'two failures', (x) => x.failed_attempts === 2);
      await advance(s.id, 3 * DAY + 60);
      await until(s.id, 'three failures', (x) => x.failed_attempts === 3);
      await advance(s.id, 5 * DAY + 60);
      const ended = await until(s.id, 'canceled', (x) => x.status === 'canceled');
      assert.equal(ended.cancel_reason, 'charge_failed');
      assert.equal((await debitsOf(s.id)).length, 4);
      await rcv.waitForDeliveries(forSubscription(s.id, 'subscription.canceled'));
    } finally {
      await paymanFault('checkout', 'clear');
    }
  });

  it('canceled at the period end: no charge after it, even past the next period', async () => {
    const s = await subscribe(await plan(), await mandate());
    await until(s.id, 'charged once', (x) => x.latest_payment_id !== null);
    const res = await api.post<{ subscription: Subscription }>(`/subscriptions/${s.id}/cancel`, {
      at_period_end: true,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.subscription.status, 'active');
    assert.equal(res.body.subscription.cancel_at_period_end, true);
    await advance(s.id, 40 * DAY);
    const ended = await until(s.id, 'canceled', (x) => x.status === 'canceled');
    assert.equal(ended.cancel_reason, 'requested');
    assert.equal((await debitsOf(s.id)).length, 1, 'only the first period was charged');
    await rcv.waitForDeliveries(forSubscription(s.id, 'subscription.canceled'));
  });

  it('canceled at once: canceled now, and nothing is charged after it', async () => {
    const s = await subscribe(await plan({ name: 'Weekly', amount: 100_000, interval: 'week' }), await mandate());
    await until(s.id, 'charged once', (x) => x.latest_payment_id !== null);
    const res = await api.post<{ subscription: Subscription }>(`/subscriptions/${s.id}/cancel`, {
      at_period_end: false,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.subscription.status, 'canceled');
    assert.ok(res.body.subscription.canceled_at !== null);
    const again = await api.post<{ subscription: Subscription }>(`/subscriptions/${s.id}/cancel`, {
      at_period_end: false,
    });
    assert.equal(again.body.subscription.status, 'canceled', 'a second cancel answers it as it is');
    const after = await api.post<Refusal>(`/test_helpers/subscriptions/${s.id}/advance`, { seconds: 8 * DAY });
    assert.equal(after.status, 200, after.text);
    assert.equal((await debitsOf(s.id)).length, 1);
  });

  it("a mandate's cancel ends its two subscriptions at once (mandate_canceled, webhooks) and nothing is charged after", async () => {
    const m = await mandate();
    const monthly = await subscribe(await plan(), m);
    const weekly = await subscribe(await plan({ name: 'Weekly', amount: 100_000, interval: 'week' }), m);
    for (const s of [monthly, weekly]) await until(s.id, 'charged once', (x) => x.latest_payment_id !== null);
    // One of them was already to end at its period's end: the mandate's end cancels it now all the same.
    const atEnd = await api.post<{ subscription: Subscription }>(`/subscriptions/${weekly.id}/cancel`, {
      at_period_end: true,
    });
    assert.equal(atEnd.body.subscription.cancel_at_period_end, true, atEnd.text);

    const res = await api.post<{ mandate: Mandate }>(`/mandates/${m.id}/cancel`, {});
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mandate.status, 'canceled');
    // The cancel answers once the subscriptions are ended: no waiting here.
    for (const s of [monthly, weekly]) {
      const ended = await get(s.id);
      assert.equal(ended.status, 'canceled', s.id);
      assert.equal(ended.cancel_reason, 'mandate_canceled');
      assert.ok(ended.canceled_at !== null);
      const [hook] = await rcv.waitForDeliveries(forSubscription(s.id, 'subscription.canceled'));
      assert.equal(hook!.event.data.subscription?.cancel_reason, 'mandate_canceled');
    }
    // Past every period and retry that would have fallen due: no further debit of either.
    for (const s of [monthly, weekly]) {
      const after = await api.post<Refusal>(`/test_helpers/subscriptions/${s.id}/advance`, { seconds: 40 * DAY });
      assert.equal(after.status, 200, after.text);
      assert.equal((await debitsOf(s.id)).length, 1, `${s.id}: only period 0 was charged`);
    }
    const again = await api.post<Refusal>(
      '/subscriptions',
      { plan_id: monthly.plan_id, mandate_id: m.id },
      {
        idempotencyKey: randomUUID(),
      },
    );
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'mandate_not_active');
  });

  it('bad input gets the documented error and writes nothing', async () => {
    const plansBefore = await h.db.selectFrom('plans').select('id').where('merchant_id', '=', merchantId).execute();
    for (const body of [
      { name: 'x', amount: 0, interval: 'month' },
      { name: 'x', amount: 1000, interval: 'fortnight' },
      { name: 'x', amount: 1000, interval: 'days' },
      { name: 'x', amount: 1000, interval: 'month', interval_days: 3 },
      { name: 'x', amount: 1000, interval: 'month', extra: 1 },
    ]) {
      const res = await api.post<Refusal>('/plans', body, { idempotencyKey: randomUUID() });
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.match(res.body.request_id, /^req_/);
    }
    const plansAfter = await h.db.selectFrom('plans').select('id').where('merchant_id', '=', merchantId).execute();
    assert.equal(plansAfter.length, plansBefore.length);

    const small = await mandateOf(h, api, { max_amount: 100_000, max_daily_count: 2, max_monthly_count: 5 });
    const pending = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 2, max_monthly_count: 5 }, false);
    const p = await plan();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ plan_id: p.id }, 422, 'validation_failed'],
      [{ plan_id: randomUUID(), mandate_id: small.id }, 404, 'plan_not_found'],
      [{ plan_id: p.id, mandate_id: randomUUID() }, 404, 'mandate_not_found'],
      [{ plan_id: p.id, mandate_id: pending.id }, 409, 'mandate_not_active'],
      [{ plan_id: p.id, mandate_id: small.id }, 422, 'mandate_limit_exceeded'],
    ];
    for (const [body, status, code] of cases) {
      const res = await api.post<Refusal>('/subscriptions', body, { idempotencyKey: randomUUID() });
      assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.code, code);
      assert.match(res.body.request_id, /^req_/);
    }
    const written = await h.db
      .selectFrom('subscriptions')
      .select('id')
      .where('mandate_id', 'in', [small.id, pending.id])
      .execute();
    assert.equal(written.length, 0);
    const missing = await api.get<Refusal>(`/subscriptions/${randomUUID()}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'subscription_not_found');
    const cancelBad = await api.post<Refusal>(`/subscriptions/${randomUUID()}/cancel`, {});
    assert.equal(cancelBad.status, 422);
  });
});
