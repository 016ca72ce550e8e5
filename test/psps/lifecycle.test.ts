/**
 * The lifecycle every PSP connector is held to (docs/ARCHITECTURE.md#the-registry-of-psps), one
 * table-driven suite over the registry (PSP_NAMES): for each PSP, against the suite's simulator of
 * that PSP (its SANDBOX_<PSP>_URL, one the launcher runs per registered PSP), a merchant routed to it
 * alone (the operator's `routing set`, as test/psps/mellat/payment.test.ts does):
 *
 * - paid and verified, the PSP and terminal recorded, every operation at that PSP's simulator;
 * - paid and not verified: reversed at the verify deadline (a short VERIFY_WINDOW_SECONDS), at the PSP
 *   but where its capture is `merchant_verify` (it gives back itself what nobody verified: nothing asked);
 * - seen by the operator: `cli psps status` and the metrics name it (the dashboard's route view lists
 *   every PSP of the registry: test/dashboard/psp-route.test.ts);
 * - canceled at the PSP's page (recorded failed where its return, as its corpus shows it, does not tell a
 *   cancel from a failure);
 * - refunded by its capability: `psp_refund` for a part where the profile declares `refund: 'partial'`,
 *   else the whole payment by its `reversal` where its verify captured at the return, else (a settle
 *   captured, or the verify at the merchant's with no reversal) by a transfer to the customer's IBAN
 *   (docs/PAYMENTS.md#how-a-refund-is-paid-out);
 * - its token request failing before the redirect (its simulator's fault switch): the payment goes to
 *   the next PSP of the route, which pays it.
 *
 * The suite's payments have a verify window every registered PSP takes (SUITE_WINDOW_S). A new
 * connector is held to this by its registry entry alone. The customer's way is the test
 * helper's (`bank_outcome`): the token, the outcome chosen on the simulator of the PSP that gave it,
 * the PSP's return read by its connector.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PSP_NAMES, PSP_PROFILES, pspSettingName, type PspName } from '../../src/psps/profiles.ts';
import { pspOrderId } from '../../src/psps/reports.ts';
import { pspTakesVerifyWindow } from '../../src/domain/psp-routing.ts';
import type { BankOutcome } from '../../src/domain/payment.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { registry } from '../../src/observability/metrics.ts';
import { bankAdmin, bankFault } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { apiWith, getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { createdPayment, waitForStatus } from '../support/payments.ts';
import { approveTypedIban, REFUND_IBAN, waitForRefund, type RefundBody } from '../support/refunds.ts';

interface PaymentBody {
  payment: Payment;
}

/** What the simulator of a PSP did for a payment: its operations, by the id the PSP knows the payment by. */
async function operationsAt(simulator: string, psp: PspName, paymentId: string): Promise<string[]> {
  const { operations } = await bankAdmin<{ operations: { kind: string }[] }>(
    `/admin/transactions?res_num=${encodeURIComponent(pspOrderId(psp, paymentId))}`,
    simulator,
  );
  return operations.map((op) => op.kind);
}

/**
 * What the PSP's return of a customer's cancel says, as its conformance corpus shows it
 * (test/fixtures/psps/<psp>/return-canceled.json): `CanceledByUser`; `OK` where it carries nothing to
 * read and the PSP's own answer tells the cancel (Asan Pardakht's); or `Failed` where the PSP's return
 * does not tell a cancel from a failure (Sadad's ResCode -1), which the gateway records as it says.
 */
const cancelReturnOutcome = (psp: PspName): string =>
  (
    JSON.parse(readFileSync(new URL(`../fixtures/psps/${psp}/return-canceled.json`, import.meta.url), 'utf8')) as {
      outcome: string;
    }
  ).outcome;

/**
 * The suite's verify window: the default's (1800 s) where every registered PSP takes it, else the
 * longest, in minutes, that each does (a PSP that verifies only at the merchant's verify and gives back
 * unverified payments itself takes only a window that ends before that: pspTakesVerifyWindow).
 */
const DEFAULT_WINDOW_S = 1800;
const SUITE_WINDOW_S = [DEFAULT_WINDOW_S, 1200, 600, 300, 120].find((w) =>
  PSP_NAMES.every((psp) => pspTakesVerifyWindow(psp, w * 1000)),
)!;

for (const [index, psp] of PSP_NAMES.entries()) {
  const profile = PSP_PROFILES[psp];
  const next = PSP_NAMES[(index + 1) % PSP_NAMES.length]!;

  describe(`PSP ${psp}: the lifecycle every connector passes`, function () {
    this.timeout(90_000);
    let h: Harness;
    /** The API of the suite's verify window (SUITE_WINDOW_S). */
    let base: string;
    let key: string;
    let merchantId: string;
    const simulator = () => h.config[pspSettingName(psp, 'test', 'URL')];
    const terminal = () => h.config[pspSettingName(psp, 'test', 'TERMINAL_ID')];

    /** The customer's `outcome` at the bank, through the test helper of `baseUrl`'s API (a busy worker's 503 is asked again). */
    const atBank = async (baseUrl: string, id: string, outcome: BankOutcome) => {
      const api = client(baseUrl, key);
      let res = await api.post<PaymentBody>(`/test_helpers/payments/${id}/bank_outcome`, { outcome });
      for (let retry = 0; res.status === 503 && retry < 10; retry++) {
        await new Promise((r) => setTimeout(r, 1_000));
        res = await api.post<PaymentBody>(`/test_helpers/payments/${id}/bank_outcome`, { outcome });
      }
      assert.equal(res.status, 200, res.text);
      return res.body.payment;
    };
    const routeTo = async (psps: readonly PspName[]) => {
      const set = await cli('routing', 'set', '--merchant', merchantId, '--mode', 'test', '--psps', psps.join(','));
      assert.equal(set.code, 0, set.stderr);
    };

    before(async () => {
      h = await getHarness();
      base =
        SUITE_WINDOW_S === DEFAULT_WINDOW_S
          ? h.baseUrl
          : await apiWith({ VERIFY_WINDOW_SECONDS: String(SUITE_WINDOW_S) });
      assert.notEqual(
        simulator(),
        '',
        `${pspSettingName(psp, 'test', 'URL')}: the suite runs a simulator of every registered PSP`,
      );
      ({ key, merchantId } = await newMerchant());
      await routeTo([psp]);
    });

    it('pays and verifies: the PSP and its terminal recorded, every bank operation at its simulator', async () => {
      const created = await createdPayment(base, key, { amount: 130_000 });
      const paid = await atBank(base, created.id, 'success');
      assert.equal(paid.status, 'paid');
      assert.deepEqual(paid.psp, { name: psp, terminal_id: terminal() });
      assert.equal(paid.amount, 130_000);
      assert.ok(paid.reference_id !== null && paid.reference_id !== '', 'the PSP reference is recorded');
      const verified = await client(base, key).post<PaymentBody>(`/payments/${created.id}/verify`, { amount: 130_000 });
      assert.equal(verified.status, 200, verified.text);
      assert.equal(verified.body.payment.status, 'verified');
      const kinds = await operationsAt(simulator(), psp, created.id);
      assert.ok(kinds.includes('confirm'), `${psp} confirmed it: ${kinds.join(', ')}`);
      // Captured where the profile says: a settle only where capture is `settle`.
      assert.equal(
        kinds.includes('settle'),
        profile.capabilities.capture === 'settle',
        `${psp} (${profile.capabilities.capture}): ${kinds.join(', ')}`,
      );
    });

    it('is seen by the operator: `cli psps status` lists its test terminal, its breaker closed; the metrics count its tokens', async () => {
      // The breaker's state as the store every process shares holds it: what `psps status` answers and
      // the breaker gauge reads at each scrape (the gauge of this test process reads whichever worker
      // the suite created last, so the store is asked here).
      const status = await cli('psps', 'status', '--json');
      assert.equal(status.code, 0, status.stderr);
      const { psps } = JSON.parse(status.stdout) as {
        psps: { psp: string; terminal_id: string; mode: string; state: string }[];
      };
      assert.deepEqual(
        psps.filter((p) => p.psp === psp && p.mode === 'test').map((p) => [p.terminal_id, p.state]),
        [[terminal(), 'closed']],
      );
      // The first case paid a payment here: its token was counted under this PSP.
      assert.match(
        await registry.metrics(),
        new RegExp(`dargah_psp_token_requests_total\\{psp="${psp}",outcome="ok"\\} [1-9]`),
      );
    });

    it('paid and not verified: reversed at the verify deadline (at the PSP, but where the PSP gives it back itself), the whole amount back, no fee', async () => {
      const shortWindow = await apiWith({ VERIFY_WINDOW_SECONDS: '2' });
      const created = await createdPayment(shortWindow, key, { amount: 140_000 });
      assert.equal((await atBank(shortWindow, created.id, 'success')).status, 'paid');
      const reversed = await waitForStatus(shortWindow, key, created.id, 'reversed', 30_000);
      assert.deepEqual([reversed.refunded_amount, reversed.fee, reversed.verified_at], [140_000, 0, null]);
      const kinds = await operationsAt(simulator(), psp, created.id);
      if (profile.capabilities.capture === 'merchant_verify') {
        // Asked to verify only at the merchant's verify, and it gives back what nobody verified: nothing is asked of it.
        assert.deepEqual(kinds, ['token'], `${psp} was asked nothing after the token: ${kinds.join(', ')}`);
      } else {
        assert.ok(kinds.includes('reverse'), `${psp} reversed it`);
      }
    });

    const tellsCancel = cancelReturnOutcome(psp) !== 'Failed';
    it(`canceled at the PSP's page: ${tellsCancel ? 'canceled_by_customer' : 'failed card_declined (its return does not tell a cancel from a failure)'}, nothing confirmed`, async () => {
      const created = await createdPayment(base, key, { amount: 150_000 });
      await atBank(base, created.id, 'cancel');
      const canceled = await waitForStatus(base, key, created.id, tellsCancel ? 'canceled' : 'failed');
      assert.equal(canceled.failure?.code, tellsCancel ? 'canceled_by_customer' : 'card_declined');
      assert.deepEqual(canceled.psp, { name: psp, terminal_id: terminal() });
      assert.ok(!(await operationsAt(simulator(), psp, created.id)).includes('confirm'), 'nothing to confirm');
    });

    // The refund method its capabilities give (src/domain/refund.ts refundMethod): its own refund
    // operation for a part; else its reversal of the whole payment where its verify at the return
    // captured; else (a settle captured, and a settled payment cannot be reversed; or the verify is the
    // merchant's and the PSP has no reversal) the transfer to the customer's IBAN, once the operator approved
    // it (a typed IBAN is held: docs/PAYMENTS.md#refund-states). Without an IBAN such a refund goes to the card
    // that paid, claimed by the customer (test/refunds/refunds-to-payer.test.ts).
    const { capture, refund } = profile.capabilities;
    const refundBy = refund === 'partial' ? 'psp_refund' : capture === 'verify' ? 'reversal' : 'iban_payout';
    const refundCase = {
      psp_refund: 'a part by the PSP refund',
      reversal: 'the whole payment by its reversal',
      iban_payout: "the whole payment by a transfer to the customer's IBAN",
    }[refundBy];
    it(`refunds by its capability (capture: ${capture}, refund: ${refund}): ${refundCase}`, async () => {
      const created = await createdPayment(base, key, { amount: 160_000 });
      await atBank(base, created.id, 'success');
      const api = client(base, key);
      assert.equal((await api.post<PaymentBody>(`/payments/${created.id}/verify`, { amount: 160_000 })).status, 200);
      const body = { psp_refund: { amount: 60_000 }, reversal: {}, iban_payout: { destination_iban: REFUND_IBAN } }[
        refundBy
      ];
      const asked = await api.post<RefundBody>(`/payments/${created.id}/refunds`, body);
      assert.equal(asked.status, 201, asked.text);
      assert.equal(asked.body.refund.method, refundBy);
      if (refundBy === 'iban_payout') await approveTypedIban(asked.body.refund);
      else assert.equal(asked.body.refund.status, 'pending', 'the PSP pays it back at once');
      const done = await waitForRefund(base, key, asked.body.refund.id, 'succeeded');
      assert.equal(done.amount, refundBy === 'psp_refund' ? 60_000 : 160_000);
      const kinds = await operationsAt(simulator(), psp, created.id);
      const atPsp = { psp_refund: 'refund', reversal: 'reverse', iban_payout: undefined }[refundBy];
      if (atPsp === undefined)
        assert.ok(
          !kinds.includes('reverse') && !kinds.includes('refund'),
          `${psp} was asked nothing to pay it back: ${kinds.join(', ')}`,
        );
      else assert.ok(kinds.includes(atPsp), `${psp} paid it back by ${refundBy}: ${kinds.join(', ')}`);
      const payment = (await api.get<PaymentBody>(`/payments/${created.id}`)).body.payment;
      assert.equal(payment.refunded_amount, done.amount);
    });

    // With one PSP registered there is no next one to fail over to.
    if (next !== psp) {
      it(`fails over to the next PSP of the route (${next}) when its token request fails before the redirect`, async () => {
        await routeTo([psp, next]);
        try {
          await bankFault({ operation: 'token', fault: 'down' }, simulator());
          const created = await createdPayment(base, key, { amount: 170_000 });
          const paid = await atBank(base, created.id, 'success');
          assert.equal(paid.status, 'paid');
          assert.deepEqual(paid.psp, {
            name: next,
            terminal_id: h.config[pspSettingName(next, 'test', 'TERMINAL_ID')],
          });
          assert.ok(
            !(await operationsAt(simulator(), psp, created.id)).includes('confirm'),
            `${psp} confirmed nothing`,
          );
          const verified = await client(base, key).post<PaymentBody>(`/payments/${created.id}/verify`, {
            amount: 170_000,
          });
          assert.equal(verified.status, 200, verified.text);
        } finally {
          await bankFault({ operation: 'token', fault: 'clear' }, simulator());
          await routeTo([psp]);
        }
      });
    }
  });
}

describe("README's routing set names every PSP of the registry", () => {
  it('the command the README gives, with every registered PSP, is accepted beside the running stack and sets that route', async () => {
    const readme = await readFile(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const named = /routing set --merchant <id> --mode test\|live --psps ([a-z0-9,]+)/.exec(readme)?.[1]?.split(',');
    assert.deepEqual(
      [...(named ?? [])].sort(),
      [...PSP_NAMES].sort(),
      "README's routing set names the registry's PSPs",
    );
    await getHarness();
    const { merchantId } = await newMerchant();
    const set = await cli('routing', 'set', '--merchant', merchantId, '--mode', 'test', '--psps', named!.join(','));
    assert.equal(set.code, 0, set.stderr);
    const shown = await cli('routing', 'show', '--merchant', merchantId, '--mode', 'test', '--json');
    const { routes } = JSON.parse(shown.stdout) as { routes: { test: { entries: { psp: string }[] } } };
    assert.deepEqual(
      routes.test.entries.map((e) => e.psp),
      named,
    );
  });
});
