import assert from 'node:assert/strict';
import { tehranDays, tehranMidnight } from '../../../src/payments/overview.ts';
import { tehranDay } from '../../../src/domain/calendar.ts';

describe("the overview's days in Tehran", () => {
  it('a day begins at midnight Tehran time, 20:30 UTC the evening before (+03:30)', () => {
    assert.equal(tehranMidnight('2026-11-22').toISOString(), '2026-11-21T20:30:00.000Z');
    assert.equal(tehranDay(new Date('2026-11-21T20:29:59.999Z')), '2026-11-21');
    assert.equal(tehranDay(new Date('2026-11-21T20:30:00.000Z')), '2026-11-22');
  });

  it('before 2022 Tehran kept summer time (+04:30): its midnights follow the offset of the day', () => {
    assert.equal(tehranMidnight('2021-07-01').toISOString(), '2021-06-30T19:30:00.000Z');
    assert.equal(tehranMidnight('2021-01-01').toISOString(), '2020-12-31T20:30:00.000Z');
  });

  it('the last 30 days end with today, oldest first, across a month end, each a day after the one before', () => {
    const days = tehranDays(new Date('2026-11-21T21:00:00Z')); // already the 22nd in Tehran
    assert.equal(days.length, 30);
    assert.equal(days.at(-1)!.day, '2026-11-22');
    assert.equal(days[0]!.day, '2026-10-24');
    for (let i = 1; i < days.length; i++)
      assert.equal(days[i]!.start.getTime() - days[i - 1]!.start.getTime(), 86_400_000);
  });
});
