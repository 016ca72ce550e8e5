/**
 * kill -9 of the only worker while a settlement's payout is in flight: the
 * bank has made the transfer but its answer has not arrived. A new worker
 * asks again under the same key, the bank answers with the first transfer,
 * and the settlement is paid exactly once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  SETTLEMENT_WORKFLOW,
  settlementWorkflowId,
  type SettlementOutcome,
  type SettlementWorkflowInput,
} from '../../src/domain/settlement.ts';
import { tehranDay } from '../../src/domain/calendar.ts';
import { bankFault, payoutTransfers } from '../support/bank.ts';
import { LIVE_BANK } from '../support/harness.ts';
import { defaultPlanFee } from '../support/settlement.ts';
import { waitFor } from '../support/http.ts';
import { GOOD_DOCUMENTS, liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { faultApi, getFaultStack, issuedSecrets, recordFigures, startWorker } from '../support/faults/fault-stack.ts';

describe('fault: the worker is killed while a settlement is being paid out', () => {
  afterEach(() => bankFault(null));

  it('a new worker finishes the settlement: one transfer, recorded paid once', async () => {
    const s = await getFaultStack();
    const liveApi = await faultApi(LIVE_BANK());
    const m = await liveMerchant({ db: s.db, temporal: s.temporal, config: s.baseConfig });
    issuedSecrets.push(m.testKey, m.liveKey);
    const amounts = [2_500_000, 1_200_000];
    for (const amount of amounts) await verifiedLivePayment(liveApi, m.liveKey, amount, liveApi);
    const net = amounts.reduce((sum, a) => sum + a - defaultPlanFee(a), 0);

    // The bank makes the transfer but its answer never arrives: the worker is inside the call when it dies.
    await bankFault({ operation: 'payout', fault: 'timeout', times: 1 });
    const id = randomUUID();
    const input: SettlementWorkflowInput = {
      settlement_id: id,
      merchant_id: m.merchantId,
      cutoff: new Date().toISOString(),
      date: tehranDay(new Date()),
    };
    const handle = await s.temporal.workflow.start<(i: SettlementWorkflowInput) => Promise<SettlementOutcome>>(
      SETTLEMENT_WORKFLOW,
      {
        workflowId: settlementWorkflowId(id),
        taskQueue: s.baseConfig.TEMPORAL_TASK_QUEUE,
        args: [input],
      },
    );
    await waitFor(
      'the bank to have made the transfer',
      async () => ((await payoutTransfers(id)).length > 0 ? true : undefined),
      60_000,
      50,
    );
    const row = await s.db
      .selectFrom('settlements')
      .select(['status', 'net'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'pending', 'the answer has not been recorded when the worker dies');
    const killedAt = Date.now();
    await s.worker!.kill('SIGKILL');
    await startWorker(s);

    const outcome = await handle.result();
    const secondsToPaid = (Date.now() - killedAt) / 1000;
    assert.deepEqual(outcome, { result: 'paid', settlement_id: id, net });
    const transfers = await payoutTransfers(id);
    assert.deepEqual(
      transfers.map((t) => [t.transfer_id, t.amount, t.iban]),
      [[`payout:${id}:1`, net, GOOD_DOCUMENTS.iban]],
      'one transfer',
    );
    const paid = await s.db
      .selectFrom('settlements')
      .select(['status', 'payout_attempt'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([paid.status, paid.payout_attempt], ['paid', 1]);
    const events = await s.db
      .selectFrom('events')
      .select('type')
      .where('merchant_id', '=', m.merchantId)
      .where('type', 'like', 'settlement.%')
      .execute();
    assert.deepEqual(
      events.map((e) => e.type),
      ['settlement.paid'],
      'one event',
    );
    recordFigures('settlement-worker-kill', {
      transfers: transfers.length,
      seconds_from_kill_to_paid: Math.round(secondsToPaid),
    });
  });
});
