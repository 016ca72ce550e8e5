/**
 * kill -9 of the only worker while a split settlement is paying its beneficiaries, each in an activity of its
 * own (docs/LEDGER.md#split-settlement): the bank has made the first beneficiary's transfer but its answer has
 * not arrived. A new worker asks again under the same key, the bank answers with the transfer it made, the
 * other beneficiaries and the merchant are paid after it, and every one of them is paid exactly once: one
 * transfer per key at the bank, one `paid` answer, one event each, and `ledger check` passes.
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
import { checkLedger } from '../../src/ledger/check.ts';
import { bankFault, payoutTransfers } from '../support/bank.ts';
import { LIVE_BANK } from '../support/harness.ts';
import { approvedBeneficiary, defaultPlanFee } from '../support/settlement.ts';
import { waitFor } from '../support/http.ts';
import { GOOD_DOCUMENTS, liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { faultApi, getFaultStack, issuedSecrets, recordFigures, startWorker } from '../support/faults/fault-stack.ts';

describe('fault: the worker is killed while a settlement pays its beneficiaries', () => {
  afterEach(() => bankFault(null));

  it('a new worker finishes the payouts: each beneficiary and the merchant paid exactly once, the ledger balanced', async () => {
    const s = await getFaultStack();
    const liveApi = await faultApi(LIVE_BANK());
    const m = await liveMerchant({ db: s.db, temporal: s.temporal, config: s.baseConfig });
    issuedSecrets.push(m.testKey, m.liveKey);
    const beneficiaries = [
      await approvedBeneficiary(s.db, m.merchantId, 'Agency'),
      await approvedBeneficiary(s.db, m.merchantId, 'Guide'),
      await approvedBeneficiary(s.db, m.merchantId, 'Driver'),
    ];
    const shares = [400_000, 300_000, 200_000];
    const amount = 3_000_000;
    await verifiedLivePayment(liveApi, m.liveKey, amount, liveApi, {
      splits: beneficiaries.map((b, i) => ({ iban: b.iban, amount: shares[i] })),
    });
    const net = amount - defaultPlanFee(amount) - shares.reduce((sum, a) => sum + a, 0);

    // The bank makes the first beneficiary's transfer (the lowest id: they are paid in that order) but its answer
    // never arrives: the worker is inside that activity when it dies.
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
      'the bank to have made the first beneficiary transfer',
      async () => ((await payoutTransfers(id)).length > 0 ? true : undefined),
      60_000,
      50,
    );
    const rows = () =>
      s.db
        .selectFrom('beneficiary_payouts')
        .select(['beneficiary_id', 'status', 'attempt'])
        .where('settlement_id', '=', id)
        .orderBy('beneficiary_id')
        .execute();
    assert.ok(
      (await rows()).every((r) => r.status === 'pending'),
      'no answer recorded when the worker dies',
    );
    const killedAt = Date.now();
    await s.worker!.kill('SIGKILL');
    await startWorker(s);

    const outcome = await handle.result();
    const secondsToPaid = (Date.now() - killedAt) / 1000;
    assert.deepEqual(outcome, { result: 'paid', settlement_id: id, net });
    const byId = new Map(beneficiaries.map((b, i) => [b.id, { iban: b.iban, amount: shares[i]! }]));
    const transfers = await payoutTransfers(id);
    assert.deepEqual(
      transfers.map((t) => [t.transfer_id, t.amount, t.iban]).sort(),
      [
        [`payout:${id}:1`, net, GOOD_DOCUMENTS.iban],
        ...[...byId].map(([b, share]) => [`payout:${id}:beneficiary:${b}`, share.amount, share.iban]),
      ].sort(),
      'one transfer per key: each beneficiary and the merchant exactly once',
    );
    assert.deepEqual(
      await rows(),
      [...byId.keys()].sort().map((b) => ({ beneficiary_id: b, status: 'paid', attempt: 1 })),
    );
    const events = await s.db
      .selectFrom('events')
      .select(['type', 'body'])
      .where('merchant_id', '=', m.merchantId)
      .where('type', 'like', 'beneficiary_payout.%')
      .execute();
    assert.deepEqual(
      events
        .map((e) => [
          e.type,
          (JSON.parse(e.body) as { data: { beneficiary_payout: { beneficiary_id: string } } }).data.beneficiary_payout
            .beneficiary_id,
        ])
        .sort(),
      [...byId.keys()].map((b) => ['beneficiary_payout.paid', b]).sort(),
      'one event per beneficiary',
    );
    const ledger = await checkLedger(s.db);
    assert.ok(ledger.ok, `ledger check: ${JSON.stringify(ledger.breaks.slice(0, 5))}`);
    recordFigures('beneficiary-payout-worker-kill', {
      transfers: transfers.length,
      seconds_from_kill_to_paid: Math.round(secondsToPaid),
    });
  });
});
