/**
 * The operator's retry of a beneficiary transfer the bank refused (docs/LEDGER.md#split-settlement,
 * docs/OPERATIONS.md#a-refused-beneficiary-transfer) against the real stack: a settlement whose first
 * beneficiary transfer the bank simulator refuses is paid to everyone else (each beneficiary's transfer in
 * an activity of its own); `settlements retry`, run twice at once through the real CLI, pays the refused
 * share exactly once under the next attempt's key; a third retry is refused, with the state of every
 * transfer; one beneficiary_payout event per answer reaches the merchant's live receiver; the ledger balances throughout.
 */
import assert from 'node:assert/strict';
import { accountBalances } from '../../src/db/ledger.ts';
import { beneficiaryPayoutWorkflowId } from '../../src/domain/settlement.ts';
import { setSettlementIban } from '../../src/settlements/service.ts';
import { bankFault, payoutTransfers } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { getHarness, liveBankApi } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { approvedBeneficiary, SETTLEMENT_IBAN, settleNow } from '../support/settlement.ts';
import { closedWorkflow } from '../support/work.ts';
import { client } from '../support/http.ts';
import { operatorNetworkPlace } from '../support/operator-network.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

type Retried = {
  settlement_id: string;
  retried: { beneficiary_id: string; amount: number; attempt: number; status: string }[];
};

describe('settlement: retrying a refused beneficiary transfer', () => {
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await bankFault(null);
    for (const r of receivers.splice(0)) await r.close();
  });

  it('pays the refused share once under the next attempt’s key, however many retries race; a paid one is never asked for again', async function () {
    this.timeout(240_000);
    const h = await getHarness();
    const [m, liveApi] = [await liveMerchant(), await liveBankApi()];
    await setSettlementIban(h.db, m.merchantId, SETTLEMENT_IBAN);
    const rcv = await startReceiver('/webhooks', operatorNetworkPlace());
    receivers.push(rcv);
    // The operator's network counts only for the merchants the operator allowed there.
    const allowed = await cli('merchants', 'allow-operator-network', '--merchant', m.merchantId);
    assert.equal(allowed.code, 0, allowed.stderr);
    const endpoint = await client(liveApi, m.liveKey).post<{ secret: string }>('/webhook_endpoints', {
      url: rcv.url,
      events: ['beneficiary_payout.paid', 'beneficiary_payout.failed'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    const secret = endpoint.body.secret;
    rcv.secrets.push(secret);
    const b1 = await approvedBeneficiary(h.db, m.merchantId, 'Agency');
    const b2 = await approvedBeneficiary(h.db, m.merchantId, 'Guide');
    // The fee on 2,000,000 is 20,000: the merchant keeps 1,180,000.
    await verifiedLivePayment(liveApi, m.liveKey, 2_000_000, undefined, {
      splits: [
        { iban: b1.iban, amount: 500_000 },
        { iban: b2.iban, amount: 300_000 },
      ],
    });
    const share = new Map([
      [b1.id, 500_000],
      [b2.id, 300_000],
    ]);
    // The beneficiaries are paid in the order of their ids, before the merchant: the first transfer is refused.
    const [refused, other] = [b1.id, b2.id].sort();
    await bankFault({ operation: 'payout', fault: 'unknown', times: 1 });
    const { id, outcome } = await settleNow(m.merchantId);
    assert.deepEqual(outcome, { result: 'paid', settlement_id: id, net: 1_180_000 });
    const payoutRows = () =>
      h.db
        .selectFrom('beneficiary_payouts')
        .select(['beneficiary_id', 'status', 'attempt', 'failure_code'])
        .where('settlement_id', '=', id)
        .orderBy('beneficiary_id')
        .execute();
    assert.deepEqual(await payoutRows(), [
      { beneficiary_id: refused, status: 'failed', attempt: 1, failure_code: 'bank_refused' },
      { beneficiary_id: other, status: 'paid', attempt: 1, failure_code: null },
    ]);
    const keyOf = (beneficiaryId: string, attempt = 1) =>
      `payout:${id}:beneficiary:${beneficiaryId}${attempt === 1 ? '' : `:${attempt}`}`;
    const transfers = async () => (await payoutTransfers(id)).map((t) => [t.transfer_id, t.amount] as const).sort();
    assert.deepEqual(
      await transfers(),
      [
        [`payout:${id}:1`, 1_180_000],
        [keyOf(other!), share.get(other!)!],
      ].sort(),
    );
    // The refused share stays reserved in payouts.
    assert.equal((await accountBalances(h.db, m.merchantId, 'live')).payouts, share.get(refused!));
    await assertLedgerBalanced(h.db, 'after the refused beneficiary transfer', { merchantIds: [m.merchantId] });

    // Two operators retry at once: one reopens the refused transfer as attempt 2. The other finds it reopened (and says
    // the same) or, when it looks only after attempt 2 was paid, finds nothing to retry. Either way: one transfer.
    const runs = await Promise.all([
      cli('settlements', 'retry', '--id', id, '--json'),
      cli('settlements', 'retry', '--id', id, '--json'),
    ]);
    const reopened = runs.filter((run) => run.code === 0);
    assert.ok(reopened.length >= 1, runs.map((run) => run.stderr).join('\n'));
    for (const run of reopened) {
      const answer = JSON.parse(run.stdout) as Retried & { attempt?: number };
      assert.deepEqual(answer.retried, [
        { beneficiary_id: refused, amount: share.get(refused!), attempt: 2, status: 'pending' },
      ]);
      assert.equal(answer.attempt, undefined, "the merchant's own transfer was paid: not retried");
    }
    for (const run of runs.filter((r) => r.code !== 0)) {
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`no refused (beneficiary )?transfer to retry \\(.*${refused} paid`));
    }
    await waitFor(
      'the retried transfer to be paid',
      async () => ((await payoutRows()).every((r) => r.status === 'paid') ? true : undefined),
      60_000,
    );
    assert.deepEqual(
      (await payoutRows()).map((r) => [r.beneficiary_id, r.status, r.attempt]),
      [
        [refused, 'paid', 2],
        [other, 'paid', 1],
      ],
    );
    assert.deepEqual(
      await transfers(),
      [
        [`payout:${id}:1`, 1_180_000],
        [keyOf(other!), share.get(other!)!],
        [keyOf(refused!, 2), share.get(refused!)!],
      ].sort(),
    );
    // The row is marked paid by the workflow's last activity, a moment before the workflow itself completes.
    assert.equal(await closedWorkflow(h.temporal.client, beneficiaryPayoutWorkflowId(id, refused!, 2)), 'COMPLETED');

    // Nothing left to retry: refused with the reason, nothing asked of the bank.
    const again = await cli('settlements', 'retry', '--id', id, '--beneficiary', refused!);
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`no refused beneficiary transfer to retry \\(${refused} paid\\)`));
    const all = await cli('settlements', 'retry', '--id', id);
    assert.equal(all.code, 1);
    assert.match(
      all.stderr,
      new RegExp(
        `no refused transfer to retry \\(the merchant's paid, ${[refused, other]
          .sort()
          .map((b) => `${b} paid`)
          .join(', ')}\\)`,
      ),
    );
    const unknown = await cli('settlements', 'retry', '--id', '00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no settlement 00000000-0000-4000-8000-000000000000/);
    const older = await cli('settlements', 'retry-beneficiaries', '--id', '00000000-0000-4000-8000-000000000000');
    assert.equal(older.code, 1);
    assert.match(older.stderr, /pays no beneficiary/, 'the older command still answers');
    assert.equal((await payoutTransfers(id)).length, 3);

    // One event per recorded answer, delivered to the merchant's live receiver (https, on the operator's network:
    // operator-network.ts) and verified there with the endpoint's secret, as the README tells merchants to.
    const delivered = async (type: string, count: number) =>
      (
        await rcv.waitForDeliveries(
          (d) => d.event.type === type && d.event.data.beneficiary_payout?.settlement_id === id,
          count,
          60_000,
        )
      )
        .map((d) => {
          assert.deepEqual([d.verifiedWith, d.answered], [[secret], 200]);
          return d.event.data.beneficiary_payout!;
        })
        .map(
          (p) =>
            [
              p.beneficiary_id,
              p.status,
              p.attempt,
              p.amount,
              p.status === 'paid' ? p.bank_reference !== null : p.failure?.code,
            ] as const,
        )
        .sort();
    assert.deepEqual(await delivered('beneficiary_payout.failed', 1), [
      [refused!, 'failed', 1, share.get(refused!)!, 'bank_refused'],
    ]);
    assert.deepEqual(
      await delivered('beneficiary_payout.paid', 2),
      [
        [refused!, 'paid', 2, share.get(refused!)!, true],
        [other!, 'paid', 1, share.get(other!)!, true],
      ].sort(),
    );
    // Exactly one delivery of each event: no event made twice for one answer.
    const ids = rcv.deliveries.filter((d) => d.event.type.startsWith('beneficiary_payout.')).map((d) => d.event.id);
    assert.equal(new Set(ids).size, 3, `three beneficiary events, each delivered once: ${ids.join(', ')}`);

    const accounts = await accountBalances(h.db, m.merchantId, 'live');
    assert.deepEqual([accounts.payouts ?? 0, accounts.beneficiaries ?? 0], [0, 0]);
    await assertLedgerBalanced(h.db, 'after the retried beneficiary transfer', { merchantIds: [m.merchantId] });
  });
});
