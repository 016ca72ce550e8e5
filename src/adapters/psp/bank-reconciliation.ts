/**
 * Bank reconciliation (docs/psps/README.md#bank-reconciliation): a PSP terminal's day set against the
 * bank's own word. Where a reference documents the PSP's daily report (the file an operator downloads
 * from its merchant panel, reports.ts), the imported file is compared with the payments the gateway
 * recorded as confirmed there that day, and recorded as a run with its items; settlement pays out
 * only payments a run matched (src/db/settlements.ts). Where none does (SEP and Behpardakht today), no
 * report is asked for or invented: each payment's own verify and reverse answers at the PSP, recorded
 * with it, are the bank's record, `reconcile run` says so and counts them, and settlement waits for
 * nothing. Here, beside the connectors, because both the settlement run's activity and the operator's
 * CLI use it. Not the merchant's payments report (src/payments/report.ts).
 */
import {
  confirmedPayments,
  daysAwaitingReconciliation,
  recordBankReconciliation,
  recordedAnswers,
  type BankReconciliationRun,
  type TerminalDay,
} from '../../db/bank-reconciliation.ts';
import type { Db } from '../../db/database.ts';
import { compareBankReport } from '../../domain/bank-reconciliation.ts';
import { isCalendarDay, tehranDay, tehranDayBounds } from '../../domain/calendar.ts';
import type { Logger } from '../../logger.ts';
import { PSP_NAMES, type PspName } from '../../psps/psp-client.ts';
import { pspOrderId, REPORT_LAYOUTS, reportedPsps, type ReportLayouts } from '../../psps/reports.ts';

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

/** How far back the settlement run looks for days waiting for a report's import. */
export const RECONCILE_LOOKBACK_DAYS = 7;

/**
 * Before a settlement run selects what it covers: the live terminal days of PSPs with a documented
 * report whose payments still wait for an imported report to match them, logged for the operator
 * (nothing is asked of any PSP: no reference shows a report call). A PSP without one holds nothing.
 */
export async function daysAwaitingImport(
  db: Db,
  cutoff: Date,
  logger: Logger,
  layouts: ReportLayouts = REPORT_LAYOUTS,
): Promise<{ psp: string; terminal_id: string | null; day: string }[]> {
  const days = await daysAwaitingReconciliation(
    db,
    cutoff,
    new Date(cutoff.getTime() - RECONCILE_LOOKBACK_DAYS * 86_400_000),
    reportedPsps(layouts),
  );
  for (const day of days)
    logger.warn(day, "settlement waits for this day's bank report to be imported (reconcile import)");
  return days;
}
