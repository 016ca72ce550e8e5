/**
 * Settlement against the real stack: live payments paid through the bank
 * simulator, the settlement workflow on the real worker, the payout at the
 * simulator's Paya endpoint, the ledger checked after.
 */
import assert from 'node:assert/strict';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { SETTLEMENT_RUN_WORKFLOW, SETTLEMENT_SCHEDULE_ID, settlementWorkflowId } from '../../src/domain/settlement.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { ScheduleHandle } from '@temporalio/client';
import { ensureSettlementSchedule } from '../../src/temporal/schedules.ts';
import type { Settlement, SettlementLine } from '../../src/domain/settlement-schemas.ts';
import { retrySettlement, setSettlementIban } from '../../src/settlements/service.ts';
import { apiWith, getHarness, LIVE_BANK, liveBankApi } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import {
  answeredLivePayment,
  createdLivePayment,
  GOOD_DOCUMENTS,
  liveMerchant,
  verifiedLivePayment,
} from '../support/live.ts';
import { waitForStatus } from '../support/payments.ts';
import { approvedIfTypedIban, approveTypedIban, REFUND_IBAN, waitForRefund } from '../support/refunds.ts';
import { bankFault, payoutTransfers } from '../support/bank.ts';
import {
  defaultPlanFee as fee,
  runSettlement,
  SETTLEMENT_IBAN as IBAN,
  settleNow,
  settlementsOf,
} from '../support/settlement.ts';

/** What the schedule did and what its runs are doing: said when the scheduled run has not settled in time. */
async function scheduledRunsSeen(schedule: ScheduleHandle): Promise<string> {
  const { info } = await schedule.describe();
  const h = await getHarness();
  const runs: string[] = [];
  for await (const run of h.temporal.client.workflow.list({
    query: `WorkflowType = '${SETTLEMENT_RUN_WORKFLOW}' AND StartTime > '${new Date(Date.now() - 600_000).toISOString()}'`,
  })) {
    runs.push(`${run.workflowId} ${run.status.name} from ${run.startTime.toISOString()}`);
  }
  const fired = info.recentActions.map((a) => `${a.action.workflow.workflowId} at ${a.takenAt.toISOString()}`);
  return `the schedule fired: [${fired.join(', ')}], next at ${info.nextActionTimes[0]?.toISOString() ?? '(none)'}; settlement runs of the last ten minutes: [${runs.join(', ')}]`;
}

describe('settlement', () => {
  afterEach(() => bankFault(null));

  it('settles verified live payments less fees and refunds to the rial, pays the IBAN once, and a refund after settlement is carried', async function () {
    this.timeout(180_000);
    const h = await getHarness();
    const m = await liveMerchant();
    await setSettlementIban(h.db, m.merchantId, IBAN);
    const api = client(h.baseUrl, m.liveKey);
    const liveApi = await liveBankApi();
    const first = await verifiedLivePayment(liveApi, m.liveKey, 2_000_000);
    const second = await verifiedLivePayment(liveApi, m.liveKey, 1_000_000);
    const refund = await client(liveApi, m.liveKey).post<{ refund: Refund }>(`/payments/${first.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 500_000,
    });
    assert.equal(refund.status, 201, refund.text);
    // A typed IBAN is held until the operator approves it; settlement deducts it from then on.
    await approveTypedIban(refund.body.refund);
    // Expected from the inputs: the default plan takes 1 % (within 1,000..400,000 rials).
    const expectedNet = 2_000_000 - 20_000 + (1_000_000 - 10_000) - 500_000;

    const { id, outcome } = await settleNow(m.merchantId);
    assert.deepEqual(outcome, { result: 'paid', settlement_id: id, net: expectedNet });
    const got = await api.get<{ settlement: Settlement; lines: SettlementLine[] }>(`/settlements/${id}`);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.settlement.status, 'paid');
    assert.deepEqual(
      [got.body.settlement.gross, got.body.settlement.fees, got.body.settlement.refunds, got.body.settlement.net],
      [3_000_000, 30_000, 500_000, expectedNet],
    );
    assert.equal(got.body.lines.length, 3);
    const transfers = await payoutTransfers(id);
    assert.deepEqual(
      transfers.map((t) => [t.transfer_id, t.amount, t.iban]),
      [[`payout:${id}:1`, expectedNet, IBAN]],
    );
    const csv = await fetch(`${h.baseUrl}/api/v1/settlements/${id}/lines.csv`, {
      headers: { authorization: `Bearer ${m.liveKey}` },
    });
    assert.equal(csv.status, 200);
    const csvLines = (await csv.text()).trim().split('\r\n');
    assert.equal(csvLines[0], 'kind,object_id,payment_id,amount,fee,net,iban');
    assert.equal(csvLines.length, 4);
    for (const p of [first, second]) {
      const row = await h.db
        .selectFrom('payments')
        .select('settlement_status')
        .where('id', '=', p.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.settlement_status, 'settled');
    }
    const events = await api.get<{ data: { type: string; data: { settlement?: Settlement } }[] }>(
      '/events?type=settlement.paid',
    );
    assert.deepEqual(
      events.body.data.map((e) => e.data.settlement?.id),
      [id],
    );

    // A refund after settlement: the next settlement deducts it, and a negative net is carried, never paid.
    const late = await client(liveApi, m.liveKey).post<{ refund: Refund }>(`/payments/${second.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_000,
    });
    assert.equal(late.status, 201, late.text);
    await approveTypedIban(late.body.refund);
    const next = await settleNow(m.merchantId);
    assert.deepEqual(next.outcome, { result: 'carried', net: -100_000 });
    assert.deepEqual(await payoutTransfers(next.id), []);
    const third = await verifiedLivePayment(liveApi, m.liveKey, 300_000);
    const after = await settleNow(m.merchantId);
    assert.deepEqual(after.outcome, { result: 'paid', settlement_id: after.id, net: 300_000 - 3_000 - 100_000 });
    assert.equal(third.status, 'verified');
    const balance = await api.get<{ balance: { available: number; in_payout: number } }>('/balance');
    assert.equal(balance.status, 200, balance.text);
    assert.deepEqual([balance.body.balance.available, balance.body.balance.in_payout], [0, 0]);
    await assertLedgerBalanced(h.db, 'after settlement', { merchantIds: [m.merchantId] });
  });

  it('a payout the bank refuses ends failed and is paid once by the operator retry', async function () {
    this.timeout(180_000);
    const h = await getHarness();
    const m = await liveMerchant();
    await setSettlementIban(h.db, m.merchantId, IBAN);
    await verifiedLivePayment(await liveBankApi(), m.liveKey, 1_000_000);
    await bankFault({ operation: 'payout', fault: 'unknown', times: 1 });
    const { id, outcome } = await settleNow(m.merchantId);
    assert.deepEqual(outcome, { result: 'failed', settlement_id: id, net: 990_000 });
    assert.deepEqual(await payoutTransfers(id), []);
    const retried = await retrySettlement(h.db, h.temporal.client, h.config, id);
    assert.equal(retried.attempt, 2);
    const paid = await waitFor(
      'the retried settlement to be paid',
      async () => {
        const row = await h.db.selectFrom('settlements').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return row.status === 'paid' ? row : undefined;
      },
      60_000,
    );
    assert.equal(Number(paid.net), 990_000);
    assert.deepEqual(
      (await payoutTransfers(id)).map((t) => [t.transfer_id, t.amount]),
      [[`payout:${id}:2`, 990_000]],
    );
    await assert.rejects(retrySettlement(h.db, h.temporal.client, h.config, id), /already paid/);
    await assertLedgerBalanced(h.db, 'after the retried payout', { merchantIds: [m.merchantId] });
  });
});

describe('settlement of a day', () => {
  it('a day of live payments in every final state settles to exactly the expected net per merchant, to the approved IBAN', async function () {
    this.timeout(300_000);
    const h = await getHarness();
    const liveApi = await liveBankApi();
    const expiringApi = await apiWith({ ...LIVE_BANK(), PAYMENT_TTL_SECONDS: '1' });
    const a = await liveMerchant();
    const b = await liveMerchant();
    const apiA = client(liveApi, a.liveKey);
    const apiB = client(liveApi, b.liveKey);
    const refund = async (api: ReturnType<typeof client>, key: string, p: Payment, amount: number) => {
      const res = await api.post<{ refund: Refund }>(`/payments/${p.id}/refunds`, {
        destination_iban: REFUND_IBAN,
        amount,
      });
      assert.equal(res.status, 201, res.text);
      // A part is a transfer to the typed IBAN, held until the operator approves it; the whole payment its reversal.
      await approvedIfTypedIban(res.body.refund);
      return waitForRefund(liveApi, key, res.body.refund.id, 'succeeded');
    };

    // Merchant A's day: verified, refunded in part, refunded in full, reversed by the merchant, failed, canceled, expired.
    const a1 = await verifiedLivePayment(liveApi, a.liveKey, 2_000_000);
    const a2 = await verifiedLivePayment(liveApi, a.liveKey, 1_500_000);
    await refund(apiA, a.liveKey, a2, 400_000);
    const a3 = await verifiedLivePayment(liveApi, a.liveKey, 800_000);
    await refund(apiA, a.liveKey, a3, 800_000);
    const a4 = await answeredLivePayment(liveApi, a.liveKey, 700_000, 'success');
    assert.equal((await apiA.post(`/payments/${a4.id}/reverse`, {})).status, 200);
    await waitForStatus(liveApi, a.liveKey, a4.id, 'reversed');
    const a5 = await answeredLivePayment(liveApi, a.liveKey, 600_000, 'failure');
    const a6 = await answeredLivePayment(liveApi, a.liveKey, 650_000, 'cancel');
    const a7 = await createdLivePayment(expiringApi, a.liveKey, 500_000);
    await waitForStatus(liveApi, a.liveKey, a7.id, 'expired');
    // Merchant B's: one payment whose fee is the plan's maximum, one ordinary, one failed.
    const b1 = await verifiedLivePayment(liveApi, b.liveKey, 45_000_000);
    const b2 = await verifiedLivePayment(liveApi, b.liveKey, 5_000_000);
    const b3 = await answeredLivePayment(liveApi, b.liveKey, 900_000, 'failure');

    // Expected from the inputs alone.
    const netA =
      2_000_000 + 1_500_000 + 800_000 - (fee(2_000_000) + fee(1_500_000) + fee(800_000)) - (400_000 + 800_000);
    const netB = 45_000_000 + 5_000_000 - (400_000 + fee(5_000_000));
    assert.deepEqual([netA, netB], [3_057_000, 49_550_000]);

    const { outcomes } = await runSettlement();
    const [sa] = await settlementsOf(apiA);
    const [sb] = await settlementsOf(apiB);
    assert.ok(sa && sb, 'a settlement for each merchant');
    assert.deepEqual(
      [sa.settlement.gross, sa.settlement.fees, sa.settlement.refunds, sa.settlement.net, sa.settlement.status],
      [4_300_000, 43_000, 1_200_000, netA, 'paid'],
    );
    assert.deepEqual(
      [sb.settlement.gross, sb.settlement.fees, sb.settlement.refunds, sb.settlement.net, sb.settlement.status],
      [50_000_000, 450_000, 0, netB, 'paid'],
    );
    for (const s of [sa, sb])
      assert.ok(
        outcomes.some((o) => o.result === 'paid' && o.settlement_id === s.settlement.id && o.net === s.settlement.net),
      );
    assert.deepEqual(
      sa.lines
        .filter((l) => l.kind === 'payment')
        .map((l) => l.payment_id)
        .sort(),
      [a1.id, a2.id, a3.id].sort(),
    );
    assert.deepEqual(sb.lines.map((l) => l.payment_id).sort(), [b1.id, b2.id].sort());
    // Paid once each, to the IBAN of the documents the operator approved.
    for (const s of [sa, sb]) {
      assert.deepEqual(
        (await payoutTransfers(s.settlement.id)).map((t) => [t.amount, t.iban]),
        [[s.settlement.net, GOOD_DOCUMENTS.iban]],
      );
    }
    const statuses = await h.db
      .selectFrom('payments')
      .select(['id', 'settlement_status'])
      .where('merchant_id', 'in', [a.merchantId, b.merchantId])
      .execute();
    const status = new Map(statuses.map((r) => [r.id, r.settlement_status]));
    for (const p of [a1, a2, a3, b1, b2]) assert.equal(status.get(p.id), 'settled', `${p.amount} verified`);
    for (const p of [a4, a5, a6, a7, b3])
      assert.equal(status.get(p.id), 'not_applicable', `${p.amount} ended without money`);
    // Each transition's event shows the payment as the record had it then: to be settled once verified, not applicable once it ended without money.
    const events = await h.db
      .selectFrom('events')
      .select(['type', 'object_id', 'body'])
      .where('object_id', 'in', [a1.id, a4.id, a5.id, a6.id, a7.id])
      .execute();
    const shown = (id: string, type: string) => {
      const event = events.find((e) => e.object_id === id && e.type === type);
      assert.ok(event, `${type} of ${id}`);
      return (JSON.parse(event.body) as { data: { payment: Payment } }).data.payment.settlement_status;
    };
    assert.deepEqual(
      [
        shown(a1.id, 'payment.verified'),
        shown(a4.id, 'payment.reversed'),
        shown(a5.id, 'payment.failed'),
        shown(a6.id, 'payment.canceled'),
        shown(a7.id, 'payment.expired'),
      ],
      ['pending', 'not_applicable', 'not_applicable', 'not_applicable', 'not_applicable'],
    );

    // The next day: a refund of a settled payment and a new payment; the refund is deducted from the next settlement.
    await refund(apiA, a.liveKey, a1, 300_000);
    const a8 = await verifiedLivePayment(liveApi, a.liveKey, 1_000_000);
    await runSettlement();
    const [next, first] = await settlementsOf(apiA);
    assert.equal(first?.settlement.id, sa.settlement.id);
    assert.deepEqual(
      [next?.settlement.gross, next?.settlement.fees, next?.settlement.refunds, next?.settlement.net],
      [1_000_000, fee(1_000_000), 300_000, 690_000],
    );
    assert.deepEqual(
      next?.lines.map((l) => [l.kind, l.payment_id]).sort(),
      [
        ['payment', a8.id],
        ['refund', a1.id],
      ].sort(),
    );
    assert.equal((await settlementsOf(apiB)).length, 1, 'nothing new for B');
    for (const api of [apiA, apiB]) {
      const balance = await api.get<{ balance: { available: number; in_payout: number } }>('/balance');
      assert.deepEqual([balance.body.balance.available, balance.body.balance.in_payout], [0, 0]);
    }
    await assertLedgerBalanced(h.db, 'after a day settled', { merchantIds: [a.merchantId, b.merchantId] });
  });

  it('the schedule starts the run at its cron, and the run settles', async function () {
    // The waits below (a minute to the cron's first fire, then the run) and, when one of them fails, the
    // bounded wait for the runs in the finally block: the failure reported is the wait's, never mocha's timeout.
    this.timeout(480_000);
    const h = await getHarness();
    const m = await liveMerchant();
    const paid = await verifiedLivePayment(await liveBankApi(), m.liveKey, 3_000_000);
    // Every minute, as a short cron; the worker's schedule is the same code with the daily one.
    await ensureSettlementSchedule(h.temporal.client, {
      TEMPORAL_TASK_QUEUE: h.config.TEMPORAL_TASK_QUEUE,
      SETTLEMENT_CRON: '* * * * *',
    });
    const schedule = h.temporal.client.schedule.getHandle(SETTLEMENT_SCHEDULE_ID);
    try {
      const settled = await waitFor(
        'the scheduled run to settle the payment',
        async () => {
          const row = await h.db
            .selectFrom('payments')
            .select('settlement_status')
            .where('id', '=', paid.id)
            .executeTakeFirstOrThrow();
          return row.settlement_status === 'settled' ? row : undefined;
        },
        150_000,
        1_000,
      ).catch(async (e: Error) => {
        throw new Error(`${e.message}; ${await scheduledRunsSeen(schedule)}`);
      });
      assert.equal(settled.settlement_status, 'settled');
      const { info } = await schedule.describe();
      const fired = info.recentActions.map((a) => a.action.workflow.workflowId);
      assert.ok(fired.length >= 1, 'the schedule fired');
      // The payment is marked settled when its settlement is made; the payout answers a moment later.
      const s = await waitFor(
        'the settlement to be paid out',
        async () => {
          const [made] = await settlementsOf(client(h.baseUrl, m.liveKey));
          return made?.settlement.status === 'paid' ? made : undefined;
        },
        60_000,
        500,
      );
      assert.equal(s.settlement.status, 'paid');
      assert.equal(s.settlement.net, 3_000_000 - fee(3_000_000));
      // The settlement's workflow is a child of a run the schedule started.
      const child = await h.temporal.client.workflow.getHandle(settlementWorkflowId(s.settlement.id)).describe();
      const parent = child.parentExecution?.workflowId ?? '(none)';
      assert.ok(fired.includes(parent), `parent ${parent} among ${fired.join(', ')}`);
    } finally {
      await schedule.delete();
      // A run the schedule started still finishes its merchants before the next test; one that has not ended
      // within two minutes fails the test by name (it would have hung it).
      for await (const run of h.temporal.client.workflow.list({
        query: `WorkflowType = '${SETTLEMENT_RUN_WORKFLOW}' AND ExecutionStatus = 'Running'`,
      })) {
        const ended = h.temporal.client.workflow
          .getHandle(run.workflowId, run.runId)
          .result()
          .then(
            () => true,
            () => true,
          );
        const late = new Promise<false>((resolve) => setTimeout(() => resolve(false), 120_000).unref());
        assert.ok(
          await Promise.race([ended, late]),
          `the settlement run ${run.workflowId} (started ${run.startTime.toISOString()}) still running after two minutes`,
        );
      }
    }
    await assertLedgerBalanced(h.db, 'after the scheduled run', { merchantIds: [m.merchantId] });
  });
});
