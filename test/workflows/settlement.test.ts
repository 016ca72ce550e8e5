/** The settlement workflow with fake activities: one payout per attempt, a refusal never retried by itself. */
import assert from 'node:assert/strict';
import { SETTLEMENT_WORKFLOW, type SettlementOutcome, type SettlementWorkflowInput } from '../../src/domain/settlement.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities } from '../support/workflows/fakes.ts';

const INPUT: SettlementWorkflowInput = { settlement_id: '00000000-0000-4000-8000-000000000001', merchant_id: 'm-1', cutoff: '2026-11-21T00:00:00.000Z', date: '2026-11-22' };

describe('the settlement workflow', () => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  const run = (fakes: FakeActivities, input: SettlementWorkflowInput) =>
    withWorker(fakes.activities, ({ client, taskQueue }) =>
      client.workflow.execute<(i: SettlementWorkflowInput) => Promise<SettlementOutcome>>(SETTLEMENT_WORKFLOW, { workflowId: `settlement-test-${Math.random()}`, taskQueue, args: [input] }),
    );

  it('makes the settlement, pays it out once and records the answer', async () => {
    const fakes = new FakeActivities();
    const outcome = await run(fakes, INPUT);
    assert.deepEqual(outcome, { result: 'paid', settlement_id: INPUT.settlement_id, net: 1_000_000 });
    assert.deepEqual(fakes.calls('payOutSettlement'), [{ settlement_id: INPUT.settlement_id, attempt: 1 }]);
    assert.equal(fakes.calls('recordPayout').length, 1);
  });

  it('a refused payout is recorded failed and not asked for again', async () => {
    const fakes = new FakeActivities().on('payOutSettlement', async () => ({ paid: false, code: 'bank_refused', message: 'refused' }));
    const outcome = await run(fakes, INPUT);
    assert.equal(outcome.result, 'failed');
    assert.equal(fakes.calls('payOutSettlement').length, 1);
    assert.deepEqual(fakes.calls('recordPayout')[0]?.result, { paid: false, code: 'bank_refused', message: 'refused' });
  });

  it('a net that is not positive is carried: no payout', async () => {
    const fakes = new FakeActivities().on('makeMerchantSettlement', async () => ({ carried: -50_000 }));
    assert.deepEqual(await run(fakes, INPUT), { result: 'carried', net: -50_000 });
    assert.equal(fakes.calls('payOutSettlement').length, 0);
  });

  it("the operator's retry pays the given attempt of the existing settlement without making another", async () => {
    const fakes = new FakeActivities();
    const outcome = await run(fakes, { ...INPUT, retry_attempt: 2 });
    assert.equal(outcome.result, 'paid');
    assert.equal(fakes.calls('makeMerchantSettlement').length, 0);
    assert.deepEqual(fakes.calls('payOutSettlement'), [{ settlement_id: INPUT.settlement_id, attempt: 2 }]);
  });
});
