/**
 * Bank reconciliation (docs/psps/README.md#bank-reconciliation) against the real stack: payments paid
 * through a worker of this test's own whose test mode has a SEP terminal and a Mellat terminal, each a
 * bank simulator process of its own (OwnSimulator, as the failover test), MySQL, Temporal; the PSP's
 * daily report asked of the simulator over HTTP, or imported as a file through the operator CLI; the
 * simulator's report switches plant the differences. Then the live side: the suite's simulator stands
 * in for the live PSP, and a settlement covers only what the day's reconciliation matched.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from '@temporalio/worker';
import { reconcileWithPsp } from '../../src/adapters/psp/bank-reconciliation.ts';
import type { PspClients } from '../../src/adapters/psp/clients.ts';
import { MellatClient } from '../../src/adapters/psp/mellat/client.ts';
import { mellatOrderId } from '../../src/adapters/psp/mellat/mapping.ts';
import { parseMellatReport } from '../../src/adapters/psp/mellat/report.ts';
import { SepClient } from '../../src/adapters/psp/sep/client.ts';
import { openDifferences } from '../../src/db/bank-reconciliation.ts';
import { replaceMerchantRoute } from '../../src/db/psp-routes.ts';
import type { BankReconciliationItem } from '../../src/domain/bank-reconciliation.ts';
import { tehranDay } from '../../src/domain/calendar.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { createPaymentWorker } from '../../src/main/payment-worker.ts';
import { observeBankReconciliation, registry } from '../../src/observability/metrics.ts';
import { setSettlementIban } from '../../src/settlements/service.ts';
import { adminHeaders, OwnSimulator, simulatorUrl } from '../support/bank.ts';
import { cli } from '../support/cli.ts';
import { apiWith, getHarness, liveBankApi, newMerchant, testConfig, type Harness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { chooseOutcome, createdPayment, payAtBank } from '../support/payments.ts';
import { defaultPlanFee as fee, SETTLEMENT_IBAN, settleNow } from '../support/settlement.ts';

/** A report switch of the simulator at `base` (src/bank-sim/reports.ts), or, given null, all of them off. */
async function plant(base: string, body: object | null): Promise<{ line?: { ref_num: string; res_num: string; amount: number; card_pan: string } }> {
  const res = await fetch(`${base}/admin/report`, {
    method: body === null ? 'DELETE' : 'POST',
    headers: { 'content-type': 'application/json', ...adminHeaders() },
    ...(body === null ? {} : { body: JSON.stringify(body) }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as { line?: { ref_num: string; res_num: string; amount: number; card_pan: string } };
}

/** The item a payment of ours makes, as the record has it. */
interface Recorded {
  id: string;
  amount: number;
  reference_id: string | null;
  card_pan: string | null;
}

const byOrder = (a: BankReconciliationItem, b: BankReconciliationItem) => (a.order_id < b.order_id ? -1 : a.order_id > b.order_id ? 1 : 0);
const ours = (kind: BankReconciliationItem['kind'], p: Recorded, orderId: string, bankAmount: number | null): BankReconciliationItem => ({
  kind,
  payment_id: p.id,
  order_id: orderId,
  ref_num: p.reference_id,
  bank_amount: bankAmount,
  gateway_amount: kind === 'bank_only' ? null : p.amount,
  card_pan: p.card_pan,
});

describe('bank reconciliation of a PSP terminal\'s day', function () {
  this.timeout(240_000);
  // Terminals of this run alone: the suite's database may hold an earlier run's payments of the same day.
  const SEP_TERMINAL = `73${randomInt(100_000, 999_999)}`;
  const MELLAT_TERMINAL = `74${randomInt(100_000, 999_999)}`;
  const sep = new OwnSimulator({ BANK_SIM_TERMINAL_ID: SEP_TERMINAL });
  const mellat = new OwnSimulator({ BANK_SIM_PROTOCOL: 'mellat', BANK_SIM_TERMINAL_ID: MELLAT_TERMINAL, BANK_SIM_USERNAME: 'dargah', BANK_SIM_PASSWORD: '' });
  const taskQueue = `bank-reconciliation-${process.pid}`;
  let h: Harness;
  let api: string;
  let key: string;
  let merchantId: string;
  let worker: Worker;
  let running: Promise<void>;
  let sepClient: SepClient;

  const routeTo = (psp: 'sep' | 'mellat', terminal_id: string) =>
    replaceMerchantRoute(h.db, merchantId, 'test', [{ position: 0, priority: 0, psp, terminal_id, weight: 1, min_amount: null, max_amount: null }], new Date());
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
    if (verify) assert.equal((await request<{ payment: Payment }>(api, 'POST', `/api/v1/payments/${p.id}/verify`, { key, body: { amount } })).status, 200);
    return recorded(p.id);
  };
  /** A payment the customer canceled at the bank's page: confirmed by nobody, on neither side. */
  const canceled = async () => {
    const p = await createdPayment(api, key, { amount: 999_000 });
    assert.equal((await chooseOutcome(api, p.id, 'cancel')).status, 303);
  };

  before(async () => {
    h = await getHarness();
    await Promise.all([sep.start(), mellat.start()]);
    sepClient = new SepClient({ baseUrl: sep.url, terminalId: SEP_TERMINAL, password: '', timeoutMs: 5_000 });
    const psps: PspClients = {
      test: { sep: sepClient, mellat: new MellatClient({ baseUrl: mellat.url, terminalId: MELLAT_TERMINAL, userName: 'dargah', password: '', timeoutMs: 5_000 }) },
      live: {},
    };
    const config = { ...testConfig({ TEMPORAL_TASK_QUEUE: taskQueue }), PUBLIC_BASE_URL: h.config.PUBLIC_BASE_URL };
    worker = await createPaymentWorker({ config, db: h.db, temporal: h.temporal.client, logger: h.logger, bundle: h.bundle, psps });
    running = worker.run();
    api = await apiWith({ TEMPORAL_TASK_QUEUE: taskQueue });
    ({ key, merchantId } = await newMerchant());
  });

  after(async () => {
    worker?.shutdown();
    await running?.catch(() => undefined);
    await Promise.all([sep.stop(), mellat.stop()]);
    await plant(simulatorUrl(), null);
  });

  it('a SEP terminal\'s day with a transaction only the bank has, one it left out and another amount is reported exactly; a repeat is the same run, the bank\'s correction a new one; the CSV and the metric say the same', async () => {
    await routeTo('sep', SEP_TERMINAL);
    const a = await paid(1_200_000, true);
    const b = await paid(2_300_000, true);
    const c = await paid(3_400_000, false);
    const d = await paid(4_500_000, true);
    await canceled();
    const day = tehranDay(new Date());
    const { line: extra } = await plant(sep.url, { bank_only: { amount: 777_000, date: day } });
    await plant(sep.url, { drop: b.id });
    await plant(sep.url, { res_num: d.id, amount: 4_500_100 });
    assert.ok(extra);

    const first = await reconcileWithPsp(h.db, 'test', sepClient, day);
    const expected: BankReconciliationItem[] = [
      { kind: 'bank_only', payment_id: null, order_id: extra.res_num, ref_num: extra.ref_num, bank_amount: 777_000, gateway_amount: null, card_pan: extra.card_pan },
      ours('gateway_only', b, b.id, null),
      ours('amount_mismatch', d, d.id, 4_500_100),
      ...[ours('matched', a, a.id, a.amount), ours('matched', c, c.id, c.amount)].sort(byOrder),
    ];
    const shown = await cli('reconcile', 'show', '--mode', 'test', '--psp', 'sep', '--terminal', SEP_TERMINAL, '--date', day, '--json');
    assert.equal(shown.code, 0, shown.stderr);
    const { run, items } = JSON.parse(shown.stdout) as { run: { id: string; counts: Record<string, number> }; items: BankReconciliationItem[] };
    assert.deepEqual(items, expected);
    assert.equal(run.id, first.run.id);
    assert.deepEqual(first.run.counts, { matched: 2, bank_only: 1, gateway_only: 1, amount_mismatch: 1 });
    assert.equal(first.created, true);
    // Every card in the items is masked.
    for (const item of items) assert.match(item.card_pan ?? '', /^[0-9]{6}\*{6}[0-9]{4}$/);

    // The same report against the same records: the same run, nothing new written.
    const again = await reconcileWithPsp(h.db, 'test', sepClient, day);
    assert.deepEqual([again.created, again.run.id], [false, first.run.id]);

    // The operator's CSV: a line per item, amounts in rials, difference = bank − gateway.
    const csv = await cli('reconcile', 'show', '--mode', 'test', '--psp', 'sep', '--terminal', SEP_TERMINAL, '--date', day, '--csv');
    assert.equal(csv.code, 0, csv.stderr);
    const line = (i: BankReconciliationItem) =>
      [i.kind, i.payment_id ?? '', i.order_id, i.ref_num ?? '', i.card_pan ?? '', i.bank_amount ?? '', i.gateway_amount ?? '', (i.bank_amount ?? 0) - (i.gateway_amount ?? 0)].join(',');
    assert.deepEqual(csv.stdout.trim().split(/\r?\n/), ['kind,payment_id,order_id,ref_num,card_pan,bank_amount,gateway_amount,difference', ...expected.map(line)]);
    assert.ok(csv.stdout.includes(`amount_mismatch,${d.id},${d.id},${d.reference_id},${d.card_pan},4500100,4500000,100`));

    // The metric the alert reads: one difference of each kind at this terminal.
    observeBankReconciliation(() => openDifferences(h.db, day), 0);
    const metric = await registry.getSingleMetricAsString('dargah_bank_reconciliation_differences');
    for (const kind of ['bank_only', 'gateway_only', 'amount_mismatch']) assert.ok(metric.includes(`{psp="sep",terminal="${SEP_TERMINAL}",kind="${kind}"} 1`), metric);

    // The bank corrects its report: a new run, every payment matched, the first run kept.
    await plant(sep.url, null);
    const corrected = await reconcileWithPsp(h.db, 'test', sepClient, day);
    assert.equal(corrected.created, true);
    assert.notEqual(corrected.run.id, first.run.id);
    assert.deepEqual(corrected.run.counts, { matched: 4, bank_only: 0, gateway_only: 0, amount_mismatch: 0 });
    const runs = await h.db.selectFrom('bank_reconciliation_runs').select('id').where('terminal_id', '=', SEP_TERMINAL).where('day', '=', day).execute();
    assert.equal(runs.length, 2);
    const after = await registry.getSingleMetricAsString('dargah_bank_reconciliation_differences');
    assert.ok(after.includes(`{psp="sep",terminal="${SEP_TERMINAL}",kind="bank_only"} 0`), after);
  });

  it('a Mellat terminal\'s report file, imported through the CLI, is reported exactly by the payments\' order ids; a file of another terminal is refused and writes nothing', async () => {
    await routeTo('mellat', MELLAT_TERMINAL);
    const a = await paid(1_100_000, true);
    const b = await paid(2_200_000, true);
    const c = await paid(3_300_000, true);
    const day = tehranDay(new Date());
    const { line: extra } = await plant(mellat.url, { bank_only: { amount: 650_000, date: day } });
    await plant(mellat.url, { drop: mellatOrderId(b.id) });
    await plant(mellat.url, { res_num: mellatOrderId(c.id), amount: 3_299_990 });
    assert.ok(extra);
    // The operator downloads the day's report from the PSP's panel (here, the simulator's answer).
    const report = await fetch(`${mellat.url}/pgwchannel/reports/daily`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminalId: MELLAT_TERMINAL, userName: 'dargah', userPassword: '', date: day.replaceAll('-', '') }),
    });
    assert.equal(report.status, 200);
    const file = join(tmpdir(), `dargah-mellat-report-${process.pid}.json`);
    const reportText = await report.text();
    writeFileSync(file, reportText);
    // A Mellat payment records no card (its verify gives none): an item the bank's report has shows the report's masked card.
    const bankCard = (orderId: string) => parseMellatReport(reportText, MELLAT_TERMINAL, day).find((l) => l.order_id === orderId)?.card_pan ?? null;
    try {
      const flags = ['--mode', 'test', '--psp', 'mellat', '--date', day, '--file', file];
      const refused = await cli('reconcile', 'import', '--terminal', '70000000', ...flags, '--json');
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr.trim(), `error: the Mellat report is of terminal ${MELLAT_TERMINAL}, not 70000000`);
      assert.equal((await h.db.selectFrom('bank_reconciliation_runs').select('id').where('terminal_id', '=', '70000000').execute()).length, 0);

      const imported = await cli('reconcile', 'import', '--terminal', MELLAT_TERMINAL, ...flags, '--json');
      assert.equal(imported.code, 1, 'differences: exit 1, as ledger check');
      const summary = JSON.parse(imported.stdout) as Record<string, unknown>;
      assert.deepEqual([summary.ok, summary.source, summary.matched, summary.bank_only, summary.gateway_only, summary.amount_mismatch], [false, 'file', 1, 1, 1, 1]);
    } finally {
      rmSync(file, { force: true });
    }
    const shown = await cli('reconcile', 'show', '--mode', 'test', '--psp', 'mellat', '--terminal', MELLAT_TERMINAL, '--date', day, '--json');
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual((JSON.parse(shown.stdout) as { items: BankReconciliationItem[] }).items, [
      { kind: 'bank_only', payment_id: null, order_id: extra.res_num, ref_num: extra.ref_num, bank_amount: 650_000, gateway_amount: null, card_pan: extra.card_pan },
      ours('gateway_only', b, mellatOrderId(b.id), null),
      { ...ours('amount_mismatch', c, mellatOrderId(c.id), 3_299_990), card_pan: bankCard(mellatOrderId(c.id)) },
      { ...ours('matched', a, mellatOrderId(a.id), a.amount), card_pan: bankCard(mellatOrderId(a.id)) },
    ]);
    // Asking the PSP itself gives the same items: the same run.
    const asked = await reconcileWithPsp(h.db, 'test', new MellatClient({ baseUrl: mellat.url, terminalId: MELLAT_TERMINAL, userName: 'dargah', password: '', timeoutMs: 5_000 }), day);
    assert.equal(asked.created, false);
    await plant(mellat.url, null);
  });

  it('bad input is refused with its reason and writes nothing: an unknown PSP, a day not begun, a terminal not configured here', async () => {
    const before = (await h.db.selectFrom('bank_reconciliation_runs').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const unknown = await cli('reconcile', 'run', '--psp', 'parsian', '--terminal', '1', '--date', '2026-01-01');
    assert.deepEqual([unknown.code, unknown.stderr.trim()], [1, 'error: the PSP is one of sep, mellat (got "parsian")']);
    const future = await cli('reconcile', 'run', '--psp', 'sep', '--terminal', '1', '--date', '2999-01-01');
    assert.deepEqual([future.code, future.stderr.trim()], [1, 'error: 2999-01-01 has not begun in Tehran']);
    const notHere = await cli('reconcile', 'run', '--mode', 'test', '--psp', 'sep', '--terminal', SEP_TERMINAL, '--date', tehranDay(new Date()));
    assert.equal(notHere.code, 2);
    assert.match(notHere.stderr, /is not configured for test payments here/);
    const never = await cli('reconcile', 'show', '--psp', 'sep', '--terminal', '1', '--date', '2020-01-01');
    assert.equal(never.code, 1);
    assert.match(never.stderr, /has no reconciliation of 2020-01-01/);
    const after = (await h.db.selectFrom('bank_reconciliation_runs').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    assert.equal(Number(after), Number(before));
  });

  it('a settlement covers only the live payments their day\'s reconciliation matched; a payment held by a difference is settled once the bank\'s report agrees', async () => {
    const m = await liveMerchant();
    await setSettlementIban(h.db, m.merchantId, SETTLEMENT_IBAN);
    const liveApi = await liveBankApi();
    const matched = await verifiedLivePayment(liveApi, m.liveKey, 2_000_000);
    const otherAmount = await verifiedLivePayment(liveApi, m.liveKey, 1_000_000);
    const missing = await verifiedLivePayment(liveApi, m.liveKey, 500_000);
    // The live PSP's report (the suite's simulator) differs on two of them.
    await plant(simulatorUrl(), { res_num: otherAmount.id, amount: 1_000_010 });
    await plant(simulatorUrl(), { drop: missing.id });
    const first = await settleNow(m.merchantId);
    assert.deepEqual(first.outcome, { result: 'paid', settlement_id: first.id, net: 2_000_000 - fee(2_000_000) });
    const lines = await h.db.selectFrom('settlement_lines').select('payment_id').where('settlement_id', '=', first.id).execute();
    assert.deepEqual(lines.map((l) => l.payment_id), [matched.id]);
    const held = await h.db.selectFrom('payments').select(['id', 'settlement_status']).where('id', 'in', [otherAmount.id, missing.id]).execute();
    assert.deepEqual(held.map((r) => r.settlement_status), ['pending', 'pending']);

    // The bank corrects its report: the next settlement reconciles the day again and covers both.
    await plant(simulatorUrl(), null);
    const second = await settleNow(m.merchantId);
    assert.deepEqual(second.outcome, { result: 'paid', settlement_id: second.id, net: 1_000_000 - fee(1_000_000) + 500_000 - fee(500_000) });
    const next = await h.db.selectFrom('settlement_lines').select('payment_id').where('settlement_id', '=', second.id).execute();
    assert.deepEqual(next.map((l) => l.payment_id).sort(), [otherAmount.id, missing.id].sort());
  });
});
