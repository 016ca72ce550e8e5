/**
 * A payment routed to Mellat whose PSP fails after the redirect (docs/psps/routing.md: "after the
 * redirect the payment never moves"): Mellat's verify does the work and never answers, then fails
 * with server errors, and the only worker is killed with SIGKILL in the middle. A new worker
 * confirms each payment at Mellat (43: verified before), then settles the one its merchant verifies
 * and reverses the one nobody verifies, at Mellat only: the SEP simulator, second in the route,
 * never hears of them, and no money moves twice.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { mellatOrderId } from '../../src/psps/mellat/mapping.ts';
import { replaceMerchantRoute } from '../../src/db/psp-routes.ts';
import { bankAdmin, bankFault, mellatSimulatorUrl, simulatorUrl } from '../support/bank.ts';
import { waitFor } from '../support/http.ts';
import { bankRedirectForm, createdPayment, pressPay, walkPostedBankPage } from '../support/payments.ts';
import { recordsDifferingFromWorkflows, verifyThroughFaults } from '../support/faults/checks.ts';
import { faultApi, faultMerchant, getFaultStack, startWorker } from '../support/faults/fault-stack.ts';

/** What a simulator's ledger holds of an order id (Mellat: the payment's numeric order id; SEP: its id). */
const operations = async (base: string, resNum: string) =>
  (
    await bankAdmin<{ operations: { kind: string }[] }>(
      `/admin/transactions?res_num=${encodeURIComponent(resNum)}`,
      base,
    )
  ).operations.map((o) => o.kind);
const atMellat = (paymentId: string) => operations(mellatSimulatorUrl(), mellatOrderId(paymentId));
const count = (kinds: string[], kind: string) => kinds.filter((k) => k === kind).length;

describe('fault: Mellat fails after the redirect and the worker is killed meanwhile', () => {
  after(() => bankFault(null, mellatSimulatorUrl()));

  it('each payment is confirmed, then settled or reversed, at Mellat alone and once; SEP never hears of it', async () => {
    const s = await getFaultStack();
    const merchant = await faultMerchant();
    // Mellat first, SEP after it: SEP could take a payment only before the redirect.
    const terminals = [
      { psp: 'mellat', terminal_id: s.baseConfig.SANDBOX_MELLAT_TERMINAL_ID },
      { psp: 'sep', terminal_id: s.baseConfig.SANDBOX_SEP_TERMINAL_ID },
    ];
    await replaceMerchantRoute(
      s.db,
      merchant.merchantId,
      'test',
      terminals.map((t, position) => ({
        ...t,
        position,
        priority: position,
        weight: 1,
        min_amount: null,
        max_amount: null,
      })),
      new Date(),
    );
    // A verify window long enough to verify one payment after the outage, short enough to see the other reversed.
    const api = await faultApi({ VERIFY_WINDOW_SECONDS: '60' });
    const toVerify = await createdPayment(api, merchant.key, { amount: 125_000, merchant_reference: 'mellat-verify' });
    const toReverse = await createdPayment(api, merchant.key, { amount: 83_000, merchant_reference: 'mellat-reverse' });
    const payments = [toVerify, toReverse];

    // Mellat's verify from now on: four calls verify and never answer, then two answer a server error.
    await bankFault({ operation: 'confirm', fault: 'timeout', times: 4 }, mellatSimulatorUrl());
    for (const payment of payments) {
      const pay = await pressPay(api, payment.id);
      assert.equal(pay.status, 200, 'our page with the form to Mellat');
      const form = bankRedirectForm(await pay.text());
      assert.ok(form !== undefined && form.url.endsWith('/pgwchannel/startpay.mellat'), `sent to Mellat: ${form?.url}`);
      const back = await walkPostedBankPage(api, payment.id, form, 'success');
      assert.equal(back.status, 303, 'the customer is answered while the bank is silent');
    }
    // Both verifies reached Mellat (it verified them) and hang: the worker dies with them in flight.
    await waitFor(
      'Mellat to have verified both payments',
      async () =>
        (await Promise.all(payments.map((p) => atMellat(p.id)))).every((kinds) => kinds.includes('confirm'))
          ? true
          : undefined,
      60_000,
      200,
    );
    await s.worker!.kill('SIGKILL');
    await bankFault({ operation: 'confirm', fault: 'error', times: 2 }, mellatSimulatorUrl());
    await sleep(3_000);
    await startWorker(s);

    // Mellat's retried verify answers 43 (verified before): both are paid, without an RRN Mellat never gives.
    for (const payment of payments) {
      await waitFor(
        `${payment.merchant_reference} to be paid`,
        async () => {
          const row = await s.db
            .selectFrom('payments')
            .select(['status', 'psp', 'rrn'])
            .where('id', '=', payment.id)
            .executeTakeFirstOrThrow();
          return row.status === 'paid' ? row : undefined;
        },
        240_000,
        500,
      ).then((row) => assert.deepEqual(row, { status: 'paid', psp: 'mellat', rrn: null }));
    }
    const verified = await verifyThroughFaults(api, merchant.key, toVerify);
    assert.equal(verified.res.status, 200, verified.res.text);
    await waitFor(
      'the unverified payment to be reversed at its deadline',
      async () => {
        const row = await s.db
          .selectFrom('payments')
          .select('status')
          .where('id', '=', toReverse.id)
          .executeTakeFirstOrThrow();
        return row.status === 'reversed' ? true : undefined;
      },
      240_000,
      1_000,
    );

    // At Mellat: each verified once (the retries answered 43), one settled once, the other reversed once.
    const verifiedKinds = await atMellat(toVerify.id);
    const reversedKinds = await atMellat(toReverse.id);
    assert.deepEqual(
      [
        count(verifiedKinds, 'token'),
        count(verifiedKinds, 'confirm'),
        count(verifiedKinds, 'settle'),
        count(verifiedKinds, 'reverse'),
      ],
      [1, 1, 1, 0],
      verifiedKinds.join(','),
    );
    assert.deepEqual(
      [
        count(reversedKinds, 'token'),
        count(reversedKinds, 'confirm'),
        count(reversedKinds, 'settle'),
        count(reversedKinds, 'reverse'),
      ],
      [1, 1, 0, 1],
      reversedKinds.join(','),
    );
    // SEP, second in the route, was never asked anything about them, not even a token.
    for (const payment of payments)
      assert.deepEqual(
        await operations(simulatorUrl(), payment.id),
        [],
        `SEP knows nothing of ${payment.merchant_reference}`,
      );
    const rows = await s.db
      .selectFrom('payments')
      .select(['id', 'status', 'psp', 'refunded_amount'])
      .where('merchant_id', '=', merchant.merchantId)
      .orderBy('amount', 'desc')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.status, r.psp, Number(r.refunded_amount)]),
      [
        ['verified', 'mellat', 0],
        ['reversed', 'mellat', 83_000],
      ],
    );
    assert.deepEqual(
      await recordsDifferingFromWorkflows(
        s,
        payments.map((p) => p.id),
      ),
      [],
    );
  });
});
