/** The mandates' pure rules (src/domain/mandate.ts): what a mandate may ask for, and the Tehran periods a debit counts in. */
import assert from 'node:assert/strict';
import { mandateLimitProblems, tehranPeriods } from '../../../src/domain/mandate.ts';

const DAY = 86_400_000;
const now = new Date('2026-12-02T10:00:00Z');
const limits = (days: number, daily = 1, monthly = 4) => ({
  max_amount: 1_000,
  max_daily_count: daily,
  max_monthly_count: monthly,
  expires_at: new Date(now.getTime() + days * DAY),
});

describe('mandate rules', () => {
  it('asks an expiry at least 30 days and at most five years out, and a monthly count no smaller than the daily', () => {
    assert.deepEqual(mandateLimitProblems(limits(30), now), []);
    assert.deepEqual(
      mandateLimitProblems(limits(29.9), now).map((p) => p.path),
      ['/expires_at'],
    );
    assert.deepEqual(
      mandateLimitProblems(limits(5 * 366 + 1), now).map((p) => p.path),
      ['/expires_at'],
    );
    assert.deepEqual(
      mandateLimitProblems(limits(40, 5, 4), now).map((p) => p.path),
      ['/max_monthly_count'],
    );
  });

  it("counts a debit in Tehran's day and month (+03:30), not UTC's", () => {
    assert.deepEqual(tehranPeriods(new Date('2026-12-31T20:29:59Z')), { day: '2026-12-31', month: '2026-12' });
    assert.deepEqual(tehranPeriods(new Date('2026-12-31T20:30:00Z')), { day: '2027-01-01', month: '2027-01' });
  });
});
