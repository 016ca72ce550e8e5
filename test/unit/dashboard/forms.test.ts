import assert from 'node:assert/strict';
import { refundRequestOf, typedNumber } from '../../../src/dashboard/payment-routes.ts';
import { chartBars } from '../../../src/dashboard/overview-views.ts';
import { tehranDays } from '../../../src/payments/overview.ts';
import { nextAttemptAt } from '../../../src/domain/webhook-delivery.ts';
import { lineKeyOf, settlementFilters, settlementListQuery } from '../../../src/dashboard/settlement-routes.ts';
import { groupSheba, maskSheba } from '../../../src/domain/business-documents.ts';

describe("the dashboard's forms and chart", () => {
  it('reads a typed amount in Persian, Arabic-Indic or ASCII digits, with or without separators', () => {
    assert.equal(typedNumber(' ۴۰۰٬۰۰۰ '), '400000');
    assert.equal(typedNumber('٤٠٠٠٠٠'), '400000');
    assert.equal(typedNumber('400,000'), '400000');
  });

  it("turns the refund form into the API's body: no amount when empty, text the schema refuses when not a number", () => {
    assert.deepEqual(refundRequestOf(new URLSearchParams({ amount: '', reason: '  ' })), {});
    assert.deepEqual(refundRequestOf(new URLSearchParams({ amount: '۱۲۳', reason: 'late' })), {
      amount: 123,
      reason: 'late',
    });
    assert.deepEqual(refundRequestOf(new URLSearchParams({ amount: '12.5' })), { amount: '12.5' });
  });

  it('draws a bar per day, today at the end of the reading direction, the highest day full height', () => {
    const days = tehranDays(new Date('2026-11-22T10:00:00Z')).map((d, i) => ({
      ...d,
      count: i === 29 ? 2 : 0,
      volume: i === 29 ? 1_250_000 : i === 0 ? 625_000 : 0,
    }));
    const ltr = chartBars(days, 'en');
    const rtl = chartBars(days, 'fa');
    assert.equal(ltr.length, 30);
    assert.ok(ltr[29]!.x > ltr[0]!.x, 'left to right: today is the rightmost');
    assert.ok(rtl[29]!.x < rtl[0]!.x, 'right to left: today is the leftmost');
    assert.equal(ltr[29]!.height, 2 * ltr[0]!.height);
    assert.equal(ltr[1]!.height, 0);
  });

  it("an attempt's next one is due its schedule's wait later; after the last there is none", () => {
    const at = new Date('2026-11-22T10:00:00Z');
    assert.equal(nextAttemptAt(1, at, [0, 5_000, 300_000])?.toISOString(), '2026-11-22T10:00:05.000Z');
    assert.equal(nextAttemptAt(2, at, [0, 5_000, 300_000])?.toISOString(), '2026-11-22T10:05:00.000Z');
    assert.equal(nextAttemptAt(3, at, [0, 5_000, 300_000]), null);
  });

  it("turns the settlements filter into the API's query: Tehran days as instants, the last day included; anything else is no filter", () => {
    const filters = settlementFilters({ status: 'paid', from: '2026-11-01', to: '2026-11-22' });
    assert.deepEqual(filters, { status: 'paid', from: '2026-11-01', to: '2026-11-22' });
    assert.deepEqual(settlementListQuery(filters), {
      status: 'paid',
      created_gte: '2026-10-31T20:30:00.000Z',
      created_lt: '2026-11-22T20:30:00.000Z',
    });
    // Iran kept summer time until 2022: a day then began at 19:30 UTC.
    assert.deepEqual(settlementListQuery({ from: '2021-07-01', to: '2021-07-01' }), {
      created_gte: '2021-06-30T19:30:00.000Z',
      created_lt: '2021-07-01T19:30:00.000Z',
    });
    assert.deepEqual(settlementFilters({ status: 'carried', from: '2026-02-31', to: '22/11/2026' }), {
      status: undefined,
      from: undefined,
      to: undefined,
    });
    assert.deepEqual(settlementListQuery({}), {});
  });

  it("reads where a page of a settlement's lines starts, and shows an IBAN masked or grouped", () => {
    const id = '0b5e8a4e-0a3c-4c4f-9d57-0c7f4c5a9e11';
    assert.deepEqual(lineKeyOf(`refund:${id}`), { kind: 'refund', object_id: id });
    assert.equal(lineKeyOf(`charge:${id}`), undefined);
    assert.equal(lineKeyOf('payment:not-an-id'), undefined);
    assert.equal(lineKeyOf(['payment', id]), undefined);
    assert.equal(maskSheba('IR160120000000001234567890'), 'IR16…7890');
    assert.equal(groupSheba('IR160120000000001234567890'), 'IR16 0120 0000 0000 1234 5678 90');
  });
});
