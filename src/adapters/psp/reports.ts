/**
 * What bank reconciliation needs of each PSP besides its client (docs/psps/README.md#bank-reconciliation):
 * the layout of the daily report file an operator downloads from the PSP's merchant panel, where a
 * reference documents one, and the order id by which the PSP knows a payment.
 *
 * Only a layout a public reference documents is read: none is registered today, since no reference
 * we found documents SEP's or Behpardakht's panel export, and neither PSP has a report call a
 * reference shows (the connectors declare `dailyReport: false`). A connector whose PSP gets one
 * registers its reader here and declares `dailyReport: true` (a unit test holds the two together);
 * its payments are then settled once an imported report matched them. Every other PSP's payments
 * are reconciled from their own verify and reverse answers, recorded with them.
 */
import { mellatOrderId } from './mellat/mapping.ts';
import type { BankReportLine, PspName } from './psp-client.ts';

/** A documented layout of a PSP's daily report file: how to read it, and the reference that documents it. */
export interface ReportLayout {
  /** The file's lines of `terminalId`'s Tehran day `day`; BankReportInvalid when the file is not one. */
  read(text: string, terminalId: string, day: string): BankReportLine[];
  /** Where the layout is documented (a published document, or a repository and path). */
  reference: string;
}

export type ReportLayouts = Partial<Record<PspName, ReportLayout>>;

/** The documented report layouts, by PSP: none yet (see above). */
export const REPORT_LAYOUTS: ReportLayouts = {};

/** The PSPs whose payments wait for an imported report to match them before they are settled. */
export const reportedPsps = (layouts: ReportLayouts = REPORT_LAYOUTS): PspName[] => Object.keys(layouts) as PspName[];

/** The id a PSP's report names our payment by: SEP's ResNum is the payment id, Mellat's SaleOrderId its numeric order id. */
export function pspOrderId(psp: PspName, paymentId: string): string {
  return psp === 'mellat' ? mellatOrderId(paymentId) : paymentId;
}
