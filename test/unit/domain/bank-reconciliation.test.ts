import assert from 'node:assert/strict';
import { mellatOrderId } from '../../../src/psps/mellat/mapping.ts';
import { MellatClient } from '../../../src/psps/mellat/client.ts';
import { pspOrderId, REPORT_LAYOUTS, reportedPsps } from '../../../src/psps/reports.ts';
import { SepClient } from '../../../src/psps/sep/client.ts';
import {
  compareBankReport,
  countByKind,
  RECONCILE_LOOKBACK_DAYS,
  reconcileLookbackStart,
  reportCardPan,
  type ReconciledPayment,
} from '../../../src/domain/bank-reconciliation.ts';
import { isCalendarDay, tehranDayBounds } from '../../../src/domain/calendar.ts';
import { bankReconciliationCsv } from '../../../src/settlements/bank-reconciliation.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const payment = (n: number, amount: number, more: Partial<ReconciledPayment> = {}): ReconciledPayment => ({
  payment_id: id(n),
  order_id: id(n),
  ref_num: `70000${n}`,
  amount,
  card_pan: '603799******1111',
  ...more,
});

describe('bank reconciliation: the comparison', () => {
  it('sorts every line and payment into matched, bank_only, gateway_only and amount_mismatch, with both amounts', () => {
    const payments = [payment(1, 1_000_000), payment(2, 2_000_000), payment(3, 3_000_000)];
    const lines = [
      { ref_num: '700001', order_id: id(1), amount: 1_000_000, card_pan: '603799******2222' },
      { ref_num: '700003', order_id: id(3), amount: 3_000_010, card_pan: '' },
      { ref_num: '999999', order_id: id(9), amount: 450_000, card_pan: '603799******9999' },
    ];
    assert.deepEqual(compareBankReport(lines, payments), [
      {
        kind: 'bank_only',
        payment_id: null,
        order_id: id(9),
        ref_num: '999999',
        bank_amount: 450_000,
        gateway_amount: null,
        card_pan: '603799******9999',
      },
      {
        kind: 'gateway_only',
        payment_id: id(2),
        order_id: id(2),
        ref_num: '700002',
        bank_amount: null,
        gateway_amount: 2_000_000,
        card_pan: '603799******1111',
      },
      {
        kind: 'amount_mismatch',
        payment_id: id(3),
        order_id: id(3),
        ref_num: '700003',
        bank_amount: 3_000_010,
        gateway_amount: 3_000_000,
        card_pan: '603799******1111',
      },
      {
        kind: 'matched',
        payment_id: id(1),
        order_id: id(1),
        ref_num: '700001',
        bank_amount: 1_000_000,
        gateway_amount: 1_000_000,
        card_pan: '603799******2222',
      },
    ]);
  });

  it("finds a payment by its order id when we have no reference, and a second line for one payment is the bank's alone", () => {
    const payments = [payment(1, 500_000, { ref_num: null, order_id: mellatOrderId(id(1)) })];
    const line = { ref_num: '81', order_id: mellatOrderId(id(1)), amount: 500_000, card_pan: '' };
    const items = compareBankReport([line, { ...line, ref_num: '82' }], payments);
    assert.deepEqual(
      items.map((i) => [i.kind, i.payment_id, i.ref_num]),
      [
        ['bank_only', null, '82'],
        ['matched', id(1), '81'],
      ],
    );
    assert.deepEqual(countByKind(items), { matched: 1, bank_only: 1, gateway_only: 0, amount_mismatch: 0 });
  });

  it('gives the same items whatever the order of its inputs, and nothing for an empty day', () => {
    const payments = [payment(1, 10), payment(2, 20)];
    const lines = [
      { ref_num: '700002', order_id: id(2), amount: 20, card_pan: '' },
      { ref_num: '5', order_id: id(5), amount: 5, card_pan: '' },
    ];
    assert.deepEqual(
      compareBankReport([...lines].reverse(), [...payments].reverse()),
      compareBankReport(lines, payments),
    );
    assert.deepEqual(compareBankReport([], []), []);
  });

  it('keeps a card masked, masks a full one and drops anything else', () => {
    assert.equal(reportCardPan('603799******1234'), '603799******1234');
    assert.equal(reportCardPan('610433XXXXXX9876'), '610433******9876');
    assert.equal(reportCardPan('6037991234561234'), '603799******1234');
    assert.equal(reportCardPan('garbage'), '');
  });

  it('writes the CSV a line per item, empty cells for what a side lacks, difference = bank − gateway', () => {
    const csv = bankReconciliationCsv(
      compareBankReport(
        [{ ref_num: '700001', order_id: id(1), amount: 1_000_100, card_pan: '' }],
        [payment(1, 1_000_000)],
      ),
    );
    assert.equal(
      csv,
      `kind,payment_id,order_id,ref_num,card_pan,bank_amount,gateway_amount,difference\r\namount_mismatch,${id(1)},${id(1)},700001,603799******1111,1000100,1000000,100\r\n`,
    );
  });
});

describe("bank reconciliation: the PSPs' report files", () => {
  const endpoint = { baseUrl: 'http://127.0.0.1:1', terminalId: '11223344', password: '', timeoutMs: 1_000 };

  it('reads only a documented layout: none is registered, and each connector declares a daily report exactly where one is', () => {
    assert.deepEqual(reportedPsps(), []);
    for (const client of [new SepClient(endpoint), new MellatClient({ ...endpoint, userName: 'dargah' })]) {
      assert.equal(
        client.capabilities.dailyReport,
        REPORT_LAYOUTS[client.name] !== undefined,
        `${client.name}: dailyReport is declared where a layout is registered, and only there`,
      );
    }
  });

  it('a registered layout is what the PSPs of a settlement wait for', () => {
    const layout = { reference: 'a published layout', read: () => [] };
    assert.deepEqual(reportedPsps({ mellat: layout }), ['mellat']);
  });

  it('names a payment as each PSP does: SEP by its id, Mellat by its numeric order id', () => {
    assert.equal(pspOrderId('sep', id(7)), id(7));
    assert.equal(pspOrderId('mellat', id(7)), mellatOrderId(id(7)));
  });
});

describe('bank reconciliation: the Tehran day', () => {
  it('spans 00:00 to 24:00 in Tehran (+03:30 since 2022), and knows a calendar day', () => {
    const { start, end } = tehranDayBounds('2026-11-25');
    assert.equal(start.toISOString(), '2026-11-24T20:30:00.000Z');
    assert.equal(end.toISOString(), '2026-11-25T20:30:00.000Z');
    assert.equal(isCalendarDay('2026-02-29'), false);
    assert.equal(isCalendarDay('2028-02-29'), true);
    assert.equal(isCalendarDay('2026-1-5'), false);
  });

  it('looks back RECONCILE_LOOKBACK_DAYS whole days', () => {
    assert.equal(RECONCILE_LOOKBACK_DAYS, 7);
    assert.equal(
      reconcileLookbackStart(new Date('2026-03-10T12:00:00.000Z')).toISOString(),
      '2026-03-03T12:00:00.000Z',
    );
  });
});
