/**
 * What operators read of bank reconciliation (docs/psps/README.md#bank-reconciliation):
 * a day's newest run with its items, and its CSV. The runs themselves are
 * made in src/adapters/psp/bank-reconciliation.ts.
 */
import { terminalDay, BankReconciliationRefused } from '../adapters/psp/bank-reconciliation.ts';
import { newestBankReconciliation, type BankReconciliationRun } from '../db/bank-reconciliation.ts';
import type { Db } from '../db/database.ts';
import type { BankReconciliationItem } from '../domain/bank-reconciliation.ts';

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
