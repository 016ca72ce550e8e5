/**
 * Determinism guard of the settlement workflows (workflows/settlement.ts),
 * like test/payments/replay.test.ts for payments: fresh histories of every
 * path and the committed generations in test/fixtures/histories/settlement/
 * (recorded with RECORD_SETTLEMENT_HISTORIES=v<n>) are replayed against the
 * current code. A settlement in flight when a worker is upgraded (a payout
 * waiting for the bank, a run waiting for its merchants) must go on. v1 is
 * recorded here, from real runs. v2 adds the patch
 * settlement-beneficiary-payouts-one-by-one, recorded by the workflow tests
 * with fake activities (test/workflows/settlement.test.ts,
 * RECORD_SETTLEMENT_HISTORIES=v2): v2-paid-no-beneficiaries, a settlement
 * without beneficiaries that asks for its (empty) list of transfers, and
 * v2-beneficiaries-one-by-one, three beneficiary transfers each in its own
 * activity (one refused), then the merchant's.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { committedHistories, recordFixture, replayAll, type NamedHistory } from '../support/replay.ts';
import { bankFault } from '../support/bank.ts';
import { getHarness, liveBankApi } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { runSettlement, settleNow } from '../support/settlement.ts';
import { settlementWorkflowId } from '../../src/domain/settlement.ts';
import { retrySettlement } from '../../src/settlements/service.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { approveTypedIban, REFUND_IBAN } from '../support/refunds.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories', 'settlement');
const PATHS = ['paid', 'carried', 'skipped', 'failed', 'retried', 'run'];

describe('settlement workflow determinism (replay)', () => {
  const fresh: NamedHistory[] = [];
  afterEach(() => bankFault(null));

  before(async function () {
    this.timeout(240_000);
    const h = await getHarness();
    const liveApi = await liveBankApi();
    const workflowIds: Record<string, string> = {};

    // Paid, then a refund after settlement carried into the next (a negative net).
    const m = await liveMerchant();
    const p = await verifiedLivePayment(liveApi, m.liveKey, 1_000_000);
    const paid = await settleNow(m.merchantId);
    assert.equal(paid.outcome.result, 'paid');
    workflowIds.paid = settlementWorkflowId(paid.id);
    const refund = await client(liveApi, m.liveKey).post<{ refund: Refund }>(`/payments/${p.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 500_000,
    });
    assert.equal(refund.status, 201, refund.text);
    await approveTypedIban(refund.body.refund);
    const carried = await settleNow(m.merchantId);
    assert.equal(carried.outcome.result, 'carried');
    workflowIds.carried = settlementWorkflowId(carried.id);

    // Skipped: a merchant onboarded before approval carried an IBAN has none until the operator sets one.
    const noIban = await liveMerchant();
    await h.db.updateTable('merchants').set({ settlement_iban: null }).where('id', '=', noIban.merchantId).execute();
    await verifiedLivePayment(liveApi, noIban.liveKey, 500_000);
    const skipped = await settleNow(noIban.merchantId);
    assert.equal(skipped.outcome.result, 'skipped');
    workflowIds.skipped = settlementWorkflowId(skipped.id);

    // Refused by the bank, then paid by the operator's retry (a workflow of its own).
    const refused = await liveMerchant();
    await verifiedLivePayment(liveApi, refused.liveKey, 700_000);
    await bankFault({ operation: 'payout', fault: 'unknown', times: 1 });
    const failed = await settleNow(refused.merchantId);
    assert.equal(failed.outcome.result, 'failed');
    workflowIds.failed = settlementWorkflowId(failed.id);
    await retrySettlement(h.db, h.temporal.client, h.config, failed.id);
    workflowIds.retried = settlementWorkflowId(failed.id, 2);
    await h.temporal.client.workflow.getHandle(workflowIds.retried).result();

    // A run over whatever merchants have something to settle (at least one: a new payment).
    await verifiedLivePayment(liveApi, refused.liveKey, 400_000);
    workflowIds.run = (await runSettlement()).workflowId;

    for (const path of PATHS) {
      const history = await h.temporal.client.workflow.getHandle(workflowIds[path]!).fetchHistory();
      fresh.push({ workflowId: path, history });
      recordFixture(FIXTURES, 'RECORD_SETTLEMENT_HISTORIES', path, history);
    }
  });

  it('replays a fresh history of every path with the current code', async () => {
    const h = await getHarness();
    assert.equal(await replayAll(h.bundle, fresh), PATHS.length);
  });

  it('replays the committed histories recorded from earlier code', async () => {
    const h = await getHarness();
    const histories = committedHistories(FIXTURES);
    assert.ok(histories.length >= PATHS.length, 'the first generation (v1) is committed');
    assert.equal(await replayAll(h.bundle, histories), histories.length);
  });
});
