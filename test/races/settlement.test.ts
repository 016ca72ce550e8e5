/**
 * A merchant's money is settled and paid out once however many settlements start at the same instant
 * (docs/LEDGER.md#settlement, docs/SECURITY.md#invariants-between-payments-and-requests), against the
 * real stack: settlement workflows on the real worker, the transfers at the bank simulator's Paya endpoint.
 * - Making a settlement locks the merchant's row (src/db/settlements.ts makeSettlement) and the
 *   settlement_lines primary key (kind, object_id) admits each payment, refund and share to one
 *   settlement only; a beneficiary's transfer is one row per settlement and beneficiary
 *   (beneficiary_payouts primary key); each transfer is asked for under its own key at the bank.
 * - Several settlements of one merchant at once: one settles (its payments, its share, one transfer to the
 *   merchant and one to the beneficiary), every other finds nothing and carries 0.
 * - Two settlement runs started at once: the merchant is settled by one of them.
 * The ledger is checked after every round and by the operator's CLI at the end. The operator's retries of a
 * refused beneficiary transfer, two at once, are test/settlements/beneficiary-retry.test.ts.
 */
import assert from 'node:assert/strict';
import { setSettlementIban } from '../../src/settlements/service.ts';
import type { Beneficiary } from '../../src/domain/split-schemas.ts';
import { payoutTransfers } from '../support/bank.ts';
import { getHarness, liveBankApi, type Harness } from '../support/harness.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { assertCliLedgerCheck, assertMerchantLedger, atOnce } from '../support/races.ts';
import {
  approvedBeneficiary,
  defaultPlanFee,
  runSettlement,
  SETTLEMENT_IBAN,
  settleNow,
} from '../support/settlement.ts';

const ROUNDS = 3;
const AT_ONCE = 6;
const AMOUNT = 1_000_000;
const SHARE = 200_000;

describe('races: settlements of one merchant at once', function () {
  this.timeout(180_000);
  let h: Harness;
  let m: Awaited<ReturnType<typeof liveMerchant>>;
  let liveApi: string;
  let partner: Beneficiary;
  before(async () => {
    h = await getHarness();
    m = await liveMerchant();
    liveApi = await liveBankApi();
    await setSettlementIban(h.db, m.merchantId, SETTLEMENT_IBAN);
    partner = await approvedBeneficiary(h.db, m.merchantId, 'Race partner');
  });

  const splitPayment = () =>
    verifiedLivePayment(liveApi, m.liveKey, AMOUNT, undefined, { splits: [{ iban: partner.iban, amount: SHARE }] });

  /** The settlements that cover the payment: by its line, whose key admits one. */
  const settlementsCovering = async (paymentId: string) =>
    (
      await h.db
        .selectFrom('settlement_lines')
        .select('settlement_id')
        .where('kind', '=', 'payment')
        .where('object_id', '=', paymentId)
        .execute()
    ).map((l) => l.settlement_id);

  /** What the settlement paid: its transfers at the bank and its beneficiary rows. */
  async function assertPaidOnce(settlementId: string, when: string) {
    const net = AMOUNT - defaultPlanFee(AMOUNT) - SHARE;
    assert.deepEqual(
      (await payoutTransfers(settlementId)).map((t) => [t.transfer_id, Number(t.amount)]).sort(),
      [
        [`payout:${settlementId}:1`, net],
        [`payout:${settlementId}:beneficiary:${partner.id}`, SHARE],
      ].sort(),
      `${when}: one transfer to the merchant, one to the beneficiary`,
    );
    const payouts = await h.db
      .selectFrom('beneficiary_payouts')
      .select(['beneficiary_id', 'amount', 'status'])
      .where('settlement_id', '=', settlementId)
      .execute();
    assert.deepEqual(
      payouts.map((p) => [p.beneficiary_id, Number(p.amount), p.status]),
      [[partner.id, SHARE, 'paid']],
    );
    const settlement = await h.db
      .selectFrom('settlements')
      .select(['status', 'net'])
      .where('id', '=', settlementId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([settlement.status, Number(settlement.net)], ['paid', net]);
  }

  it(`${ROUNDS} rounds of ${AT_ONCE} settlements at once → one settles and pays once, the rest carry 0`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const payment = await splitPayment();
      const runs = await atOnce(AT_ONCE, () => settleNow(m.merchantId));
      const paid = runs.filter((r) => r.outcome.result === 'paid');
      assert.equal(paid.length, 1, `round ${round}: ${JSON.stringify(runs.map((r) => r.outcome))}`);
      for (const r of runs.filter((x) => x.outcome.result !== 'paid'))
        assert.deepEqual(r.outcome, { result: 'carried', net: 0 });
      const made = await h.db
        .selectFrom('settlements')
        .select('id')
        .where(
          'id',
          'in',
          runs.map((r) => r.id),
        )
        .execute();
      assert.deepEqual(
        made.map((s) => s.id),
        [paid[0]!.id],
        `round ${round}: one settlement made`,
      );
      assert.deepEqual(await settlementsCovering(payment.id), [paid[0]!.id]);
      await assertPaidOnce(paid[0]!.id, `round ${round}`);
      await assertMerchantLedger(h.db, [m.merchantId], `after round ${round} of settlements at once`);
    }
  });

  it('two settlement runs at once → the merchant settled by one of them, paid once', async () => {
    const payment = await splitPayment();
    // The merchant's settlements before the runs (the test before made some a moment ago): not the runs'.
    const settlementsOfMerchant = async () =>
      (await h.db.selectFrom('settlements').select('id').where('merchant_id', '=', m.merchantId).execute()).map(
        (s) => s.id,
      );
    const before = new Set(await settlementsOfMerchant());
    await atOnce(2, () => runSettlement());
    const covering = await settlementsCovering(payment.id);
    assert.equal(covering.length, 1);
    assert.deepEqual(
      (await settlementsOfMerchant()).filter((id) => !before.has(id)),
      covering,
      'one settlement of the merchant made by the two runs',
    );
    await assertPaidOnce(covering[0]!, 'two runs');
    await assertMerchantLedger(h.db, [m.merchantId], 'after two settlement runs at once');
    await assertCliLedgerCheck([m.merchantId]);
  });
});
