/**
 * The bank activity that acts on a confirmation the workflow refused (activities/bank/refused-confirmation.ts
 * reverseRefusedConfirmation, docs/PAYMENTS.md#a-confirmation-the-gateway-refuses), against the
 * suite's MySQL and real payment records, with a PSP client that counts its reversals: the sale is
 * reversed at once and counted; never when it is another payment's (named by the answer, or a sale
 * whose claim another payment holds: src/db/sale-claims.ts); a
 * PSP that refuses the reversal is answered as such, not retried.
 */
import assert from 'node:assert/strict';
import { createBankActivities } from '../../activities/bank.ts';
import { PspHealthStore } from '../../src/db/psp-health.ts';
import { breakerSettings } from '../../src/domain/psp-breaker.ts';
import { BankRefusalError, type PspClient } from '../../src/psps/psp-client.ts';
import { pspConfirmationsRefused } from '../../src/observability/metrics.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { createdPayment, paidPayment } from '../support/payments.ts';

/** A SEP-shaped client of the suite's terminal whose reversals are counted (and refused when told). */
function countingSep(terminalId: string, refuse = false) {
  const reversals: [string, string][] = [];
  const client = {
    name: 'sep',
    terminalId,
    capabilities: {
      capture: 'verify',
      reversalWindowMs: 50 * 60_000,
      unverifiedReversalMs: 30 * 60_000,
      refund: 'none',
      inquiry: false,
      dailyReport: false,
    },
    reverse: async (paymentId: string, refNum: string) => {
      if (refuse) throw new BankRefusalError(-6, 'the reversal window has passed');
      reversals.push([paymentId, refNum]);
      return { ref_num: refNum, result_code: 0 };
    },
  } as unknown as PspClient;
  return { client, reversals };
}

async function counted(labels: Record<string, string>): Promise<number> {
  return (
    (await pspConfirmationsRefused.get()).values.find((v) =>
      Object.entries(labels).every(([k, value]) => v.labels[k as keyof typeof v.labels] === value),
    )?.value ?? 0
  );
}

describe('reverseRefusedConfirmation: the sale of a refused confirmation reversed at once, unless it is another payment’s', function () {
  this.timeout(120_000);

  async function setUp(refuse = false) {
    const h = await getHarness();
    const { key } = await newMerchant();
    const sep = countingSep(h.config.SANDBOX_SEP_TERMINAL_ID, refuse);
    const bank = createBankActivities({
      psps: { test: { sep: sep.client }, live: {} },
      db: h.db,
      health: new PspHealthStore(h.db, breakerSettings(h.config)),
      logger: h.logger,
      config: h.config,
    });
    return { h, key, sep, bank };
  }

  it('reverses an unknown sale at once, keyed by the payment, and counts it with the PSP and the reason', async () => {
    const { h, key, sep, bank } = await setUp();
    const payment = await createdPayment(h.baseUrl, key);
    const before = await counted({ psp: 'sep', reason: 'amount', reversal: 'reversed' });
    assert.deepEqual(
      await bank.reverseRefusedConfirmation({
        payment_id: payment.id,
        mode: 'test',
        ref_num: '4711999001',
        reason: 'amount',
        psp: 'sep',
      }),
      { reversal: 'reversed' },
    );
    assert.deepEqual(sep.reversals, [[payment.id, '4711999001']]);
    assert.equal(await counted({ psp: 'sep', reason: 'amount', reversal: 'reversed' }), before + 1);
  });

  it('never reverses a sale another payment holds the claim of, nor a sale the answer names as another payment', async () => {
    const { h, key, sep, bank } = await setUp();
    const paid = await paidPayment(h.baseUrl, key);
    assert.ok(paid.reference_id !== null);
    const row = await h.db
      .selectFrom('payments')
      .select(['psp_terminal_id', 'paid_at'])
      .where('id', '=', paid.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.psp_terminal_id, h.config.SANDBOX_SEP_TERMINAL_ID, 'the paid payment is of the same terminal');
    const other = await createdPayment(h.baseUrl, key);
    const before = await counted({ psp: 'sep', reason: 'reference', reversal: 'not_reversed' });
    assert.deepEqual(
      await bank.reverseRefusedConfirmation({
        payment_id: other.id,
        mode: 'test',
        ref_num: paid.reference_id,
        reason: 'reference',
        psp: 'sep',
      }),
      { reversal: 'not_reversed' },
    );
    assert.deepEqual(
      await bank.reverseRefusedConfirmation({
        payment_id: other.id,
        mode: 'test',
        ref_num: '4711999002',
        reason: 'other_payment',
        psp: 'sep',
      }),
      { reversal: 'not_reversed' },
    );
    assert.deepEqual(sep.reversals, [], 'nothing reversed');
    assert.equal(await counted({ psp: 'sep', reason: 'reference', reversal: 'not_reversed' }), before + 1);
    // The paid payment's own refused confirmation (a replay of its own sale) is its own: reversed.
    assert.deepEqual(
      await bank.reverseRefusedConfirmation({
        payment_id: paid.id,
        mode: 'test',
        ref_num: paid.reference_id,
        reason: 'amount',
        psp: 'sep',
      }),
      { reversal: 'reversed' },
    );
    assert.deepEqual(sep.reversals, [[paid.id, paid.reference_id]]);
  });

  it('a PSP that refuses the reversal is answered reversal_refused, counted, and not asked again', async () => {
    const { h, key, bank } = await setUp(true);
    const payment = await createdPayment(h.baseUrl, key);
    const before = await counted({ psp: 'sep', reason: 'terminal', reversal: 'reversal_refused' });
    assert.deepEqual(
      await bank.reverseRefusedConfirmation({
        payment_id: payment.id,
        mode: 'test',
        ref_num: '4711999003',
        reason: 'terminal',
        psp: 'sep',
      }),
      { reversal: 'reversal_refused' },
    );
    assert.equal(await counted({ psp: 'sep', reason: 'terminal', reversal: 'reversal_refused' }), before + 1);
  });
});
