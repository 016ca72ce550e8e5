/** The dashboard's settlement page shows each beneficiary transfer's state and attempt (docs/DASHBOARD.md). */
import assert from 'node:assert/strict';
import { settlementPage } from '../../../src/dashboard/settlement-views.ts';
import type { BeneficiaryPayout, Settlement } from '../../../src/domain/settlement-schemas.ts';

const SETTLEMENT: Settlement = {
  id: '00000000-0000-4000-8000-000000000001',
  status: 'paid',
  gross: 2_000_000,
  fees: 20_000,
  refunds: 0,
  splits: 800_000,
  net: 1_180_000,
  payment_count: 1,
  refund_count: 0,
  iban: 'IR820540102680020817909002',
  cutoff_at: '2026-11-26T00:00:00.000Z',
  created_at: '2026-11-26T00:10:00.000Z',
  paid_at: '2026-11-26T00:11:00.000Z',
  failure: null,
};
const payout = (beneficiary_id: string, status: BeneficiaryPayout['status'], attempt: number): BeneficiaryPayout => ({
  settlement_id: SETTLEMENT.id,
  beneficiary_id,
  iban: 'IR062960000000100324200001',
  amount: 500_000,
  status,
  attempt,
  bank_reference: status === 'paid' ? '600000000010' : null,
  failure: status === 'failed' ? { code: 'bank_refused', message: 'account closed' } : null,
  updated_at: '2026-11-26T00:11:00.000Z',
});

const page = (lang: 'fa' | 'en', beneficiaryPayouts?: BeneficiaryPayout[]) =>
  settlementPage(
    { lang, csrfToken: 'x', user: { email: 'a@b.c', section: 'settlements' } },
    { settlement: SETTLEMENT, lines: [], beneficiaryPayouts, csvHref: '/csv' },
  );

const rows = (html: string) =>
  [
    ...html.matchAll(
      /<tr data-beneficiary="([^"]+)" data-status="([^"]+)">[\s\S]*?class="num payout-attempt">([^<]+)</g,
    ),
  ].map((m) => [m[1], m[2], m[3]]);

describe("the dashboard's settlement page: beneficiaries' transfers", () => {
  it('lists each transfer with its state, its attempt and a refusal’s reason', () => {
    const html = page('en', [payout('b-1', 'paid', 2), payout('b-2', 'failed', 1), payout('b-3', 'pending', 3)]);
    assert.deepEqual(rows(html), [
      ['b-1', 'paid', '2'],
      ['b-2', 'failed', '1'],
      ['b-3', 'pending', '3'],
    ]);
    assert.match(html, /Beneficiaries&#39; transfers|Beneficiaries' transfers/);
    assert.match(html, /<bdi class="payout-failure">account closed<\/bdi>/);
    assert.ok(!html.includes('IR062960000000100324200001'), 'the IBAN masked');
  });

  it('in Persian, with Persian digits; and no section for a settlement without beneficiaries', () => {
    const fa = page('fa', [payout('b-1', 'failed', 2)]);
    assert.deepEqual(rows(fa), [['b-1', 'failed', '۲']]);
    assert.match(fa, /واریز سهم ذی‌نفعان/);
    assert.ok(!page('en', []).includes('id="beneficiary-payouts"'));
    assert.ok(!page('en').includes('id="beneficiary-payouts"'));
  });
});
