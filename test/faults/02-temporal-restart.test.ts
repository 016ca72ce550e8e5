/**
 * The Temporal dev server (persistent SQLite) is killed while many timers are
 * pending and comes back after every deadline has passed: every expiry and
 * every reversal still happens, late by no more than the outage.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { waitFor } from '../support/http.ts';
import { chooseOutcome, createPayment, waitForStatus } from '../support/payments.ts';
import {
  faultApi,
  faultMerchant,
  getFaultStack,
  inParallel,
  recordFigures,
  restartTemporal,
} from '../support/faults/fault-stack.ts';
import { moneyCheck, recordsDifferingFromWorkflows, untilAnswered } from '../support/faults/checks.ts';

const EACH = 50;
/** Time the worker may take to work through a backlog of 100 fired timers on this 2-core machine. */
const PROCESSING_MARGIN_MS = 30_000;

describe('fault: the Temporal server is killed and restarted with timers pending', () => {
  it('every expiry and reversal happens after the restart, late by no more than the outage', async () => {
    const s = await getFaultStack();
    const merchant = await faultMerchant();
    const expiring = await faultApi({ PAYMENT_TTL_SECONDS: '30' });
    const reversing = await faultApi({ VERIFY_WINDOW_SECONDS: '30' });
    const toExpire = await inParallel(
      Array.from({ length: EACH }, (_, i) => i),
      10,
      async (i) => {
        const { res } = await untilAnswered(() => createPayment(expiring, merchant.key, {}, `t-expire-${i}`));
        return res.body.payment;
      },
    );
    const toReverse = await inParallel(
      Array.from({ length: EACH }, (_, i) => i),
      10,
      async (i) => {
        const { res } = await untilAnswered(() => createPayment(reversing, merchant.key, {}, `t-reverse-${i}`));
        assert.equal((await chooseOutcome(reversing, res.body.payment.id, 'success')).status, 303);
        return waitForStatus(reversing, merchant.key, res.body.payment.id, 'paid', 60_000);
      },
    );
    const deadlines = new Map([
      ...toExpire.map((p) => [p.id, Date.parse(p.expires_at)] as const),
      ...toReverse.map((p) => [p.id, Date.parse(p.verify_deadline_at!)] as const),
    ]);
    const lastDeadline = Math.max(...deadlines.values());

    const pendingBefore = await s.db
      .selectFrom('payments')
      .select('id')
      .where('id', 'in', [...deadlines.keys()])
      .where('status', 'in', ['created', 'paid'])
      .execute();
    s.temporalServer.process.kill('SIGKILL');
    const downAt = Date.now();
    // Down until every deadline has passed: each timer fires only after the restart.
    await sleep(Math.max(10_000, lastDeadline - Date.now() + 5_000));
    await restartTemporal(s);
    const upAt = Date.now();
    const outageMs = upAt - downAt;

    const ids = [...deadlines.keys()];
    await waitFor(
      'every timer to have fired and been recorded',
      async () => {
        const rows = await s.db
          .selectFrom('payments')
          .select('id')
          .where('id', 'in', ids)
          .where('status', 'in', ['expired', 'reversed'])
          .execute();
        return rows.length === ids.length ? true : undefined;
      },
      240_000,
      500,
    );
    const doneAt = Date.now();
    const rows = await s.db
      .selectFrom('payments')
      .select(['id', 'status', 'updated_at'])
      .where('id', 'in', ids)
      .execute();
    const lateness = rows.map((r) => r.updated_at.getTime() - deadlines.get(r.id)!);
    const differing = await recordsDifferingFromWorkflows(s, ids);
    const money = await moneyCheck(s, ids);
    const figures = {
      timers_pending_at_kill: pendingBefore.length,
      expiries: rows.filter((r) => r.status === 'expired').length,
      reversals: rows.filter((r) => r.status === 'reversed').length,
      outage_ms: outageMs,
      max_lateness_ms: Math.max(...lateness),
      median_lateness_ms: lateness.sort((a, b) => a - b)[Math.floor(lateness.length / 2)],
      all_recorded_after_restart_ms: doneAt - upAt,
      worker_survived: s.worker?.alive ?? false,
      records_differing_from_workflows: differing.length,
      ...money,
    };
    recordFigures('temporal_restart', figures);
    assert.equal(figures.timers_pending_at_kill, 2 * EACH);
    assert.equal(figures.expiries, EACH);
    assert.equal(figures.reversals, EACH);
    assert.ok(
      figures.max_lateness_ms <= outageMs + PROCESSING_MARGIN_MS,
      `lateness ${figures.max_lateness_ms} ms, outage ${outageMs} ms`,
    );
    assert.ok(figures.worker_survived, 'the worker reconnected by itself');
    assert.deepEqual(differing, []);
    assert.equal(money.paid_back_twice, 0);
    assert.equal(money.reversals_missing, 0);
    assert.equal(money.reversal_operations, EACH);
  });
});
