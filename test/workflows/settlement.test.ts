/** The settlement workflow with fake activities: one payout per attempt, a refusal never retried by itself. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  SETTLEMENT_WORKFLOW,
  type SettlementOutcome,
  type SettlementWorkflowInput,
} from '../../src/domain/settlement.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities } from '../support/workflows/fakes.ts';
import { historyText, recordFixture } from '../support/replay.ts';
import { BENEFICIARY_PAYOUTS_ONE_BY_ONE_PATCH } from '../../workflows/patches.ts';

// Where RECORD_SETTLEMENT_HISTORIES=v<n> writes this file's histories (replayed by test/workflows/replay.test.ts and
// test/settlements/replay.test.ts).
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories', 'settlement');

const INPUT: SettlementWorkflowInput = {
  settlement_id: '00000000-0000-4000-8000-000000000001',
  merchant_id: 'm-1',
  cutoff: '2026-11-21T00:00:00.000Z',
  date: '2026-11-22',
};

describe('the settlement workflow', () => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  const run = (fakes: FakeActivities, input: SettlementWorkflowInput, record?: string) =>
    withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<(i: SettlementWorkflowInput) => Promise<SettlementOutcome>>(
        SETTLEMENT_WORKFLOW,
        {
          workflowId: `settlement-test-${Math.random()}`,
          taskQueue,
          args: [input],
        },
      );
      const outcome = await handle.result();
      if (record !== undefined) {
        const history = await handle.fetchHistory();
        assert.ok(
          historyText(history).includes(BENEFICIARY_PAYOUTS_ONE_BY_ONE_PATCH),
          'the patch marker is in the history',
        );
        recordFixture(FIXTURES, 'RECORD_SETTLEMENT_HISTORIES', record, history);
      }
      return outcome;
    });

  it('makes the settlement, pays it out once and records the answer', async () => {
    const fakes = new FakeActivities();
    const outcome = await run(fakes, INPUT, 'paid-no-beneficiaries');
    assert.deepEqual(outcome, { result: 'paid', settlement_id: INPUT.settlement_id, net: 1_000_000 });
    assert.deepEqual(fakes.calls('pendingBeneficiaryTransfers'), [{ settlement_id: INPUT.settlement_id }]);
    assert.equal(fakes.calls('payOutBeneficiary').length, 0);
    assert.deepEqual(fakes.calls('payOutSettlement'), [{ settlement_id: INPUT.settlement_id, attempt: 1 }]);
    assert.equal(fakes.calls('recordPayout').length, 1);
  });

  it('a refused payout is recorded failed and not asked for again', async () => {
    const fakes = new FakeActivities().on('payOutSettlement', async () => ({
      paid: false,
      code: 'bank_refused',
      message: 'refused',
    }));
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

  it('pays each beneficiary in an activity of its own, in turn, then the merchant; a refused one does not stop the rest', async () => {
    const shares = [
      { beneficiary_id: 'b-1', attempt: 1 },
      { beneficiary_id: 'b-2', attempt: 1 },
      { beneficiary_id: 'b-3', attempt: 2 },
    ];
    const order: string[] = [];
    const fakes = new FakeActivities()
      .on('pendingBeneficiaryTransfers', async () => shares)
      .on('payOutBeneficiary', async ({ beneficiary_id }) => {
        order.push(beneficiary_id);
        return beneficiary_id === 'b-2'
          ? { paid: false, code: 'bank_refused', message: 'refused' }
          : { paid: true, bank_reference: `ref-${beneficiary_id}` };
      })
      .on('payOutSettlement', async () => {
        order.push('merchant');
        return { paid: true, bank_reference: '600000000009' };
      });
    const outcome = await run(fakes, INPUT, 'beneficiaries-one-by-one');
    assert.equal(outcome.result, 'paid');
    assert.deepEqual(
      fakes.calls('payOutBeneficiary'),
      shares.map((s) => ({ settlement_id: INPUT.settlement_id, ...s })),
      'one call per transfer, under its own attempt',
    );
    assert.deepEqual(order, ['b-1', 'b-2', 'b-3', 'merchant']);
  });

  it('a beneficiary transfer the bank does not answer is retried alone, the ones before it not asked again', async () => {
    let tries = 0;
    const fakes = new FakeActivities()
      .on('pendingBeneficiaryTransfers', async () => [
        { beneficiary_id: 'b-1', attempt: 1 },
        { beneficiary_id: 'b-2', attempt: 1 },
      ])
      .on('payOutBeneficiary', async ({ beneficiary_id }) => {
        if (beneficiary_id === 'b-2' && ++tries === 1) throw new Error('bank_unavailable');
        return { paid: true, bank_reference: `ref-${beneficiary_id}` };
      });
    assert.equal((await run(fakes, INPUT)).result, 'paid');
    assert.deepEqual(
      fakes.calls('payOutBeneficiary').map((c) => c.beneficiary_id),
      ['b-1', 'b-2', 'b-2'],
    );
  });
});
