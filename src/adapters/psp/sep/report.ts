/**
 * A daily transaction report of a SEP terminal, **modelled** (docs/psps/sep.md#daily-report): no
 * reference documents the layout of SEP's merchant-panel export, and SEP has no report call, so the
 * SEP connector no longer asks for one and its capabilities say `dailyReport: false`. What is left
 * is this reader of a modelled CSV, for the file an operator imports (src/adapters/psp/reports.ts),
 * one successful transaction a line, in the fields SEP's verify answer names:
 *
 *   RefNum,ResNum,TerminalNumber,Amount,MaskedPan,RRN,TraceNo,TransactionDate
 *   123456789012,4f1c…(our payment id),11223344,1500000,603799******1234,123456789012,123456,2026-11-25 09:14:03
 *
 * TransactionDate is Tehran's wall time. Pure code: the client fetches, this reads.
 */
import { reportCardPan, type BankReportLine } from '../../../domain/bank-reconciliation.ts';
import { BankReportInvalid } from '../psp-client.ts';
import { SEP_REF_NUM } from './mapping.ts';

export const SEP_REPORT_HEADER = ['RefNum', 'ResNum', 'TerminalNumber', 'Amount', 'MaskedPan', 'RRN', 'TraceNo', 'TransactionDate'] as const;

/** The lines of a SEP report of `terminalId`'s day `day`; a file of another shape, terminal or day is refused whole. */
export function parseSepReport(text: string, terminalId: string, day: string): BankReportLine[] {
  const rows = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((row) => row.trim() !== '')
    .map((row) => row.split(',').map((cell) => cell.trim().replace(/^"(.*)"$/, '$1')));
  const [header, ...lines] = rows;
  if (header === undefined || header.join(',') !== SEP_REPORT_HEADER.join(',')) throw new BankReportInvalid(`a SEP report starts with the header ${SEP_REPORT_HEADER.join(',')}`);
  return lines.map((cells, i) => {
    const [refNum = '', resNum = '', terminal = '', amount = '', maskedPan = '', , , at = ''] = cells;
    const where = `line ${i + 2} of the SEP report`;
    if (cells.length !== SEP_REPORT_HEADER.length) throw new BankReportInvalid(`${where} has ${cells.length} fields, not ${SEP_REPORT_HEADER.length}`);
    if (terminal !== terminalId) throw new BankReportInvalid(`${where} is of terminal ${terminal}, not ${terminalId}`);
    if (!at.startsWith(`${day} `)) throw new BankReportInvalid(`${where} is of ${at.slice(0, 10)}, not ${day}`);
    if (!SEP_REF_NUM.test(refNum) || !/^[A-Za-z0-9_-]{1,64}$/.test(resNum)) throw new BankReportInvalid(`${where} has no RefNum or ResNum`);
    if (!/^[1-9][0-9]{0,14}$/.test(amount)) throw new BankReportInvalid(`${where} has an Amount that is not a whole number of rials`);
    return { ref_num: refNum, order_id: resNum, amount: Number(amount), card_pan: reportCardPan(maskedPan) };
  });
}
