/**
 * The operator CLI's direct debit commands (docs/OPERATIONS.md#mandates-and-subscriptions), run as an
 * operator runs them against the suite's stack: mandates and subscriptions listed and shown as the
 * API shows them (with the subscription's charges and events, never the mandate's signature), a
 * subscription canceled through its workflow (canceled, `subscription.canceled` sent, no charge
 * after), and the refusals: an unknown id, a bad --mode or --limit.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Mandate } from '../../src/domain/mandate-schemas.ts';
import type { Plan, Subscription } from '../../src/domain/subscription-schemas.ts';
import { cli } from '../support/cli.ts';
import type { Harness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { mandateOf } from '../support/mandates.ts';
import type { ReceivedDelivery, Receiver } from '../support/receiver.ts';
import { closeReceivers, merchantWithReceiver, type Api } from '../support/webhooks.ts';

const json = <T>(out: { code: number; stdout: string; stderr: string }): T => {
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout) as T;
};

describe('the operator CLI: mandates and subscriptions (list, show, cancel)', function () {
  this.timeout(120_000);
  let h: Harness;
  let api: Api;
  let rcv: Receiver;
  let merchantId: string;
  let mandate: Mandate;
  let subscription: Subscription;

  before(async () => {
    const m = await merchantWithReceiver(['subscription.canceled']);
    ({ h, api, rcv } = m);
    merchantId = m.merchant.merchantId;
    mandate = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 10, max_monthly_count: 20 });
    const plan = await api.post<{ plan: Plan }>(
      '/plans',
      { name: 'Weekly', amount: 100_000, interval: 'week' },
      { idempotencyKey: randomUUID() },
    );
    assert.equal(plan.status, 201, plan.text);
    const res = await api.post<{ subscription: Subscription }>(
      '/subscriptions',
      { plan_id: plan.body.plan.id, mandate_id: mandate.id },
      { idempotencyKey: randomUUID() },
    );
    assert.equal(res.status, 201, res.text);
    subscription = res.body.subscription;
    await waitFor('the first charge', async () => {
      const s = (await api.get<{ subscription: Subscription }>(`/subscriptions/${subscription.id}`)).body.subscription;
      return s.latest_payment_id !== null ? s : undefined;
    });
  });
  after(closeReceivers);

  it('lists and shows the mandate, as the API does, with its subscription and events; never the signature', async () => {
    const listed = json<{ data: Mandate[]; has_more: boolean }>(
      await cli('mandates', 'list', '--merchant', merchantId, '--mode', 'test', '--json'),
    );
    assert.deepEqual(
      listed.data.map((x) => x.id),
      [mandate.id],
    );
    const shown = await cli('mandates', 'show', mandate.id, '--json');
    assert.doesNotMatch(shown.stdout, /signature/);
    const view = json<{
      mandate: Mandate & { merchant_id: string };
      subscriptions: Subscription[];
      events: { type: string }[];
    }>(shown);
    assert.equal(view.mandate.status, 'active');
    assert.equal(view.mandate.merchant_id, merchantId);
    assert.deepEqual(
      view.subscriptions.map((s) => s.id),
      [subscription.id],
    );
    assert.ok(view.events.some((e) => e.type === 'mandate.active'));
    const text = await cli('mandates', 'show', mandate.id);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`mandate ${mandate.id} \\(test, \\w+\\): active`));
    assert.match(text.stdout, new RegExp(`subscription ${subscription.id} \\(test\\): active`));
  });

  it('lists and shows the subscription with its charge and events', async () => {
    const listed = json<{ data: Subscription[] }>(
      await cli('subscriptions', 'list', '--merchant', merchantId, '--mode', 'test', '--limit', '5', '--json'),
    );
    assert.deepEqual(
      listed.data.map((x) => x.id),
      [subscription.id],
    );
    const view = json<{
      subscription: Subscription;
      charges: { key: string; payment_status: string; amount: number }[];
      events: { type: string }[];
    }>(await cli('subscriptions', 'show', subscription.id, '--json'));
    assert.equal(view.subscription.status, 'active');
    assert.deepEqual(
      view.charges.map((c) => [c.key, c.payment_status, c.amount]),
      [[`subscription:${subscription.id}:0:0`, 'verified', 100_000]],
    );
    assert.deepEqual(
      view.events.map((e) => e.type),
      ['subscription.created', 'subscription.charged'],
    );
  });

  it('cancels the subscription through its workflow: canceled, its webhook, nothing charged after', async () => {
    const canceled = json<{ subscription: Subscription }>(
      await cli('subscriptions', 'cancel', subscription.id, '--json'),
    );
    assert.equal(canceled.subscription.status, 'canceled');
    assert.equal(canceled.subscription.cancel_reason, 'requested');
    await rcv.waitForDeliveries(
      (d: ReceivedDelivery) =>
        d.event.type === 'subscription.canceled' && d.event.data.subscription?.id === subscription.id,
    );
    const again = await cli('subscriptions', 'cancel', subscription.id);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /: canceled \(requested\)/);
    const advanced = await api.post(`/test_helpers/subscriptions/${subscription.id}/advance`, { seconds: 8 * 86_400 });
    assert.equal(advanced.status, 200, advanced.text);
    const view = json<{ charges: unknown[] }>(await cli('subscriptions', 'show', subscription.id, '--json'));
    assert.equal(view.charges.length, 1);
  });

  it('refuses an unknown id, a bad --mode or --limit, and a missing --merchant, with a reason', async () => {
    const missing = await cli('subscriptions', 'show', randomUUID());
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: No subscription /);
    assert.match((await cli('mandates', 'show', randomUUID())).stderr, /^error: No mandate /);
    assert.match((await cli('subscriptions', 'cancel', randomUUID())).stderr, /^error: No subscription /);
    const mode = await cli('mandates', 'list', '--merchant', merchantId, '--mode', 'prod');
    assert.equal(mode.code, 2);
    assert.match(mode.stderr, /--mode must be test or live/);
    const limit = await cli('subscriptions', 'list', '--merchant', merchantId, '--limit', '500');
    assert.equal(limit.code, 2);
    assert.match((await cli('mandates', 'list')).stderr, /--merchant is required/);
  });
});
