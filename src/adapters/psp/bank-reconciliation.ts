/**
 * Bank reconciliation (docs/psps/README.md#bank-reconciliation): a PSP
 * terminal's report of a Tehran day, asked of the PSP or imported from the
 * file an operator downloaded from its panel, set against the payments the
 * gateway recorded as confirmed there that day, and recorded as a run with
 * its items. Here, beside the connectors, because both the settlement run's
 * activity and the operator's CLI reconcile; settlement pays out only payments
 * a run matched (src/db/settlements.ts). Not the merchant's payments report
 * (src/payments/report.ts).
 */
import { confirmedPayments, daysAwaitingReconciliation, recordBankReconciliation, type BankReconciliationRun, type TerminalDay } from '../../db/bank-reconciliation.ts';
import type { Db } from '../../db/database.ts';
import { compareBankReport, type BankReportLine } from '../../domain/bank-reconciliation.ts';
import { isCalendarDay, tehranDay, tehranDayBounds } from '../../domain/calendar.ts';
import type { Logger } from '../../logger.ts';
import { PSP_NAMES, type PspClient, type PspName } from './psp-client.ts';
import { pspOrderId, readBankReport } from './reports.ts';

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
export function terminalDay(input: { mode: string; psp: string; terminal_id: string; day: string }, now = new Date()): TerminalDay & { psp: PspName } {
  if (input.mode !== 'test' && input.mode !== 'live') throw new BankReconciliationRefused(`the mode is test or live (got ${JSON.stringify(input.mode)})`);
  if (!PSP_NAMES.includes(input.psp as PspName)) throw new BankReconciliationRefused(`the PSP is one of ${PSP_NAMES.join(', ')} (got ${JSON.stringify(input.psp)})`);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(input.terminal_id)) throw new BankReconciliationRefused(`the terminal is its id at the PSP (got ${JSON.stringify(input.terminal_id)})`);
  if (!isCalendarDay(input.day)) throw new BankReconciliationRefused(`the day is a date YYYY-MM-DD (got ${JSON.stringify(input.day)})`);
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

/** Sets the bank's lines against our payments of the day and records the run (once per result). */
async function reconcile(db: Db, day: TerminalDay & { psp: PspName }, source: 'psp' | 'file', lines: BankReportLine[], at: Date, options: ReconcileOptions): Promise<BankReconciliationResult> {
  const { start, end } = tehranDayBounds(day.day);
  const ours = await confirmedPayments(db, day, start, end, options.deployed === true);
  const payments = ours.map((p) => ({ payment_id: p.id, order_id: pspOrderId(day.psp, p.id), ref_num: p.reference_id, amount: Number(p.amount), card_pan: p.card_pan }));
  return recordBankReconciliation(db, day, { source, items: compareBankReport(lines, payments), at });
}

/** Asks the PSP (its client: one terminal of one mode) for its report of `day` and reconciles the day. */
export async function reconcileWithPsp(db: Db, mode: 'test' | 'live', client: PspClient, day: string, at = new Date(), options: ReconcileOptions = {}): Promise<BankReconciliationResult> {
  const checked = terminalDay({ mode, psp: client.name, terminal_id: client.terminalId, day }, at);
  if (client.dailyReport === undefined) throw new BankReconciliationRefused(`PSP ${client.name} publishes no daily report the gateway can ask for`);
  return reconcile(db, checked, 'psp', await client.dailyReport(checked.day), at, options);
}

/** Reconciles the day from the report file an operator downloaded from the PSP's panel (its own format); a file that is not one writes nothing. */
export async function reconcileFromFile(
  db: Db,
  input: { mode: string; psp: string; terminal_id: string; day: string; text: string },
  at = new Date(),
  options: ReconcileOptions = {},
): Promise<BankReconciliationResult> {
  const day = terminalDay(input, at);
  return reconcile(db, day, 'file', readBankReport(day.psp, input.text, day.terminal_id, day.day), at, options);
}


/** How far back the settlement run looks for days to reconcile; an older day waits for the operator's `reconcile run`. */
export const RECONCILE_LOOKBACK_DAYS = 7;

/**
 * The daily reconciliation, before a settlement run selects what it covers: every live terminal's
 * previous Tehran day (so a day at the bank is compared even when no payment of ours waits on it), and
 * each live terminal day that holds payments waiting for their reconciliation, asked of the terminal's
 * PSP (`live`: the live clients). A day whose PSP does not answer, or whose terminal this deployment has
 * no client for, is left (its payments wait, and the next run asks again); none is begun after
 * `budgetMs`, so the run's activity stays within its bound. Repeating a day whose report and records
 * did not change makes no new run.
 */
export async function reconcileBeforeSettlement(
  db: Db,
  live: Partial<Record<PspName, PspClient>>,
  cutoff: Date,
  logger: Logger,
  options: { now?: Date; budgetMs?: number } = {},
): Promise<{ reconciled: number; left: number }> {
  const now = options.now ?? new Date();
  const started = Date.now();
  const yesterday = tehranDay(new Date(tehranDayBounds(tehranDay(now)).start.getTime() - 1));
  const clients = PSP_NAMES.flatMap((psp) => (live[psp] === undefined ? [] : [live[psp]]));
  const awaiting = await daysAwaitingReconciliation(db, cutoff, new Date(cutoff.getTime() - RECONCILE_LOOKBACK_DAYS * 86_400_000));
  const days = new Map<string, { client: PspClient; day: string }>();
  for (const client of clients) days.set(`${client.name}:${yesterday}`, { client, day: yesterday });
  for (const { psp, terminal_id, day } of awaiting) {
    const client = clients.find((c) => c.name === psp && (terminal_id === null || c.terminalId === terminal_id));
    if (client !== undefined) days.set(`${psp}:${day}`, { client, day });
  }
  let reconciled = 0;
  for (const { client, day } of days.values()) {
    if (Date.now() - started > (options.budgetMs ?? 30_000)) break;
    const where = { psp: client.name, terminal_id: client.terminalId, day };
    try {
      // The live clients are this deployment's configured terminals.
      const { run } = await reconcileWithPsp(db, 'live', client, day, now, { deployed: true });
      reconciled += 1;
      const differences = run.counts.bank_only + run.counts.gateway_only + run.counts.amount_mismatch;
      if (differences > 0) logger.warn({ ...where, ...run.counts }, 'bank reconciliation found differences');
    } catch (error) {
      logger.warn({ ...where, err: error instanceof Error ? error.message : String(error) }, 'bank reconciliation could not be made');
    }
  }
  return { reconciled, left: days.size - reconciled };
}
