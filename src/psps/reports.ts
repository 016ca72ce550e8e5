/**
 * What bank reconciliation needs of each PSP besides its client (docs/psps/README.md#bank-reconciliation):
 * the layout of the daily report file an operator downloads from the PSP's merchant panel, where a
 * reference documents one, and the order id by which the PSP knows a payment.
 *
 * Only a layout a public reference documents is read: none is registered today, since no reference
 * we found documents SEP's or Behpardakht's panel export, and neither PSP has a report call a
 * reference shows (the connectors declare `dailyReport: false`). A connector whose PSP gets one
 * gives its reader as its connector's `report` and declares `dailyReport: true` (a unit test holds the two together);
 * its payments are then settled once an imported report matched them. Every other PSP's payments
 * are reconciled from their own verify and reverse answers, recorded with them.
 */
import type { ReportLayout } from './connector.ts';
import { PSP_NAMES, type PspName } from './profiles.ts';
import { PSP_CONNECTORS } from './registry.ts';

export type { ReportLayout };

export type ReportLayouts = Partial<Record<PspName, ReportLayout>>;

/** The documented report layouts, by PSP: each connector's `report`, where it has one (none yet, see above). */
export const REPORT_LAYOUTS: ReportLayouts = Object.fromEntries(
  PSP_NAMES.flatMap((psp) => {
    const report = (PSP_CONNECTORS[psp] as { report?: ReportLayout }).report;
    return report === undefined ? [] : [[psp, report]];
  }),
);

/** The PSPs whose payments wait for an imported report to match them before they are settled. */
export const reportedPsps = (layouts: ReportLayouts = REPORT_LAYOUTS): PspName[] => Object.keys(layouts) as PspName[];

/** The id a PSP's report names our payment by: its connector's (SEP's ResNum is the payment id, Mellat's SaleOrderId its numeric order id). */
export function pspOrderId(psp: PspName, paymentId: string): string {
  return PSP_CONNECTORS[psp].orderId(paymentId);
}
