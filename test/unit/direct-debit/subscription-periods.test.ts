/** Period arithmetic of subscriptions (src/domain/subscription.ts): month ends clamp without drifting. */
import assert from 'node:assert/strict';
import { addMonths, chargeKey, CHARGE_RETRY_DAYS, periodStartMs } from '../../../src/domain/subscription.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('subscription periods', () => {
  it('a month after Jan 31 is Feb 28, or Feb 29 in a leap year, keeping the time of day', () => {
    assert.equal(iso(addMonths(at('2025-01-31T10:20:30.400Z'), 1)), '2025-02-28T10:20:30.400Z');
    assert.equal(iso(addMonths(at('2028-01-31T00:00:00.000Z'), 1)), '2028-02-29T00:00:00.000Z');
  });

  it('each period counts from the anchor, so a clamped month does not drift the next', () => {
    const monthly = { interval: 'month', interval_days: null } as const;
    const anchor = at('2025-01-31T08:00:00.000Z');
    assert.deepEqual(
      [0, 1, 2, 3, 12].map((n) => iso(periodStartMs(anchor, monthly, n))),
      [
        '2025-01-31T08:00:00.000Z',
        '2025-02-28T08:00:00.000Z',
        '2025-03-31T08:00:00.000Z',
        '2025-04-30T08:00:00.000Z',
        '2026-01-31T08:00:00.000Z',
      ],
    );
  });

  it('months cross the year; a year after Feb 29 is Feb 28', () => {
    assert.equal(iso(addMonths(at('2025-11-15T00:00:00.000Z'), 3)), '2026-02-15T00:00:00.000Z');
    const yearly = { interval: 'year', interval_days: null } as const;
    assert.equal(iso(periodStartMs(at('2028-02-29T12:00:00.000Z'), yearly, 1)), '2029-02-28T12:00:00.000Z');
    assert.equal(iso(periodStartMs(at('2028-02-29T12:00:00.000Z'), yearly, 4)), '2032-02-29T12:00:00.000Z');
  });

  it('weeks and a number of days are fixed lengths', () => {
    const anchor = at('2025-03-01T00:00:00.000Z');
    assert.equal(iso(periodStartMs(anchor, { interval: 'week', interval_days: null }, 2)), '2025-03-15T00:00:00.000Z');
    assert.equal(iso(periodStartMs(anchor, { interval: 'days', interval_days: 10 }, 3)), '2025-03-31T00:00:00.000Z');
  });

  it('retries fall within a monthly period, and each attempt of a period has its own debit key', () => {
    assert.ok(CHARGE_RETRY_DAYS.reduce((a, b) => a + b, 0) < 28);
    assert.equal(chargeKey('s1', 3, 0), 'subscription:s1:3:0');
    assert.notEqual(chargeKey('s1', 3, 0), chargeKey('s1', 3, 1));
  });
});
