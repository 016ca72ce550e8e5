/**
 * Behpardakht Mellat's daily report of a terminal (docs/psps/mellat.md#daily-report), modelled:
 * Behpardakht gives merchants their transactions per terminal and day in its panel; the fields are
 * the callback's and the verify family's. A JSON document, as the panel's download and as the
 * simulator's answer to its report call:
 *
 *   {"resCode":0,"terminalId":"55667788","date":"20261125","transactions":[
 *     {"saleOrderId":"1234567890123","saleReferenceId":"812345678901","amount":1500000,
 *      "cardHolderPan":"610433******1234","localDate":"20261125","localTime":"091403"}]}
 *
 * `date` and `localDate` are Tehran's calendar day (YYYYMMDD), as `bpPayRequest`'s localDate. Pure code.
 */
import { reportCardPan, type BankReportLine } from '../../../domain/bank-reconciliation.ts';
import { BankReportInvalid } from '../psp-client.ts';

/** `2026-11-25` as Behpardakht writes a day: `20261125`. */
export const mellatDate = (day: string) => day.replaceAll('-', '');

interface MellatReport {
  resCode?: unknown;
  terminalId?: unknown;
  date?: unknown;
  transactions?: unknown;
}

/** The lines of a Mellat report of `terminalId`'s day `day`; a document of another shape, terminal or day is refused whole. */
export function parseMellatReport(text: string, terminalId: string, day: string): BankReportLine[] {
  let report: MellatReport;
  try {
    report = JSON.parse(text.replace(/^\uFEFF/, '')) as MellatReport;
  } catch {
    throw new BankReportInvalid('a Mellat report is a JSON document');
  }
  if (report === null || typeof report !== 'object' || !Array.isArray(report.transactions)) throw new BankReportInvalid('a Mellat report has a transactions list');
  if (String(report.resCode) !== '0') throw new BankReportInvalid(`the Mellat report answers resCode ${String(report.resCode)}`);
  if (String(report.terminalId) !== terminalId) throw new BankReportInvalid(`the Mellat report is of terminal ${String(report.terminalId)}, not ${terminalId}`);
  if (String(report.date) !== mellatDate(day)) throw new BankReportInvalid(`the Mellat report is of ${String(report.date)}, not ${mellatDate(day)}`);
  return (report.transactions as Record<string, unknown>[]).map((t, i) => {
    const where = `transaction ${i + 1} of the Mellat report`;
    const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
    const [orderId, refId, amount, pan, localDate] = [t?.saleOrderId, t?.saleReferenceId, t?.amount, t?.cardHolderPan, t?.localDate].map(text);
    if (!/^[0-9]{1,19}$/.test(orderId!) || !/^[0-9]{1,40}$/.test(refId!)) throw new BankReportInvalid(`${where} has no saleOrderId or saleReferenceId`);
    if (!/^[1-9][0-9]{0,14}$/.test(amount!)) throw new BankReportInvalid(`${where} has an amount that is not a whole number of rials`);
    if (localDate !== mellatDate(day)) throw new BankReportInvalid(`${where} is of ${localDate}, not ${mellatDate(day)}`);
    return { ref_num: refId!, order_id: orderId!, amount: Number(amount), card_pan: reportCardPan(pan!) };
  });
}
