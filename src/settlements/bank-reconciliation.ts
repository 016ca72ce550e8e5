/**
 * Bank reconciliation (docs/psps/README.md#bank-reconciliation): a PSP terminal's day set against the
 * bank's own word. Where a reference documents the PSP's daily report (the file an operator downloads
 * from its merchant panel, reports.ts), the imported file is compared with the payments the gateway
 * recorded as confirmed there that day, and recorded as a run with its items; settlement pays out
 * only payments a run matched (src/db/settlements.ts). Where none does (SEP and Behpardakht today), no
 * report is asked for or invented: each payment's own verify and reverse answers at the PSP, recorded
 * with it, are the bank's record, `reconcile run` says so and counts them, and settlement waits for
 * nothing. A service: the operator's CLI makes the runs and reads them; the settlement run's
 * activity asks the records (src/db/bank-reconciliation.ts) for the days still waiting. Not the
 * merchant's payments report (src/payments/report.ts).
 */
import {
  confirmedPayments,
  newestBankReconciliation,
  recordBankReconciliation,
  recordedAnswers,
  type BankReconciliationRun,
  type TerminalDay,
} from '../db/bank-reconciliation.ts';
import type { Db } from '../db/database.ts';
import { compareBankReport, type BankReconciliationItem } from '../domain/bank-reconciliation.ts';
import { isCalendarDay, tehranDay, tehranDayBounds } from '../domain/calendar.ts';
import { PSP_NAMES, type PspName } from '../psps/psp-client.ts';
import { pspOrderId, REPORT_LAYOUTS, type ReportLayouts } from '../psps/reports.ts';

/** A reconciliation asked for with something that is not a PSP, a terminal or a day that has begun: nothing is written. */
export class BankReconciliationRefused extends Error {
  override name = 'BankReconciliationRefused';
}

export interface BankReconciliationResult {
  run: BankReconciliationRun;
  /** false: the day's newest run already had these very items, and is the answer. */
  created: boolean;
}

/** The terminal's day as asked for, checked: a known PSP, a terminal id, a calendar day not after today in Tehran. */
export function terminalDay(
  input: { mode: string; psp: string; terminal_id: string; day: string },
  now = new Date(),
): TerminalDay & { psp: PspName } {
  if (input.mode !== 'test' && input.mode !== 'live')
    throw new BankReconciliationRefused(`the mode is test or live (got ${JSON.stringify(input.mode)})`);
  if (!PSP_NAMES.includes(input.psp as PspName))
    throw new BankReconciliationRefused(`the PSP is one of ${PSP_NAMES.join(', ')} (got ${JSON.stringify(input.psp)})`);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(input.terminal_id))
    throw new BankReconciliationRefused(`the terminal is its id at the PSP (got ${JSON.stringify(input.terminal_id)})`);
  if (!isCalendarDay(input.day))
    throw new BankReconciliationRefused(`the day is a date YYYY-MM-DD (got ${JSON.stringify(input.day)})`);
  if (input.day > tehranDay(now)) throw new BankReconciliationRefused(`${input.day} has not begun in Tehran`);
  return { mode: input.mode, psp: input.psp as PspName, terminal_id: input.terminal_id, day: input.day };
}

/**
 * Whether the terminal is the one this deployment configures for its PSP and mode (`deployed`): only
 * that terminal also answers for the payments recorded before routing (confirmedPayments).
 */
export interface ReconcileOptions {
  deployed?: boolean;
}

/** Why a PSP's day has no report to compare: the sentence the CLI and the logs say. */
export const noReportSentence = (psp: PspName) =>
  `PSP ${psp} has no daily report a reference documents: its payments are reconciled from their own verify and reverse answers at the PSP, recorded with each payment, and settlement does not wait for a report`;

/**
 * Reconciles the day from the report file an operator downloaded from the PSP's panel, read by the
 * layout a reference documents (`layouts`: the registered ones); a PSP without one, or a file that is
 * not one, writes nothing.
 */
export async function reconcileFromFile(
  db: Db,
  input: { mode: string; psp: string; terminal_id: string; day: string; text: string },
  at = new Date(),
  options: ReconcileOptions & { layouts?: ReportLayouts } = {},
): Promise<BankReconciliationResult> {
  const day = terminalDay(input, at);
  const layout = (options.layouts ?? REPORT_LAYOUTS)[day.psp];
  if (layout === undefined)
    throw new BankReconciliationRefused(`${noReportSentence(day.psp)}; there is no file to import`);
  const lines = layout.read(input.text, day.terminal_id, day.day);
  const { start, end } = tehranDayBounds(day.day);
  const ours = await confirmedPayments(db, day, start, end, options.deployed === true);
  const payments = ours.map((p) => ({
    payment_id: p.id,
    order_id: pspOrderId(day.psp, p.id),
    ref_num: p.reference_id,
    amount: Number(p.amount),
    card_pan: p.card_pan,
  }));
  return recordBankReconciliation(db, day, { source: 'file', items: compareBankReport(lines, payments), at });
}

/** A terminal's day as the PSP's recorded answers give it, for a PSP without a documented report. */
export interface RecordedDay extends TerminalDay {
  source: 'recorded_answers';
  /** Payments the PSP's verify confirmed that kept their money, and their charged rials. */
  confirmed: { count: number; amount: number };
  /** Payments the PSP reversed at our call. */
  reversed: { count: number; amount: number };
  note: string;
}

/**
 * The day of a PSP terminal whose PSP has no documented report, from its payments' recorded answers
 * (nothing is written: there is nothing to compare them with). A PSP with a documented layout is
 * reconciled by importing its file instead.
 */
export async function reconcileFromRecords(
  db: Db,
  input: { mode: string; psp: string; terminal_id: string; day: string },
  at = new Date(),
  options: ReconcileOptions & { layouts?: ReportLayouts } = {},
): Promise<RecordedDay> {
  const day = terminalDay(input, at);
  if ((options.layouts ?? REPORT_LAYOUTS)[day.psp] !== undefined) {
    throw new BankReconciliationRefused(
      `PSP ${day.psp}'s daily report is the file downloaded from its merchant panel: import it (reconcile import --file)`,
    );
  }
  const { start, end } = tehranDayBounds(day.day);
  const answers = await recordedAnswers(db, day, start, end, options.deployed === true);
  return { ...day, source: 'recorded_answers', ...answers, note: noReportSentence(day.psp) };
}

/** The day's newest run and its items; refused when the day was never reconciled. */
export async function bankReconciliationOf(
  db: Db,
  input: { mode: string; psp: string; terminal_id: string; day: string },
): Promise<{ run: BankReconciliationRun; items: BankReconciliationItem[] }> {
  const day = terminalDay(input);
  const found = await newestBankReconciliation(db, day);
  if (found === undefined)
    throw new BankReconciliationRefused(
      `${day.psp} terminal ${day.terminal_id} (${day.mode}) has no reconciliation of ${day.day}`,
    );
  return found;
}

export const BANK_RECONCILIATION_CSV_HEADER =
  'kind,payment_id,order_id,ref_num,card_pan,bank_amount,gateway_amount,difference';

/** The operator's CSV of a run: one line per item (each difference and each matched payment), amounts in rials; difference = bank − gateway. */
export function bankReconciliationCsv(items: readonly BankReconciliationItem[]): string {
  const cell = (v: string | number | null) => (v === null ? '' : String(v));
  const rows = items.map((i) =>
    [
      i.kind,
      i.payment_id,
      i.order_id,
      i.ref_num,
      i.card_pan,
      i.bank_amount,
      i.gateway_amount,
      (i.bank_amount ?? 0) - (i.gateway_amount ?? 0),
    ]
      .map(cell)
      .join(','),
  );
  return `${[BANK_RECONCILIATION_CSV_HEADER, ...rows].join('\r\n')}\r\n`;
}
