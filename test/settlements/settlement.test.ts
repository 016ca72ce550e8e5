/**
 * Settlement against the real stack: live payments paid through the bank
 * simulator, the settlement workflow on the real worker, the payout at the
 * simulator's Paya endpoint, the ledger checked after.
 */
import assert from 'node:assert/strict';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import type { Settlement, SettlementLine } from '../../src/domain/settlement-schemas.ts';
import { retrySettlement, setSettlementIban } from '../../src/settlements/service.ts';
import { getHarness, liveBankApi } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { bankAdmin as bank, SETTLEMENT_IBAN as IBAN, settleNow, transfersOf } from '../support/settlements.ts';

describe('settlement', () => {
  afterEach(() => bank('/admin/faults', null));

  it('settles verified live payments less fees and refunds to the rial, pays the IBAN once, and a refund after settlement is carried', async function () {
    this.timeout(180_000);
    const h = await getHarness();
    const m = await liveMerchant();
    await setSettlementIban(h.db, m.merchantId, IBAN);
    const api = client(h.baseUrl, m.liveKey);
    const liveApi = await liveBankApi();
    const first = await verifiedLivePayment(liveApi, m.liveKey, 2_000_000);
    const second = await verifiedLivePayment(liveApi, m.liveKey, 1_000_000);
    const refund = await client(liveApi, m.liveKey).post<{ refund: Refund }>(`/payments/${first.id}/refunds`, { amount: 500_000 });
    assert.equal(refund.status, 201, refund.text);
    // Expected from the inputs: the default plan takes 1 % (within 1,000..400,000 rials).
    const expectedNet = 2_000_000 - 20_000 + (1_000_000 - 10_000) - 500_000;

    const { id, outcome } = await settleNow(m.merchantId);
    assert.deepEqual(outcome, { result: 'paid', settlement_id: id, net: expectedNet });
    const got = await api.get<{ settlement: Settlement; lines: SettlementLine[] }>(`/settlements/${id}`);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.settlement.status, 'paid');
    assert.deepEqual([got.body.settlement.gross, got.body.settlement.fees, got.body.settlement.refunds, got.body.settlement.net], [3_000_000, 30_000, 500_000, expectedNet]);
    assert.equal(got.body.lines.length, 3);
    const transfers = await transfersOf(id);
    assert.deepEqual(transfers.map((t) => [t.transfer_id, t.amount, t.iban]), [[`payout:${id}:1`, expectedNet, IBAN]]);
    const csv = await fetch(`${h.baseUrl}/api/v1/settlements/${id}/lines.csv`, { headers: { authorization: `Bearer ${m.liveKey}` } });
    assert.equal(csv.status, 200);
    const csvLines = (await csv.text()).trim().split('\r\n');
    assert.equal(csvLines[0], 'kind,object_id,payment_id,amount,fee,net');
    assert.equal(csvLines.length, 4);
    for (const p of [first, second]) {
      const row = await h.db.selectFrom('payments').select('settlement_status').where('id', '=', p.id).executeTakeFirstOrThrow();
      assert.equal(row.settlement_status, 'settled');
    }
    const events = await api.get<{ data: { type: string; data: { settlement?: Settlement } }[] }>('/events?type=settlement.paid');
    assert.deepEqual(events.body.data.map((e) => e.data.settlement?.id), [id]);

    // A refund after settlement: the next settlement deducts it, and a negative net is carried, never paid.
    const late = await client(liveApi, m.liveKey).post<{ refund: Refund }>(`/payments/${second.id}/refunds`, { amount: 100_000 });
    assert.equal(late.status, 201, late.text);
    const next = await settleNow(m.merchantId);
    assert.deepEqual(next.outcome, { result: 'carried', net: -100_000 });
    assert.deepEqual(await transfersOf(next.id), []);
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
    await bank('/admin/faults', { operation: 'payout', fault: 'unknown', times: 1 });
    const { id, outcome } = await settleNow(m.merchantId);
    assert.deepEqual(outcome, { result: 'failed', settlement_id: id, net: 990_000 });
    assert.deepEqual(await transfersOf(id), []);
    const retried = await retrySettlement(h.db, h.temporal.client, h.config, id);
    assert.equal(retried.attempt, 2);
    const paid = await waitFor('the retried settlement to be paid', async () => {
      const row = await h.db.selectFrom('settlements').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return row.status === 'paid' ? row : undefined;
    }, 60_000);
    assert.equal(Number(paid.net), 990_000);
    assert.deepEqual((await transfersOf(id)).map((t) => [t.transfer_id, t.amount]), [[`payout:${id}:2`, 990_000]]);
    await assert.rejects(retrySettlement(h.db, h.temporal.client, h.config, id), /already paid/);
    await assertLedgerBalanced(h.db, 'after the retried payout', { merchantIds: [m.merchantId] });
  });
});
