/**
 * Split settlement (تسهیم) against the real stack: beneficiaries registered by
 * the merchant and approved by the operator's CLI, splits refused with their
 * codes, a day of split payments paid through the bank simulator, each
 * beneficiary paid its share once, and the ledger checked after.
 */
import assert from 'node:assert/strict';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import type { Settlement, SettlementLine } from '../../src/domain/settlement-schemas.ts';
import type { Beneficiary } from '../../src/domain/split-schemas.ts';
import { accountBalances } from '../../src/db/ledger.ts';
import { decideBeneficiary } from '../../src/payments/splits.ts';
import { setSettlementIban } from '../../src/settlements/service.ts';
import { getHarness, liveBankApi } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { cli } from '../support/cli.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { LIVE_DOMAIN, liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { approveTypedIban, REFUND_IBAN, waitForRefund } from '../support/refunds.ts';
import { paidPayment } from '../support/payments.ts';
import { payoutTransfers } from '../support/bank.ts';
import { SETTLEMENT_IBAN, settleNow } from '../support/settlement.ts';
import { shebaFor } from '../support/sheba.ts';

type Api = ReturnType<typeof client>;

async function register(api: Api, iban: string, name: string): Promise<Beneficiary> {
  const res = await api.post<{ beneficiary: Beneficiary }>('/beneficiaries', { iban, name });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.beneficiary.status, 'pending');
  return res.body.beneficiary;
}

const order = () => ({
  callback_url: `https://${LIVE_DOMAIN}/checkout/return`,
  merchant_reference: `split-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
});

describe('split settlement', () => {
  it('refuses bad splits with their codes and writes nothing; an unapproved beneficiary is refused until the CLI approves it', async function () {
    this.timeout(120_000);
    const h = await getHarness();
    const m = await liveMerchant();
    const api = client(await liveBankApi(), m.liveKey);
    const iban = shebaFor(Date.now());
    const beneficiary = await register(api, iban, 'Agency one');
    // The same IBAN again is the same beneficiary; a malformed one is refused.
    const again = await api.post<{ beneficiary: Beneficiary }>('/beneficiaries', { iban, name: 'Agency one' });
    assert.deepEqual([again.status, again.body.beneficiary.id], [200, beneficiary.id]);
    const badIban = await api.post<{ code: string }>('/beneficiaries', {
      iban: 'IR000000000000000000000000',
      name: 'x',
    });
    assert.deepEqual([badIban.status, badIban.body.code], [422, 'validation_failed']);

    const create = (splits: unknown) =>
      api.post<{ code: string; payment: Payment }>('/payments', { amount: 1_000_000, ...order(), splits });
    const refused = async (splits: unknown, code: string) => {
      const res = await create(splits);
      assert.deepEqual([res.status, res.body.code], [422, code], res.text);
    };
    await refused([{ iban, amount: 100_000 }], 'beneficiary_not_approved');

    // The operator's review: the pending list names it, approve makes it usable.
    const pending = await cli('beneficiaries', 'list', '--status', 'pending', '--json');
    assert.equal(pending.code, 0, pending.stderr);
    const listed = (
      JSON.parse(pending.stdout) as { beneficiaries: (Beneficiary & { merchant_id: string })[] }
    ).beneficiaries.find((b) => b.id === beneficiary.id);
    assert.deepEqual([listed?.iban, listed?.merchant_id], [iban, m.merchantId]);
    const approved = await cli('beneficiaries', 'approve', '--id', beneficiary.id, '--json');
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal((JSON.parse(approved.stdout) as { beneficiary: Beneficiary }).beneficiary.status, 'approved');
    const twice = await cli('beneficiaries', 'approve', '--id', beneficiary.id);
    assert.notEqual(twice.code, 0);
    assert.match(twice.stderr, /already approved/);

    // A rejected one stays refused.
    const other = await register(api, shebaFor(Date.now() + 1), 'Agency two');
    const rejected = await cli(
      'beneficiaries',
      'reject',
      '--id',
      other.id,
      '--reason',
      'not the partner named in the contract',
      '--json',
    );
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.deepEqual(
      [
        (JSON.parse(rejected.stdout) as { beneficiary: Beneficiary }).beneficiary.status,
        (JSON.parse(rejected.stdout) as { beneficiary: Beneficiary }).beneficiary.reason,
      ],
      ['rejected', 'not the partner named in the contract'],
    );
    await refused([{ iban: other.iban, amount: 100_000 }], 'beneficiary_not_approved');

    // The default plan's fee on 1,000,000 is 10,000: up to 990,000 may be split.
    await refused([{ iban, amount: 990_001 }], 'split_exceeds_amount');
    await refused(
      [{ iban: `${iban.slice(0, -1)}${iban.endsWith('9') ? '0' : String(Number(iban.at(-1)) + 1)}`, amount: 1 }],
      'validation_failed',
    );
    await refused([{ iban, amount: 0 }], 'validation_failed');
    await refused(
      Array.from({ length: 11 }, () => ({ iban, amount: 1 })),
      'validation_failed',
    );
    const written = await h.db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('merchant_id', '=', m.merchantId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(written.n), 0, 'no payment written by a refused create');

    const accepted = await create([
      { iban: iban.replace(/(.{4})/g, '$1 ').trim(), amount: 990_000, description: 'commission' },
    ]);
    assert.equal(accepted.status, 201, accepted.text);
    const shown = [
      { beneficiary_id: beneficiary.id, iban, amount: 990_000, description: 'commission', refunded: 0, settled: false },
    ];
    assert.deepEqual(accepted.body.payment.splits, shown);
    const got = await api.get<{ payment: Payment }>(`/payments/${accepted.body.payment.id}`);
    assert.deepEqual(got.body.payment.splits, shown);
    const list = await api.get<{ data: Beneficiary[] }>('/beneficiaries');
    assert.deepEqual(
      list.body.data.map((b) => [b.id, b.status]).sort(),
      [
        [beneficiary.id, 'approved'],
        [other.id, 'rejected'],
      ].sort(),
    );
  });

  it('only a live key registers a beneficiary: a test key is refused with live_mode_only and nothing is written', async function () {
    this.timeout(60_000);
    const h = await getHarness();
    const m = await liveMerchant();
    const iban = shebaFor(Date.now() + 11);
    const res = await client(h.baseUrl, m.testKey).post<{ code: string; message: string; request_id: string }>(
      '/beneficiaries',
      { iban, name: 'Agency' },
    );
    assert.deepEqual([res.status, res.body.code], [403, 'live_mode_only'], res.text);
    assert.ok(res.body.message.length > 0 && res.body.request_id.length > 0);
    assert.equal(
      (await h.db.selectFrom('beneficiaries').select('id').where('iban', '=', iban).execute()).length,
      0,
      'nothing written',
    );
    // The list stays readable in either mode.
    const list = await client(h.baseUrl, m.testKey).get<{ data: Beneficiary[] }>('/beneficiaries');
    assert.equal(list.status, 200, list.text);
  });

  it('the operator revokes an approved beneficiary (CLI): later splits to it are refused, registering it again does not bring it back', async function () {
    this.timeout(120_000);
    const h = await getHarness();
    const m = await liveMerchant();
    const api = client(await liveBankApi(), m.liveKey);
    const b = await register(api, shebaFor(Date.now() + 13), 'Agency');
    const pendingRevoke = await cli('beneficiaries', 'revoke', '--id', b.id, '--reason', 'contract ended');
    assert.notEqual(pendingRevoke.code, 0, 'only an approved beneficiary is revoked');
    assert.match(pendingRevoke.stderr, /is pending/);
    await decideBeneficiary(h.db, b.id, { status: 'approved' });
    const create = () =>
      api.post<{ code: string; payment: Payment }>('/payments', {
        amount: 1_000_000,
        ...order(),
        splits: [{ iban: b.iban, amount: 100_000 }],
      });
    const before = await create();
    assert.equal(before.status, 201, before.text);

    const noReason = await cli('beneficiaries', 'revoke', '--id', b.id);
    assert.notEqual(noReason.code, 0, 'a revoke says why');
    const revoked = await cli(
      'beneficiaries',
      'revoke',
      '--id',
      b.id,
      '--reason',
      'the partner contract ended',
      '--json',
    );
    assert.equal(revoked.code, 0, revoked.stderr);
    const shown = (JSON.parse(revoked.stdout) as { beneficiary: Beneficiary }).beneficiary;
    assert.deepEqual([shown.status, shown.reason], ['revoked', 'the partner contract ended']);
    const twice = await cli('beneficiaries', 'revoke', '--id', b.id, '--reason', 'again');
    assert.notEqual(twice.code, 0);
    assert.match(twice.stderr, /is revoked/);

    const after = await create();
    assert.deepEqual([after.status, after.body.code], [422, 'beneficiary_not_approved'], after.text);
    const again = await api.post<{ beneficiary: Beneficiary }>('/beneficiaries', { iban: b.iban, name: 'Agency' });
    assert.deepEqual(
      [again.status, again.body.beneficiary.id, again.body.beneficiary.status],
      [200, b.id, 'revoked'],
      'the same IBAN again is the revoked beneficiary, not a new pending one',
    );
    const listed = await cli('beneficiaries', 'list', '--status', 'revoked', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok((JSON.parse(listed.stdout) as { beneficiaries: Beneficiary[] }).beneficiaries.some((x) => x.id === b.id));
    // The payment made before the revoke keeps its share: it was agreed when the payment was made (docs/PAYMENTS.md#split-settlement).
    const kept = await api.get<{ payment: Payment }>(`/payments/${before.body.payment.id}`);
    assert.deepEqual(
      kept.body.payment.splits?.map((x) => x.beneficiary_id),
      [b.id],
    );
  });

  it('test mode splits by the same rules: a customer-pays payment may split its whole amount, and the test ledger holds the shares', async function () {
    this.timeout(120_000);
    const h = await getHarness();
    const m = await liveMerchant();
    // Registered by a live key (a test key may not name where money goes); test payments split to it by the same rules.
    const beneficiary = await register(client(await liveBankApi(), m.liveKey), shebaFor(Date.now() + 7), 'Agency');
    await decideBeneficiary(h.db, beneficiary.id, { status: 'approved' });
    // The customer pays the fee (10,000 on 1,000,000): the merchant receives the whole amount, all of it may be split.
    const paid = await paidPayment(h.baseUrl, m.testKey, {
      amount: 1_000_000,
      fee_payer: 'customer',
      splits: [{ iban: beneficiary.iban, amount: 1_000_000 }],
    });
    const verified = await client(h.baseUrl, m.testKey).post<{ payment: Payment }>(`/payments/${paid.id}/verify`, {
      amount: 1_000_000,
    });
    assert.equal(verified.status, 200, verified.text);
    assert.deepEqual(await accountBalances(h.db, m.merchantId, 'test'), {
      clearing: -1_010_000,
      fees: 10_000,
      beneficiaries: 1_000_000,
      held: 0,
    });
    // Nothing of the merchant's share is left: the refund comes from the share.
    const refund = await client(h.baseUrl, m.testKey).post<{ refund: Refund }>(`/payments/${paid.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 400_000,
    });
    assert.equal(refund.status, 201, refund.text);
    await approveTypedIban(refund.body.refund);
    await waitForRefund(h.baseUrl, m.testKey, refund.body.refund.id, 'succeeded');
    const share = await h.db
      .selectFrom('payment_splits')
      .select('refunded')
      .where('payment_id', '=', paid.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(share.refunded), 400_000);
    const accounts = await accountBalances(h.db, m.merchantId, 'test');
    assert.deepEqual([accounts.beneficiaries, accounts.balance ?? 0, accounts.refunds ?? 0], [600_000, 0, 0]);
    await assertLedgerBalanced(h.db, 'after a test-mode split payment and its refund', { merchantIds: [m.merchantId] });
  });

  it('a day of split payments, one refunded, settles to the rial per beneficiary, once, with the lines and CSV showing the shares', async function () {
    this.timeout(240_000);
    const h = await getHarness();
    const m = await liveMerchant();
    await setSettlementIban(h.db, m.merchantId, SETTLEMENT_IBAN);
    const liveApi = await liveBankApi();
    const api = client(liveApi, m.liveKey);
    const [b1, b2] = [
      await register(api, shebaFor(Date.now() + 2), 'Agency'),
      await register(api, shebaFor(Date.now() + 3), 'Guide'),
    ];
    for (const b of [b1, b2]) await decideBeneficiary(h.db, b.id, { status: 'approved' });
    const split = (b: Beneficiary, amount: number) => ({ iban: b.iban, amount, description: `share of ${b.name}` });

    // Fees (the default plan, 1 %): 20,000, 10,000, 10,000. The merchant keeps 1,180,000, 790,000 and 0.
    const p1 = await verifiedLivePayment(liveApi, m.liveKey, 2_000_000, undefined, {
      splits: [split(b1, 500_000), split(b2, 300_000)],
    });
    const p2 = await verifiedLivePayment(liveApi, m.liveKey, 1_000_000, undefined, { splits: [split(b1, 200_000)] });
    const p3 = await verifiedLivePayment(liveApi, m.liveKey, 1_000_000, undefined, {
      splits: [split(b1, 400_000), split(b2, 590_000)],
    });
    // p3 leaves the merchant nothing: its refund comes from the shares, pro rata 400:590, the largest remainder
    // taking the odd rial (40,404.04 and 59,595.96: b2's remainder is the larger).
    const refund = await api.post<{ refund: Refund }>(`/payments/${p3.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_000,
    });
    assert.equal(refund.status, 201, refund.text);
    await approveTypedIban(refund.body.refund);
    await waitForRefund(liveApi, m.liveKey, refund.body.refund.id, 'succeeded');
    const shares = await h.db
      .selectFrom('payment_splits')
      .select(['beneficiary_id', 'refunded'])
      .where('payment_id', '=', p3.id)
      .orderBy('position')
      .execute();
    assert.deepEqual(
      shares.map((s) => [s.beneficiary_id, Number(s.refunded)]),
      [
        [b1.id, 40_404],
        [b2.id, 59_596],
      ],
    );
    await assertLedgerBalanced(h.db, 'after the refund of a split payment', { merchantIds: [m.merchantId] });

    const toB1 = 500_000 + 200_000 + (400_000 - 40_404);
    const toB2 = 300_000 + (590_000 - 59_596);
    const net = 1_180_000 + 790_000 + 0;
    assert.equal(4_000_000 - 40_000 - (toB1 + toB2) - 100_000, net);

    const { id, outcome } = await settleNow(m.merchantId);
    assert.deepEqual(outcome, { result: 'paid', settlement_id: id, net });
    const got = await api.get<{ settlement: Settlement; lines: SettlementLine[] }>(`/settlements/${id}`);
    assert.equal(got.status, 200, got.text);
    const s = got.body.settlement;
    assert.deepEqual(
      [s.status, s.gross, s.fees, s.splits, s.refunds, s.net],
      ['paid', 4_000_000, 40_000, toB1 + toB2, 100_000, net],
    );
    const splitLines = got.body.lines.filter((l) => l.kind === 'split');
    assert.equal(splitLines.length, 5);
    const perIban = (iban: string) => -splitLines.filter((l) => l.iban === iban).reduce((sum, l) => sum + l.amount, 0);
    assert.deepEqual([perIban(b1.iban), perIban(b2.iban)], [toB1, toB2]);
    assert.deepEqual(
      got.body.lines.filter((l) => l.kind !== 'split').map((l) => l.iban),
      [null, null, null, null],
    );

    // One transfer per beneficiary and one to the merchant, each under its key.
    const transfers = (await payoutTransfers(id)).map((t) => [t.transfer_id, t.amount, t.iban]).sort();
    assert.deepEqual(
      transfers,
      [
        [`payout:${id}:1`, net, SETTLEMENT_IBAN],
        [`payout:${id}:beneficiary:${b1.id}`, toB1, b1.iban],
        [`payout:${id}:beneficiary:${b2.id}`, toB2, b2.iban],
      ].sort(),
    );
    const payouts = await h.db
      .selectFrom('beneficiary_payouts')
      .select(['beneficiary_id', 'amount', 'status'])
      .where('settlement_id', '=', id)
      .orderBy('amount', 'desc')
      .execute();
    assert.deepEqual(
      payouts.map((p) => [p.beneficiary_id, Number(p.amount), p.status]),
      [
        [b1.id, toB1, 'paid'],
        [b2.id, toB2, 'paid'],
      ],
    );

    const csv = await fetch(`${h.baseUrl}/api/v1/settlements/${id}/lines.csv`, {
      headers: { authorization: `Bearer ${m.liveKey}` },
    });
    const rows = (await csv.text()).trim().split('\r\n');
    assert.equal(rows[0], 'kind,object_id,payment_id,amount,fee,net,iban');
    assert.equal(rows.length, 1 + 3 + 1 + 5);
    assert.equal(rows.filter((r) => r.startsWith('split,') && r.endsWith(`,${b1.iban}`)).length, 3);
    assert.equal(rows.filter((r) => r.startsWith('split,') && r.endsWith(`,${b2.iban}`)).length, 2);

    // Settling again the same day pays nobody twice: nothing is left to settle.
    const again = await settleNow(m.merchantId);
    assert.deepEqual(again.outcome, { result: 'carried', net: 0 });
    assert.deepEqual(await payoutTransfers(again.id), []);
    const allPayouts = await h.db
      .selectFrom('beneficiary_payouts')
      .select('settlement_id')
      .where('merchant_id', '=', m.merchantId)
      .execute();
    assert.deepEqual(
      allPayouts.map((p) => p.settlement_id),
      [id, id],
    );

    // A refund after the shares were paid out does not claw them back: it comes from the merchant's balance.
    const late = await api.post<{ refund: Refund }>(`/payments/${p1.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 1_200_000,
    });
    assert.equal(late.status, 201, late.text);
    await approveTypedIban(late.body.refund);
    await waitForRefund(liveApi, m.liveKey, late.body.refund.id, 'succeeded');
    const p1Shares = await h.db
      .selectFrom('payment_splits')
      .select('refunded')
      .where('payment_id', '=', p1.id)
      .execute();
    assert.deepEqual(
      p1Shares.map((r) => Number(r.refunded)),
      [0, 0],
    );
    const accounts = await accountBalances(h.db, m.merchantId, 'live');
    assert.deepEqual([accounts.balance, accounts.beneficiaries ?? 0, accounts.payouts ?? 0], [-1_200_000, 0, 0]);
    assert.equal(p2.status, 'verified');
    await assertLedgerBalanced(h.db, 'after split settlement', { merchantIds: [m.merchantId] });
  });
});
