/**
 * The stuck-records sweep against the real stack (docs/RELIABILITY.md#waiting-states): a refund
 * recorded `pending` by the real record step with no run to pay it out is listed by `cli stuck`,
 * sent on by the sweep's activity and paid by the bank once however often the sweep runs; an event
 * whose deliveries were never started is delivered once; the schedule is created once and made
 * again only when a setting changes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createRecordActivities } from '../../activities/records.ts';
import { createSweepActivities } from '../../activities/sweep.ts';
import { recordEvent } from '../../src/db/events.ts';
import { paymentFromRow } from '../../src/db/payments.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import { statusAfterRefunds } from '../../src/domain/refund.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { STUCK_SWEEP_SCHEDULE_ID, type StuckRecord } from '../../src/domain/waiting-states.ts';
import { ensureStuckSweepSchedule } from '../../src/temporal/schedules.ts';
import { cliWith } from '../support/cli.ts';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { startReceiver } from '../support/receiver.ts';
import { REFUND_IBAN, refundsAtBank, verifiedPayment, waitForRefund } from '../support/refunds.ts';

const NOW = { after_ms: 0, batch_size: 1000 };
/** A batch of the single oldest record, and a refund recorded before any other test's. */
const OLDEST = { after_ms: 0, batch_size: 1 };
const LONG_AGO = new Date('2001-01-01T00:00:00Z');

/** What `cli stuck --json` lists, with every record past its bound at once. */
async function listedStuck(): Promise<StuckRecord[]> {
  const out = await cliWith({ STUCK_AFTER_SECONDS: '1' }, 'stuck', '--json');
  assert.equal(out.code, 0, out.stderr);
  const body = JSON.parse(out.stdout) as { count: number; records: StuckRecord[] };
  assert.equal(body.count, body.records.length);
  return body.records;
}

describe('the stuck-records sweep', () => {
  let h: Harness;
  before(async function () {
    this.timeout(120_000);
    h = await getHarness();
  });

  const sweep = () =>
    createSweepActivities({ db: h.db, logger: h.logger, temporal: h.temporal.client, config: h.config });

  it('a refund recorded pending with no run is listed, sent on, and paid by the bank once however often the sweep runs', async function () {
    this.timeout(120_000);
    const m = await newMerchant();
    const payment = await verifiedPayment(h.baseUrl, m.key);
    const row = await h.db.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
    // The record step of a refund whose run died before it went on: the refund `pending` (a part of a SEP
    // payment: paid to the IBAN given), the payment's next version.
    const amount = 40_000;
    const refund: Refund = {
      id: randomUUID(),
      payment_id: payment.id,
      amount,
      status: 'pending',
      reason: null,
      created_at: LONG_AGO.toISOString(),
      succeeded_at: null,
      failure: null,
      method: 'iban_payout',
      destination_iban: REFUND_IBAN,
    };
    const next = { ...paymentFromRow(row), refunded_amount: amount, status: statusAfterRefunds(payment, amount) };
    await createRecordActivities({
      db: h.db,
      logger: h.logger,
      temporal: h.temporal.client,
      config: h.config,
    }).recordRefund({
      refund,
      merchant_id: m.merchantId,
      mode: 'test',
      payment: { payment: next, version: row.version + 1 },
    });
    await new Promise((r) => setTimeout(r, 1_100)); // past the CLI's bound of 1 s
    const listed = (await listedStuck()).find((r) => r.id === refund.id);
    assert.ok(listed !== undefined, 'listed by cli stuck');
    assert.deepEqual(
      { record: listed.record, state: listed.state, past: listed.past },
      { record: 'refund', state: 'pending', past: 'sweep' },
    );
    assert.ok(listed.age_seconds >= 1 && listed.reason.length > 0);
    assert.deepEqual(await refundsAtBank(payment.id), [], 'nothing paid before the sweep');

    // The oldest pending refund, so a batch of one is this one, whatever refunds other tests of the suite left pending.
    assert.equal(await sweep().sendOnPendingRefunds(OLDEST), 1);
    await waitForRefund(h.baseUrl, m.key, refund.id, 'succeeded');
    // Runs again, and again: the refund is final and not picked; nothing is paid twice.
    await sweep().sendOnPendingRefunds(OLDEST);
    const ops = await refundsAtBank(payment.id);
    assert.deepEqual(
      ops.map((o) => Number(o.amount)),
      [amount],
      'one refund at the bank, of its amount',
    );
    assert.equal(
      (await listedStuck()).some((r) => r.id === refund.id),
      false,
      'no longer listed',
    );
  });

  it('an event whose delivery was never started is delivered by one delivery', async function () {
    this.timeout(120_000);
    const m = await newMerchant();
    const receiver = await startReceiver();
    try {
      const endpoint = await client(h.baseUrl, m.key).post<{ secret: string }>('/webhook_endpoints', {
        url: receiver.url,
      });
      assert.equal(endpoint.status, 201, endpoint.text);
      receiver.secrets.push(endpoint.body.secret);
      const payment = await verifiedPayment(h.baseUrl, m.key);
      // The event as the recording activity writes it, the activity dead before it started the deliveries.
      const event = await recordEvent(h.db, {
        sourceKey: `stuck-test:${randomUUID()}`,
        owner: tenantOf(m.merchantId, 'test'),
        type: 'payment.verified',
        objectId: payment.id,
        data: { payment },
        at: new Date(),
      });
      await new Promise((r) => setTimeout(r, 1_100)); // past the CLI's bound of 1 s
      assert.ok((await listedStuck()).some((r) => r.id === event.id && r.record === 'webhook_event'));
      assert.ok((await sweep().startMissingDeliveries(NOW)) >= 1);
      await receiver.waitForDeliveries((d) => d.id === event.id && d.answered === 200 && d.verifiedWith.length > 0);
      await sweep().startMissingDeliveries(NOW);
      const attempts = await h.db
        .selectFrom('webhook_attempts')
        .select('delivery_id')
        .where('event_id', '=', event.id)
        .execute();
      assert.equal(new Set(attempts.map((a) => a.delivery_id)).size, 1, 'one delivery');
      assert.equal(
        (await listedStuck()).some((r) => r.id === event.id),
        false,
        'no longer listed',
      );
    } finally {
      await receiver.close();
    }
  });

  it('the schedule is created once, and made again only when a setting changed', async function () {
    this.timeout(60_000);
    const config = {
      ...h.config,
      TEMPORAL_TASK_QUEUE: `sweep-schedule-${randomUUID()}`,
      STUCK_SWEEP_INTERVAL_SECONDS: 3600,
    };
    const handle = h.temporal.client.schedule.getHandle(STUCK_SWEEP_SCHEDULE_ID);
    await handle.delete().catch(() => undefined);
    try {
      await ensureStuckSweepSchedule(h.temporal.client, config);
      const first = await handle.describe();
      await ensureStuckSweepSchedule(h.temporal.client, config);
      const again = await handle.describe();
      assert.equal(again.info.createdAt.getTime(), first.info.createdAt.getTime(), 'the same schedule');
      await ensureStuckSweepSchedule(h.temporal.client, { ...config, STUCK_SWEEP_INTERVAL_SECONDS: 1800 });
      const changed = await handle.describe();
      assert.equal(Number(changed.spec.intervals?.[0]?.every), 1_800_000);
      assert.equal(changed.action.type === 'startWorkflow' && changed.action.taskQueue, config.TEMPORAL_TASK_QUEUE);
    } finally {
      await handle.delete().catch(() => undefined);
    }
  });
});
