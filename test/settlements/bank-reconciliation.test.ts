/**
 * Bank reconciliation (docs/psps/README.md#bank-reconciliation) against the real stack: payments paid
 * through a worker of this test's own whose test mode has a SEP terminal of its own (a bank simulator
 * process, OwnSimulator, as the failover test), MySQL, Temporal.
 *
 * No reference documents SEP's or Behpardakht's daily report, and none shows a report call: a PSP's
 * day is given from its payments' own recorded verify and reverse answers (`reconcile run`, which
 * asks the PSP nothing and says so), no file is imported for it, and settlement holds none of its
 * payments. The import path stays generic: a documented layout (here a test's own, given to the
 * functions; none is registered) is compared with the records and recorded as runs, and a payment of
 * a PSP with such a layout is settled only once a run matched it.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { PSP_NAMES } from '../../src/psps/profiles.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from '@temporalio/worker';
import { BankReconciliationRefused, reconcileFromFile } from '../../src/settlements/bank-reconciliation.ts';
import type { PspClients } from '../../src/psps/clients.ts';
import { BankReportInvalid, type BankReportLine } from '../../src/psps/psp-client.ts';
import type { ReportLayout } from '../../src/psps/reports.ts';
import { SepClient } from '../../src/psps/sep/client.ts';
import { openDifferences } from '../../src/db/bank-reconciliation.ts';
import { draftSettlement } from '../../src/db/settlements.ts';
import { replaceMerchantRoute } from '../../src/db/psp-routes.ts';
import type { BankReconciliationItem } from '../../src/domain/bank-reconciliation.ts';
import { tehranDay, tehranDayBounds } from '../../src/domain/calendar.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { createPaymentWorker } from '../../src/main/payment-worker.ts';
import { observeBankReconciliation, registry } from '../../src/observability/metrics.ts';
import { setSettlementIban } from '../../src/settlements/service.ts';
import { OwnSimulator } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import {
  apiWith,
  getHarness,
  LIVE_BANK,
  liveBankApi,
  newMerchant,
  testConfig,
  type Harness,
} from '../support/harness.ts';
import { request, waitFor } from '../support/http.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { chooseOutcome, createdPayment, payAtBank } from '../support/payments.ts';
import { defaultPlanFee as fee, SETTLEMENT_IBAN, settleNow } from '../support/settlement.ts';

/** The item a payment of ours makes, as the record has it. */
interface Recorded {
  id: string;
  amount: number;
  reference_id: string | null;
  card_pan: string | null;
}

/**
 * A report layout of this test's own, standing in for one a reference would document: a header and
 * `order_id,ref_num,terminal,day,amount,card_pan` lines. It refuses another terminal or day whole,
 * as a real layout's reader must.
 */
const TEST_LAYOUT: ReportLayout = {
  reference: 'this test',
  read(text: string, terminalId: string, day: string): BankReportLine[] {
    const [header, ...rows] = text.trim().split('\n');
    if (header !== 'order_id,ref_num,terminal,day,amount,card_pan') throw new BankReportInvalid('not the test layout');
    return rows.map((row) => {
      const [order_id, ref_num, terminal, on, amount, card_pan] = row.split(',');
      if (terminal !== terminalId || on !== day || !/^[0-9]+$/.test(amount ?? ''))
        throw new BankReportInvalid(`a line of another terminal or day, or no amount: ${row}`);
      return { order_id: order_id!, ref_num: ref_num!, amount: Number(amount), card_pan: card_pan ?? '' };
    });
  },
};
const reportOf = (
  terminal: string,
  day: string,
  lines: { order_id: string; ref_num: string; amount: number; card_pan?: string }[],
) =>
  [
    'order_id,ref_num,terminal,day,amount,card_pan',
    ...lines.map((l) => [l.order_id, l.ref_num, terminal, day, l.amount, l.card_pan ?? ''].join(',')),
  ].join('\n');

const byOrder = (a: BankReconciliationItem, b: BankReconciliationItem) =>
  a.order_id < b.order_id ? -1 : a.order_id > b.order_id ? 1 : 0;
const ours = (
  kind: BankReconciliationItem['kind'],
  p: Recorded,
  bankAmount: number | null,
): BankReconciliationItem => ({
  kind,
  payment_id: p.id,
  order_id: p.id,
  ref_num: p.reference_id,
  bank_amount: bankAmount,
  gateway_amount: kind === 'bank_only' ? null : p.amount,
  card_pan: p.card_pan,
});

describe("bank reconciliation of a PSP terminal's day", function () {
  this.timeout(240_000);
  // A terminal of this run alone: the suite's database may hold an earlier run's payments of the same day.
  const SEP_TERMINAL = `73${randomInt(100_000, 999_999)}`;
  const sep = new OwnSimulator({ BANK_SIM_TERMINAL_ID: SEP_TERMINAL });
  const taskQueue = `bank-reconciliation-${process.pid}`;
  let h: Harness;
  let api: string;
  let key: string;
  let merchantId: string;
  let worker: Worker;
  let running: Promise<void>;

  const recorded = (id: string): Promise<Recorded> =>
    h.db
      .selectFrom('payments')
      .select(['id', 'amount', 'reference_id', 'card_pan'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
      .then((r) => ({ ...r, amount: Number(r.amount) }));
  /** A payment paid at the bank (and verified, when asked), as the record has it. */
  const paid = async (amount: number, verify: boolean): Promise<Recorded> => {
    const p = await payAtBank(api, key, await createdPayment(api, key, { amount }));
    if (verify)
      assert.equal(
        (await request<{ payment: Payment }>(api, 'POST', `/api/v1/payments/${p.id}/verify`, { key, body: { amount } }))
          .status,
        200,
      );
    return recorded(p.id);
  };
  const runsOf = async (terminal: string) =>
    (await h.db.selectFrom('bank_reconciliation_runs').select('id').where('terminal_id', '=', terminal).execute())
      .length;

  before(async () => {
    h = await getHarness();
    await sep.start();
    const psps: PspClients = {
      test: { sep: new SepClient({ baseUrl: sep.url, terminalId: SEP_TERMINAL, password: '', timeoutMs: 5_000 }) },
      live: {},
    };
    const config = { ...testConfig({ TEMPORAL_TASK_QUEUE: taskQueue }), PUBLIC_BASE_URL: h.config.PUBLIC_BASE_URL };
    worker = await createPaymentWorker({
      config,
      db: h.db,
      temporal: h.temporal.client,
      logger: h.logger,
      bundle: h.bundle,
      psps,
    });
    running = worker.run();
    api = await apiWith({ TEMPORAL_TASK_QUEUE: taskQueue });
    ({ key, merchantId } = await newMerchant());
    await replaceMerchantRoute(
      h.db,
      merchantId,
      'test',
      [
        {
          position: 0,
          priority: 0,
          psp: 'sep',
          terminal_id: SEP_TERMINAL,
          weight: 1,
          min_amount: null,
          max_amount: null,
        },
      ],
      new Date(),
    );
  });

  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await sep.stop();
  });

  it("SEP publishes no report: `reconcile run` gives the day from the payments' recorded verify and reverse answers and says so, asks the PSP nothing, writes no run; `reconcile import` has nothing to import", async () => {
    const a = await paid(1_200_000, true);
    const b = await paid(2_300_000, false);
    const c = await paid(3_400_000, false);
    assert.equal(
      (await request<{ payment: Payment }>(api, 'POST', `/api/v1/payments/${c.id}/reverse`, { key, body: {} })).status,
      200,
    );
    await waitFor('the reversal to be recorded', async () =>
      (await h.db.selectFrom('payments').select('status').where('id', '=', c.id).executeTakeFirstOrThrow()).status ===
      'reversed'
        ? true
        : undefined,
    );
    const canceled = await createdPayment(api, key, { amount: 999_000 });
    assert.equal((await chooseOutcome(api, canceled.id, 'cancel')).status, 303);
    const day = tehranDay(new Date());

    const run = await cli(
      'reconcile',
      'run',
      '--mode',
      'test',
      '--psp',
      'sep',
      '--terminal',
      SEP_TERMINAL,
      '--date',
      day,
      '--json',
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as {
      ok: boolean;
      source: string;
      confirmed: { count: number; amount: number };
      reversed: { count: number; amount: number };
      note: string;
      psp: string;
      terminal: string;
      date: string;
    };
    assert.deepEqual(
      {
        ok: summary.ok,
        source: summary.source,
        psp: summary.psp,
        terminal: summary.terminal,
        date: summary.date,
        confirmed: summary.confirmed,
        reversed: summary.reversed,
      },
      {
        ok: true,
        source: 'recorded_answers',
        psp: 'sep',
        terminal: SEP_TERMINAL,
        date: day,
        confirmed: { count: 2, amount: a.amount + b.amount },
        reversed: { count: 1, amount: c.amount },
      },
    );
    assert.match(
      summary.note,
      /PSP sep has no daily report a reference documents: its payments are reconciled from their own verify and reverse answers/,
    );
    assert.equal(await runsOf(SEP_TERMINAL), 0, 'no run is recorded: there is no report to compare');
    const shown = await cli(
      'reconcile',
      'show',
      '--mode',
      'test',
      '--psp',
      'sep',
      '--terminal',
      SEP_TERMINAL,
      '--date',
      day,
    );
    assert.equal(shown.code, 1);

    const file = join(tmpdir(), `dargah-sep-report-${process.pid}.csv`);
    writeFileSync(
      file,
      reportOf(SEP_TERMINAL, day, [{ order_id: a.id, ref_num: a.reference_id ?? '', amount: a.amount }]),
    );
    try {
      const imported = await cli(
        'reconcile',
        'import',
        '--mode',
        'test',
        '--psp',
        'sep',
        '--terminal',
        SEP_TERMINAL,
        '--date',
        day,
        '--file',
        file,
        '--json',
      );
      assert.equal(imported.code, 1);
      assert.match(imported.stderr, /PSP sep has no daily report a reference documents.*there is no file to import/);
    } finally {
      rmSync(file, { force: true });
    }
    assert.equal(await runsOf(SEP_TERMINAL), 0);
  });

  it("a documented layout (this test's own) is reconciled exactly: a transaction only the bank has, one it left out and another amount; a repeat is the same run, a corrected file a new one; the CSV and the metric say the same", async () => {
    const day = tehranDay(new Date());
    const x = await paid(1_100_000, true);
    const y = await paid(2_200_000, true);
    const z = await paid(3_300_000, true);
    // The day's other payments at this terminal that kept their money (the test before's): the report has them right.
    const earlier = await Promise.all(
      (
        await h.db
          .selectFrom('payments')
          .select('id')
          .where('psp_terminal_id', '=', SEP_TERMINAL)
          .where('status', 'in', ['paid', 'verified', 'partially_refunded', 'refunded'])
          .execute()
      ).map((p) => recorded(p.id)),
    );
    const others = earlier.filter((p) => ![x.id, y.id, z.id].includes(p.id));
    const lines = [
      {
        order_id: 'f0000000-0000-4000-8000-000000000001',
        ref_num: 'BANKONLY',
        amount: 650_000,
        card_pan: '603799******0001',
      },
      { order_id: x.id, ref_num: x.reference_id ?? '', amount: x.amount },
      { order_id: z.id, ref_num: z.reference_id ?? '', amount: z.amount - 10 },
      ...others.map((p) => ({ order_id: p.id, ref_num: p.reference_id ?? '', amount: p.amount })),
    ];
    const layouts = { sep: TEST_LAYOUT };
    const input = { mode: 'test', psp: 'sep', terminal_id: SEP_TERMINAL, day };
    await assert.rejects(
      reconcileFromFile(h.db, { ...input, text: reportOf('70000000', day, lines) }, new Date(), { layouts }),
      BankReportInvalid,
    );
    await assert.rejects(
      reconcileFromFile(h.db, { ...input, text: 'x' }),
      BankReconciliationRefused,
      'no layout registered: nothing to import',
    );
    assert.equal(await runsOf(SEP_TERMINAL), 0, 'a refused file writes nothing');

    const first = await reconcileFromFile(h.db, { ...input, text: reportOf(SEP_TERMINAL, day, lines) }, new Date(), {
      layouts,
    });
    assert.equal(first.created, true);
    assert.deepEqual(first.run.counts, {
      matched: 1 + others.length,
      bank_only: 1,
      gateway_only: 1,
      amount_mismatch: 1,
    });
    const shown = await cli(
      'reconcile',
      'show',
      '--mode',
      'test',
      '--psp',
      'sep',
      '--terminal',
      SEP_TERMINAL,
      '--date',
      day,
      '--json',
    );
    assert.equal(shown.code, 0, shown.stderr);
    const { run, items } = JSON.parse(shown.stdout) as { run: { id: string }; items: BankReconciliationItem[] };
    assert.equal(run.id, first.run.id);
    assert.deepEqual(items, [
      {
        kind: 'bank_only',
        payment_id: null,
        order_id: lines[0]!.order_id,
        ref_num: 'BANKONLY',
        bank_amount: 650_000,
        gateway_amount: null,
        card_pan: '603799******0001',
      },
      ours('gateway_only', y, null),
      ours('amount_mismatch', z, z.amount - 10),
      ...[x, ...others].map((p) => ours('matched', p, p.amount)).sort(byOrder),
    ]);

    // The same file against the same records: the same run.
    const again = await reconcileFromFile(h.db, { ...input, text: reportOf(SEP_TERMINAL, day, lines) }, new Date(), {
      layouts,
    });
    assert.deepEqual([again.created, again.run.id], [false, first.run.id]);

    const csv = await cli(
      'reconcile',
      'show',
      '--mode',
      'test',
      '--psp',
      'sep',
      '--terminal',
      SEP_TERMINAL,
      '--date',
      day,
      '--csv',
    );
    assert.equal(csv.code, 0, csv.stderr);
    assert.ok(
      csv.stdout.includes(
        `amount_mismatch,${z.id},${z.id},${z.reference_id},${z.card_pan},${z.amount - 10},${z.amount},-10`,
      ),
      csv.stdout,
    );

    observeBankReconciliation(() => openDifferences(h.db, day), 0);
    const metric = await registry.getSingleMetricAsString('dargah_bank_reconciliation_differences');
    for (const kind of ['bank_only', 'gateway_only', 'amount_mismatch'])
      assert.ok(metric.includes(`{psp="sep",terminal="${SEP_TERMINAL}",kind="${kind}"} 1`), metric);

    // A corrected file: a new run, everything matched, the first run kept.
    const corrected = lines.slice(1).map((l) => (l.order_id === z.id ? { ...l, amount: z.amount } : l));
    corrected.push({ order_id: y.id, ref_num: y.reference_id ?? '', amount: y.amount });
    const fixed = await reconcileFromFile(
      h.db,
      { ...input, text: reportOf(SEP_TERMINAL, day, corrected) },
      new Date(),
      { layouts },
    );
    assert.equal(fixed.created, true);
    assert.deepEqual(fixed.run.counts, {
      matched: 3 + others.length,
      bank_only: 0,
      gateway_only: 0,
      amount_mismatch: 0,
    });
    assert.equal(await runsOf(SEP_TERMINAL), 2);
  });

  it('bad input is refused with its reason and writes nothing: an unknown PSP, a day not begun, a day never reconciled', async () => {
    const before = (
      await h.db
        .selectFrom('bank_reconciliation_runs')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    const unknown = await cli('reconcile', 'run', '--psp', 'bogus', '--terminal', '1', '--date', '2026-01-01');
    assert.deepEqual(
      [unknown.code, unknown.stderr.trim()],
      [1, `error: the PSP is one of ${PSP_NAMES.join(', ')} (got "bogus")`],
    );
    const future = await cli('reconcile', 'run', '--psp', 'sep', '--terminal', '1', '--date', '2999-01-01');
    assert.deepEqual([future.code, future.stderr.trim()], [1, 'error: 2999-01-01 has not begun in Tehran']);
    const never = await cli('reconcile', 'show', '--psp', 'sep', '--terminal', '1', '--date', '2020-01-01');
    assert.equal(never.code, 1);
    assert.match(never.stderr, /has no reconciliation of 2020-01-01/);
    const after = (
      await h.db
        .selectFrom('bank_reconciliation_runs')
        .select(({ fn }) => fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    assert.equal(Number(after), Number(before));
  });

  it('a SEP live payment is settled without waiting for a report; were its PSP one with a documented layout, it would wait until an imported report matched it', async () => {
    const m = await liveMerchant();
    await setSettlementIban(h.db, m.merchantId, SETTLEMENT_IBAN);
    const liveApi = await liveBankApi();
    const first = await verifiedLivePayment(liveApi, m.liveKey, 2_000_000);
    const second = await verifiedLivePayment(liveApi, m.liveKey, 1_000_000);
    const day = tehranDay(new Date());

    // The gate itself: a PSP with a layout holds its payments until a run matched them.
    const cutoff = new Date();
    assert.deepEqual(
      (await draftSettlement(h.db, m.merchantId, cutoff, ['sep'])).payment_count,
      0,
      'held: its day has no run',
    );
    const terminal = LIVE_BANK().SEP_TERMINAL_ID;
    const livePayments = await Promise.all(
      (
        await h.db
          .selectFrom('payments')
          .select('id')
          .where('mode', '=', 'live')
          .where('psp_terminal_id', '=', terminal)
          .where('status', 'in', ['paid', 'verified', 'partially_refunded', 'refunded'])
          .where('paid_at', '>=', tehranDayBounds(day).start)
          .execute()
      ).map((p) => recorded(p.id)),
    );
    const text = reportOf(
      terminal,
      day,
      livePayments
        .filter((p) => p.id !== second.id)
        .map((p) => ({ order_id: p.id, ref_num: p.reference_id ?? '', amount: p.amount })),
    );
    await reconcileFromFile(h.db, { mode: 'live', psp: 'sep', terminal_id: terminal, day, text }, new Date(), {
      layouts: { sep: TEST_LAYOUT },
      deployed: true,
    });
    const matchedOnly = await draftSettlement(h.db, m.merchantId, cutoff, ['sep']);
    assert.deepEqual(
      matchedOnly.lines.filter((l) => l.kind === 'payment').map((l) => l.payment_id),
      [first.id],
      'the payment the report left out waits',
    );
    // The corrected file leaves no difference standing at the suite's live terminal.
    const whole = reportOf(
      terminal,
      day,
      livePayments.map((p) => ({ order_id: p.id, ref_num: p.reference_id ?? '', amount: p.amount })),
    );
    const corrected = await reconcileFromFile(
      h.db,
      { mode: 'live', psp: 'sep', terminal_id: terminal, day, text: whole },
      new Date(),
      { layouts: { sep: TEST_LAYOUT }, deployed: true },
    );
    assert.equal(corrected.run.counts.gateway_only, 0);

    // SEP as it is: no layout, so nothing waits, and the settlement covers both.
    const settled = await settleNow(m.merchantId);
    assert.deepEqual(settled.outcome, {
      result: 'paid',
      settlement_id: settled.id,
      net: 2_000_000 - fee(2_000_000) + 1_000_000 - fee(1_000_000),
    });
    const lines = await h.db
      .selectFrom('settlement_lines')
      .select('payment_id')
      .where('settlement_id', '=', settled.id)
      .where('kind', '=', 'payment')
      .execute();
    assert.deepEqual(lines.map((l) => l.payment_id).sort(), [first.id, second.id].sort());
  });
});
