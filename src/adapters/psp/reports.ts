/**
 * What bank reconciliation needs of each PSP besides its client (docs/psps/README.md#bank-reconciliation):
 * reading a daily report file an operator downloaded from the PSP's panel, in that PSP's format, and
 * the order id by which the PSP knows a payment.
 */
import { mellatOrderId } from './mellat/mapping.ts';
import { parseMellatReport } from './mellat/report.ts';
import type { BankReportLine, PspName } from './psp-client.ts';
import { parseSepReport } from './sep/report.ts';

const REPORT_READERS: Record<PspName, (text: string, terminalId: string, day: string) => BankReportLine[]> = {
  sep: parseSepReport,
  mellat: parseMellatReport,
};

/** The lines of a PSP's report file of `terminalId`'s day `day`; BankReportInvalid when the file is not one. */
export function readBankReport(psp: PspName, text: string, terminalId: string, day: string): BankReportLine[] {
  return REPORT_READERS[psp](text, terminalId, day);
}

/** The id a PSP's report names our payment by: SEP's ResNum is the payment id, Mellat's SaleOrderId its numeric order id. */
export function pspOrderId(psp: PspName, paymentId: string): string {
  return psp === 'mellat' ? mellatOrderId(paymentId) : paymentId;
}
