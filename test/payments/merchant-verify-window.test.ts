/**
 * A PSP asked to verify only at the merchant's verify, with no reversal (capture `merchant_verify`:
 * Sadad, Pasargad), gives back by itself a payment nobody verifies within its `unverifiedReversalMs`; it takes only
 * payments whose verify window ends the margin before that (pspTakesVerifyWindow, docs/psps/sadad.md).
 * A payment of a longer window (the default 1800 s) is routed past it to the next PSP of the route, and
 * the PSP is asked nothing; one whose window fits is routed to it.
 */
import assert from 'node:assert/strict';
import { PSP_NAMES, PSP_PROFILES, pspSettingName } from '../../src/psps/profiles.ts';
import { pspOrderId } from '../../src/psps/reports.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { pspTakesVerifyWindow, UNVERIFIED_REVERSAL_MARGIN_MS } from '../../src/domain/psp-routing.ts';
import { bankAdmin } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { createdPayment } from '../support/payments.ts';

const merchantVerify = PSP_NAMES.filter((psp) => PSP_PROFILES[psp].capabilities.capture === 'merchant_verify');
const other = PSP_NAMES.find((psp) => PSP_PROFILES[psp].capabilities.capture !== 'merchant_verify')!;

for (const psp of merchantVerify) {
  describe(`PSP ${psp} (capture at the merchant's verify): only payments whose verify window it takes`, function () {
    this.timeout(90_000);

    it(`a payment of the default window (1800 s) goes past ${psp} to the next PSP (${other}); one of a window it takes goes to ${psp}`, async () => {
      const h = await getHarness();
      assert.equal(pspTakesVerifyWindow(psp, 1_800_000), false);
      const { key, merchantId } = await newMerchant();
      const set = await cli(
        'routing',
        'set',
        '--merchant',
        merchantId,
        '--mode',
        'test',
        '--psps',
        `${psp},${other}`,
        '--json',
      );
      assert.equal(set.code, 0, set.stderr);
      // The operator is told: the route's entry says the PSP does not take this deployment's window.
      const { entries } = JSON.parse(set.stdout) as { entries: { psp: string; takes_verify_window: boolean }[] };
      assert.deepEqual(
        entries.map((e) => [e.psp, e.takes_verify_window]),
        [
          [psp, false],
          [other, true],
        ],
      );
      const pay = async (baseUrl: string, amount: number) => {
        const created = await createdPayment(baseUrl, key, { amount });
        const res = await client(baseUrl, key).post<{ payment: Payment }>(
          `/test_helpers/payments/${created.id}/bank_outcome`,
          { outcome: 'success' },
        );
        assert.equal(res.status, 200, res.text);
        return res.body.payment;
      };
      const long = await pay(h.baseUrl, 180_000);
      assert.equal(long.status, 'paid');
      assert.equal(long.psp?.name, other);
      const simulator = h.config[pspSettingName(psp, 'test', 'URL')];
      const { operations } = await bankAdmin<{ operations: unknown[] }>(
        `/admin/transactions?res_num=${encodeURIComponent(pspOrderId(psp, long.id))}`,
        simulator,
      );
      assert.deepEqual(operations, [], `${psp} was asked nothing`);
      // The longest window it takes: its own return of unverified payments less the margin (Sadad 600 s, Pasargad 300 s).
      const longest = (PSP_PROFILES[psp].capabilities.unverifiedReversalMs - UNVERIFIED_REVERSAL_MARGIN_MS) / 1000;
      assert.ok(pspTakesVerifyWindow(psp, longest * 1000) && !pspTakesVerifyWindow(psp, (longest + 1) * 1000));
      const fits = await pay(await apiWith({ VERIFY_WINDOW_SECONDS: String(longest) }), 190_000);
      assert.deepEqual([fits.status, fits.psp?.name], ['paid', psp]);
    });
  });
}
