/**
 * The PSP's daily report of its terminal (docs/BANK.md#daily-reports), served
 * from the simulator's ledger in the format of its protocol: Behpardakht's JSON
 * (POST /pgwchannel/reports/daily); the gateway's readers are
 * src/adapters/psp/<psp>/report.ts. SEP has no report call (docs/psps/sep.md):
 * this bank serves none for it. A day is Tehran's calendar day, and a
 * transaction is on the day the bank confirmed it (verified it), if it was not
 * reversed since. Both formats are modelled (no PSP publishes its own).
 *
 * For tests, report switches (admin.ts) plant differences: a line the
 * gateway never had, a transaction left out, another amount for one. They
 * change the report only, never the ledger, and stay until cleared.
 */
import { randomUUID } from 'node:crypto';
import { json, readJson, type Routes } from './http.ts';
import { digits, now, sepRefNum, type Ledger, type Transaction } from './ledger.ts';

/** One line of the report as the bank keeps it, before its protocol's format. */
export interface ReportLine {
  ref_num: string;
  res_num: string;
  terminal: string;
  amount: number;
  card_pan: string;
  rrn: string;
  trace_no: string;
  /** When the bank confirmed it, ISO 8601 UTC. */
  at: string;
}

/** The planted differences (admin.ts: POST/DELETE /admin/report). */
export class ReportSwitches {
  /** Lines the bank reports that the gateway never had, by their day. */
  readonly extra: { day: string; line: ReportLine }[] = [];
  /** ResNums (SEP) or order ids (Mellat) left out of the report. */
  readonly dropped = new Set<string>();
  /** Another amount reported for a ResNum or order id. */
  readonly amounts = new Map<string, number>();

  clear(): void {
    this.extra.length = 0;
    this.dropped.clear();
    this.amounts.clear();
  }
}

const tehranDayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tehran', year: 'numeric', month: '2-digit', day: '2-digit' });
const tehranTimeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tehran', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
/** `YYYY-MM-DD` of an instant in Tehran. */
export const tehranDayOf = (iso: string) => tehranDayFormat.format(new Date(iso));
/** `HH:MM:SS` of an instant in Tehran. */
const tehranTimeOf = (iso: string) => tehranTimeFormat.format(new Date(iso));

/** The report of `terminal`'s day `day`: its confirmed, unreversed transactions, with the switches applied. */
export function reportLines(ledger: Ledger, switches: ReportSwitches, terminal: string, day: string): ReportLine[] {
  const confirmedThatDay = (t: Transaction) => t.terminal === terminal && t.confirmed_at !== undefined && t.reversed_at === undefined && tehranDayOf(t.confirmed_at) === day;
  const lines = ledger
    .all()
    .filter(confirmedThatDay)
    .filter((t) => !switches.dropped.has(t.res_num))
    .map((t) => ({
      ref_num: t.ref_num ?? '',
      res_num: t.res_num,
      terminal: t.terminal,
      amount: switches.amounts.get(t.res_num) ?? t.amount,
      card_pan: t.card_pan ?? '',
      rrn: t.rrn ?? '',
      trace_no: t.trace_no ?? '',
      at: t.confirmed_at!,
    }));
  const extra = switches.extra.filter((e) => e.day === day && e.line.terminal === terminal).map((e) => e.line);
  return [...lines, ...extra].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** Behpardakht's JSON (src/adapters/psp/mellat/report.ts). */
function mellatReport(lines: ReportLine[], terminal: string, day: string): object {
  const compact = (text: string) => text.replace(/[-:]/g, '');
  return {
    resCode: 0,
    terminalId: terminal,
    date: compact(day),
    transactions: lines.map((l) => ({
      saleOrderId: l.res_num,
      saleReferenceId: l.ref_num,
      amount: l.amount,
      cardHolderPan: l.card_pan,
      localDate: compact(tehranDayOf(l.at)),
      localTime: compact(tehranTimeOf(l.at)),
    })),
  };
}

export interface ReportOptions {
  protocol: 'sep' | 'mellat';
  terminalId: string;
  userName: string;
  password: string;
}

/** A line the gateway never had, in the protocol's numbering: a SEP ResNum is a UUID, a Mellat order id a number. */
export function plantedLine(options: ReportOptions, amount: number, day: string): ReportLine {
  const mellat = options.protocol === 'mellat';
  const at = now();
  return {
    ref_num: mellat ? `9${digits(11)}` : sepRefNum(),
    res_num: mellat ? `9${digits(12)}` : randomUUID(),
    terminal: options.terminalId,
    amount,
    card_pan: `${mellat ? '610433' : '603799'}******${digits(4)}`,
    rrn: digits(12),
    trace_no: digits(6),
    // The planted line is of `day` whatever today is: noon of that day in Tehran.
    at: tehranDayOf(at) === day ? at : new Date(`${day}T12:00:00+03:30`).toISOString(),
  };
}

const MELLAT_REPORT_PATH = '/pgwchannel/reports/daily';

export function reportRoutes({ ledger, switches, options }: { ledger: Ledger; switches: ReportSwitches; options: ReportOptions }): Routes {
  const day = (text: string) => (/^[0-9]{4}-?[0-9]{2}-?[0-9]{2}$/.test(text) ? text.replace(/^([0-9]{4})-?([0-9]{2})-?([0-9]{2})$/, '$1-$2-$3') : undefined);
  return (method, path) => {
    if (method !== 'POST') return undefined;
    if (options.protocol === 'mellat' && path === MELLAT_REPORT_PATH) {
      return async ({ req, res }) => {
        const body = await readJson(req);
        const date = day(typeof body.date === 'string' ? body.date : '');
        const known = String(body.terminalId) === options.terminalId && body.userName === options.userName && (options.password === '' || body.userPassword === options.password);
        if (!known) return json(res, 200, { resCode: 21 });
        if (date === undefined) return json(res, 200, { resCode: 32 });
        json(res, 200, mellatReport(reportLines(ledger, switches, options.terminalId, date), options.terminalId, date));
      };
    }
    return undefined;
  };
}
