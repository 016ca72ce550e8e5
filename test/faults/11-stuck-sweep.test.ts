/**
 * Nothing stays stuck (docs/RELIABILITY.md#waiting-states): the worker is killed at the refund's
 * record step (a refund to a typed IBAN, recorded `pending` when the operator approves it), round after
 * round, with no merchant or operator retrying anything; a payout's answer is lost
 * with the run that asked for it. The stuck-records sweep pays every refund left behind exactly
 * once, starts the deliveries of the events nobody delivered, and asks the payout again under its
 * key: one refund each at the bank, one transfer, every event delivered, `ledger check` clean.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { refundsWorkflowId } from '../../src/domain/payment-workflow.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import {
  SETTLEMENT_WORKFLOW,
  settlementWorkflowId,
  type SettlementWorkflowInput,
} from '../../src/domain/settlement.ts';
import { tehranDay } from '../../src/domain/calendar.ts';
import { checkLedger } from '../../src/ledger/check.ts';
import { stuckRecords } from '../../src/db/stuck.ts';
import { refundFromRow } from '../../src/db/refunds.ts';
import { bankFault, payoutTransfers } from '../support/bank.ts';
import { LIVE_BANK } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { paidPayment } from '../support/payments.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { verifyThroughFaults } from '../support/faults/checks.ts';
import {
  faultApi,
  faultMerchant,
  getFaultStack,
  inParallel,
  issuedSecrets,
  recordFigures,
  startWorker,
  WorkerProcess,
  type FaultStack,
} from '../support/faults/fault-stack.ts';
import { approveTypedIban, REFUND_IBAN, refundsAtBank, type OperatorServices } from '../support/refunds.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

/** Kill rounds: each kills the worker at the first refund it records. The last also loses the runs the dead worker held. */
const ROUNDS = 3;
const REFUNDS_PER_ROUND = 4;
/** The sweep of this scenario: every 5 s, for records waiting over 20 s. */
const SWEEP = { STUCK_SWEEP_INTERVAL_SECONDS: '5', STUCK_AFTER_SECONDS: '20' };

/** Whether the payment's refunds workflow has a run open (one that is paying out). */
async function refundsRunOpen(s: FaultStack, paymentId: string): Promise<boolean> {
  try {
    const described = await s.temporal.workflow.getHandle(refundsWorkflowId(paymentId)).describe();
    return described.status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** Refunds of these payments recorded `pending` with no run paying them out: left behind. */
async function leftBehind(s: FaultStack, paymentIds: string[]): Promise<string[]> {
  if (paymentIds.length === 0) return [];
  const pending = await s.db
    .selectFrom('refunds')
    .select(['id', 'payment_id'])
    .where('payment_id', 'in', paymentIds)
    .where('status', '=', 'pending')
    .execute();
  const behind: string[] = [];
  for (const r of pending) if (!(await refundsRunOpen(s, r.payment_id))) behind.push(r.id);
  return behind;
}

/** SIGKILL of the worker the moment it logs a refund recorded `pending`: inside the record step's workflow task. */
function killAtRefundRecord(worker: WorkerProcess): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (!/"msg":"refund recorded"[^\n]*"status":"pending"|"status":"pending"[^\n]*"msg":"refund recorded"/.test(text))
        return;
      worker.child.stdout?.off('data', onData);
      worker.child.kill('SIGKILL');
      worker.child.once('exit', () => resolve());
    };
    worker.child.stdout?.on('data', onData);
  });
}

describe('fault: records left waiting by killed workers and lost answers are swept on', () => {
  let s: FaultStack;
  let receiver: Receiver | undefined;

  after(async function () {
    this.timeout(240_000);
    await bankFault(null);
    await receiver?.close();
    // The scenarios after this one run with the default sweep again.
    await s.worker?.kill('SIGKILL');
    await startWorker(s);
  });

  it('every refund left behind is paid once, every event delivered, the payout paid once; ledger check clean', async function () {
    this.timeout(900_000);
    s = await getFaultStack();
    const merchant = await faultMerchant();
    const api = await faultApi();
    receiver = await startReceiver();
    const endpoint = await client(api, merchant.key).post<{ secret: string }>('/webhook_endpoints', {
      url: receiver.url,
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    receiver.secrets.push(endpoint.body.secret);
    issuedSecrets.push(endpoint.body.secret);

    // Verified payments to refund, a quarter of each amount.
    const payments = await inParallel(
      Array.from({ length: ROUNDS * REFUNDS_PER_ROUND }, (_, i) => i),
      4,
      async (i) => {
        const paid = await paidPayment(api, merchant.key, { amount: 1_000_000 + i * 10_000 });
        const verified = await verifyThroughFaults(api, merchant.key, paid);
        assert.equal(verified.res.status, 200, verified.res.text);
        return verified.res.body.payment;
      },
    );

    // A payout whose answer is lost: the bank makes the transfer and never answers, and the run that asked is gone.
    const liveApi = await faultApi(LIVE_BANK());
    const live = await liveMerchant({ db: s.db, temporal: s.temporal, config: s.baseConfig });
    issuedSecrets.push(live.testKey, live.liveKey);
    await verifiedLivePayment(liveApi, live.liveKey, 3_000_000, liveApi);
    await bankFault({ operation: 'payout', fault: 'timeout', times: 1 });
    const settlementId = randomUUID();
    const input: SettlementWorkflowInput = {
      settlement_id: settlementId,
      merchant_id: live.merchantId,
      cutoff: new Date().toISOString(),
      date: tehranDay(new Date()),
    };
    const settlementRun = await s.temporal.workflow.start(SETTLEMENT_WORKFLOW, {
      workflowId: settlementWorkflowId(settlementId),
      taskQueue: s.baseConfig.TEMPORAL_TASK_QUEUE,
      args: [input],
    });
    await waitFor(
      'the bank to have made the transfer',
      async () => ((await payoutTransfers(settlementId)).length > 0 ? true : undefined),
      60_000,
      50,
    );
    await settlementRun.terminate('the answer is lost with the run that asked');
    assert.equal(
      (await s.db.selectFrom('settlements').select('status').where('id', '=', settlementId).executeTakeFirstOrThrow())
        .status,
      'pending',
    );

    // The kill rounds: refunds sent once each (a 503 is not retried), each held for its typed IBAN
    // (docs/PAYMENTS.md#refund-states); then the operator approves them all at once, once each, and the worker
    // is killed at the first `pending` record those approvals make.
    const operator: OperatorServices = { db: s.db, temporal: s.temporal, config: s.baseConfig };
    const answers: Record<string, number> = {};
    const approvals: Record<string, number> = {};
    let naturallyLeftBehind = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const group = payments.slice(round * REFUNDS_PER_ROUND, (round + 1) * REFUNDS_PER_ROUND);
      const held: Refund[] = [];
      await Promise.all(
        group.map(async (p: Payment) => {
          const res = await client(api, merchant.key).post<{ refund: Refund }>(
            `/payments/${p.id}/refunds`,
            { destination_iban: REFUND_IBAN, amount: Math.floor(p.amount / 4) },
            { idempotencyKey: `stuck-${p.id}` },
          );
          answers[res.status] = (answers[res.status] ?? 0) + 1;
          if (res.status === 201) held.push(res.body.refund);
        }),
      );
      const killed = killAtRefundRecord(s.worker!);
      // Not awaited before the kill: an approval the dead worker held is answered once a worker takes it again.
      const approving = Promise.all(
        held.map((r) =>
          approveTypedIban(r, operator).then(
            () => 'approved',
            () => 'not answered',
          ),
        ),
      );
      await killed;
      const ids = group.map((p) => p.id);
      if (round === ROUNDS - 1) {
        // The last round also loses the runs the dead worker held, as a lost workflow task does: their
        // refunds stay recorded `pending` in MySQL with nothing to pay them out.
        for (const id of ids)
          await s.temporal.workflow
            .getHandle(refundsWorkflowId(id))
            .terminate('its workflow task was lost with the worker')
            .catch(() => undefined);
        for (const outcome of await approving) approvals[outcome] = (approvals[outcome] ?? 0) + 1;
        break;
      }
      await startWorker(s);
      for (const outcome of await approving) approvals[outcome] = (approvals[outcome] ?? 0) + 1;
      // What a new worker makes of the round by itself (the default sweep waits 10 minutes).
      const settled = await waitFor(
        'the round to settle',
        async () => {
          const open = await Promise.all(ids.map((id) => refundsRunOpen(s, id)));
          return open.some(Boolean) ? undefined : true;
        },
        120_000,
        500,
      ).catch(() => false);
      if (settled) naturallyLeftBehind += (await leftBehind(s, ids)).length;
    }

    const ids = payments.map((p) => p.id);
    const behind = await leftBehind(s, ids);
    const refunds = await s.db
      .selectFrom('refunds')
      .select(['id', 'payment_id', 'amount'])
      .where('payment_id', 'in', ids)
      .execute();
    const undelivered = (await stuckRecords(s.db, { ...s.baseConfig, STUCK_AFTER_SECONDS: 0 })).filter(
      (r) => r.record === 'webhook_event',
    ).length;
    assert.ok(behind.length >= 1, 'at least one refund is left behind without a run');

    // The worker with this scenario's sweep: the schedule is made again with its settings.
    const sweptFrom = Date.now();
    s.worker = await WorkerProcess.start('worker-sweep', { ...s.workerEnv, ...SWEEP });
    // The last round's approvals that the lost runs never recorded: the operator approves those again, as a
    // retried `cli refunds approve` does (a decision is read on the record, by whichever run takes it).
    const stillHeld = await s.db
      .selectFrom('refunds')
      .selectAll()
      .where('payment_id', 'in', ids)
      .where('status', '=', 'awaiting_approval')
      .execute();
    for (const r of stillHeld) await approveTypedIban(refundFromRow(r), operator);
    await waitFor(
      'every refund paid out',
      async () => {
        const pending = await s.db
          .selectFrom('refunds')
          .select('id')
          .where('payment_id', 'in', ids)
          .where('status', 'in', ['pending', 'awaiting_approval'])
          .execute();
        return pending.length === 0 ? true : undefined;
      },
      180_000,
      500,
    );
    await waitFor(
      'the payout recorded',
      async () => {
        const row = await s.db
          .selectFrom('settlements')
          .select('status')
          .where('id', '=', settlementId)
          .executeTakeFirstOrThrow();
        return row.status === 'pending' ? undefined : row.status;
      },
      180_000,
      500,
    );
    const events = await s.db
      .selectFrom('events')
      .select('id')
      .where('merchant_id', '=', merchant.merchantId)
      .where('mode', '=', 'test')
      .execute();
    await waitFor(
      'every event delivered',
      async () => {
        const delivered = new Set(
          receiver!.deliveries.filter((d) => d.answered === 200 && d.verifiedWith.length > 0).map((d) => d.id),
        );
        return events.every((e) => delivered.has(e.id)) ? true : undefined;
      },
      180_000,
      500,
    );
    const secondsToSwept = Math.round((Date.now() - sweptFrom) / 1000);

    // Money moved once: one refund at the bank for each refund, of its amount, each succeeded.
    const statuses = await s.db.selectFrom('refunds').select(['id', 'status']).where('payment_id', 'in', ids).execute();
    assert.deepEqual(
      statuses.filter((r) => r.status !== 'succeeded'),
      [],
      'every refund succeeded',
    );
    let paidTwice = 0;
    for (const p of payments) {
      const atBank = await refundsAtBank(p.id);
      const recorded = refunds.filter((r) => r.payment_id === p.id);
      if (atBank.length !== recorded.length) paidTwice += 1;
      assert.deepEqual(
        atBank.map((o) => Number(o.amount)).sort(),
        recorded.map((r) => Number(r.amount)).sort(),
        `payment ${p.id}: one bank refund per refund`,
      );
    }
    assert.equal(paidTwice, 0);
    const transfers = await payoutTransfers(settlementId);
    assert.equal(transfers.length, 1, 'one transfer');
    assert.equal(
      (await s.db.selectFrom('settlements').select('status').where('id', '=', settlementId).executeTakeFirstOrThrow())
        .status,
      'paid',
    );
    // Each event delivered by one delivery (the sweep never started a second).
    const deliveries = await s.db
      .selectFrom('webhook_attempts')
      .select(['event_id', 'delivery_id'])
      .where(
        'event_id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    const perEvent = new Map<string, Set<string>>();
    for (const d of deliveries) perEvent.set(d.event_id, (perEvent.get(d.event_id) ?? new Set()).add(d.delivery_id));
    assert.deepEqual(
      [...perEvent.values()].filter((set) => set.size > 1),
      [],
      'one delivery per event',
    );
    const ledger = await checkLedger(s.db);
    assert.equal(ledger.ok, true, JSON.stringify(ledger));
    const mine = new Set([...refunds.map((r) => r.id), ...events.map((e) => e.id), settlementId]);
    const stillWaiting = async () =>
      (await stuckRecords(s.db, { ...s.baseConfig, STUCK_AFTER_SECONDS: 0 })).filter((r) => mine.has(r.id));
    // A delivery's attempt is recorded by its activity once the receiver has answered, so the last event the
    // receiver took may have no attempt row yet (CI saw one such, 21 s old): what waits is given half a minute.
    let waiting = await stillWaiting();
    for (const until = Date.now() + 30_000; waiting.length > 0 && Date.now() < until; waiting = await stillWaiting()) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.deepEqual(waiting, [], 'nothing of this scenario waits any more');

    recordFigures('stuck-sweep', {
      kills: ROUNDS,
      refunds_recorded: refunds.length,
      refund_requests_answered: answers,
      refund_approvals_answered: approvals,
      refunds_approved_again_after_the_lost_runs: stillHeld.length,
      refunds_left_behind_by_the_new_worker_alone: naturallyLeftBehind,
      refunds_left_behind_before_the_sweep: behind.length,
      events_without_delivery_before_the_sweep: undelivered,
      payouts_without_answer_before_the_sweep: 1,
      refunds_paid_twice: paidTwice,
      bank_refunds: refunds.length,
      payout_transfers: transfers.length,
      seconds_from_sweep_worker_start_to_all_done: secondsToSwept,
      ledger_check: ledger.ok,
    });
  });
});
