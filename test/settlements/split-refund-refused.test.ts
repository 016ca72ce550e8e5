/**
 * A refund of a split payment that the bank refuses after a settlement ran while it was pending
 * (docs/LEDGER.md#refunds-of-a-split-payment, the third review's item 9), against the real stack: the
 * refund takes its rials from the beneficiary's unsettled share when it is asked for; the settlement that
 * runs while the bank has not answered leaves that payment for later (a share is paid out only once the
 * refunds that took from it are decided); the bank refuses; the next settlement pays the beneficiary its
 * whole share. The beneficiary's part never goes to the merchant, and the ledger balances throughout.
 */
import assert from 'node:assert/strict';
import { accountBalances } from '../../src/db/ledger.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { setSettlementIban } from '../../src/settlements/service.ts';
import { bankFault } from '../support/bank.ts';
import { getHarness, liveBankApi } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { approveTypedIban, REFUND_IBAN } from '../support/refunds.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { approvedBeneficiary, SETTLEMENT_IBAN, settleNow } from '../support/settlement.ts';

describe('split settlement: a refund refused after a settlement ran while it was pending', () => {
  afterEach(() => bankFault(null));

  it('pays the beneficiary its whole share once the refund is refused, and gives none of it to the merchant', async function () {
    this.timeout(300_000);
    const h = await getHarness();
    const [m, liveApi] = [await liveMerchant(), await liveBankApi()];
    await setSettlementIban(h.db, m.merchantId, SETTLEMENT_IBAN);
    const api = client(liveApi, m.liveKey);
    const beneficiary = await approvedBeneficiary(h.db, m.merchantId, 'Agency');
    // The default plan's fee on 1,000,000 is 10,000; the share takes the other 990,000: the merchant keeps 0,
    // so a refund comes from the share (docs/LEDGER.md#refunds-of-a-split-payment).
    const payment = await verifiedLivePayment(liveApi, m.liveKey, 1_000_000, undefined, {
      splits: [{ iban: beneficiary.iban, amount: 990_000 }],
    });

    // The bank does not answer the refund's transfer (SEP has no refund operation: a part of a payment is
    // paid to the IBAN the merchant gives): it stays pending, its 100,000 taken from the share.
    await bankFault({ operation: 'payout', fault: 'down' });
    const asked = await api.post<{ refund: Refund }>(`/payments/${payment.id}/refunds`, {
      amount: 100_000,
      destination_iban: REFUND_IBAN,
    });
    assert.equal(asked.status, 201, asked.text);
    const refund = await approveTypedIban(asked.body.refund);
    const share = () =>
      h.db
        .selectFrom('payment_splits')
        .select(['refunded', 'settled_in'])
        .where('payment_id', '=', payment.id)
        .executeTakeFirstOrThrow();
    assert.equal(Number((await share()).refunded), 100_000);

    // A settlement while the refund waits for the bank.
    await settleNow(m.merchantId);
    await assertLedgerBalanced(h.db, 'after the settlement during the pending refund', { merchantIds: [m.merchantId] });

    // The bank refuses it.
    await bankFault({ operation: 'payout', fault: 'unknown' });
    await waitFor(
      `refund ${refund.id} to be refused`,
      async () =>
        (await api.get<{ refund: Refund }>(`/refunds/${refund.id}`)).body.refund.status === 'failed' ? true : undefined,
      180_000,
      500,
    );
    await bankFault(null);
    assert.equal(Number((await share()).refunded), 0, 'the share has its rials back');

    await settleNow(m.merchantId);
    // Over every settlement: the beneficiary is paid 990,000, its whole share; the merchant, whose share is 0, nothing.
    const paidToBeneficiary = await h.db
      .selectFrom('beneficiary_payouts')
      .select('amount')
      .where('beneficiary_id', '=', beneficiary.id)
      .execute();
    assert.equal(
      paidToBeneficiary.reduce((sum, p) => sum + Number(p.amount), 0),
      990_000,
      "the beneficiary's whole share: the refused refund took nothing from it for good",
    );
    const settlements = await h.db
      .selectFrom('settlements')
      .select(['net'])
      .where('merchant_id', '=', m.merchantId)
      .execute();
    assert.equal(
      settlements.reduce((sum, s) => sum + Number(s.net), 0),
      0,
      "the merchant's nets add up to its own share, 0: none of the beneficiary's part",
    );
    assert.notEqual((await share()).settled_in, null, 'the share is settled');
    const balances = await accountBalances(h.db, m.merchantId, 'live');
    assert.deepEqual([balances.balance ?? 0, balances.beneficiaries ?? 0, balances.refunds ?? 0], [0, 0, 0]);
    await assertLedgerBalanced(h.db, 'after the refused refund and the settlements', { merchantIds: [m.merchantId] });
  });
});
