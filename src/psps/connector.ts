/**
 * A PSP connector: everything the gateway needs of one PSP, exported by its folder
 * (`src/psps/<name>/index.ts`) and listed once in the registry (registry.ts), so that adding
 * a PSP is its folder and its registry line (docs/psps/README.md#how-to-add-a-connector).
 * Its `profile` is plain data (profile.ts); the rest is its code.
 */
import { createHash } from 'node:crypto';
import type { BankCallback } from '../domain/payment-workflow.ts';
import type { PspProfile } from './profile.ts';
import type { BankReportLine, PspClient } from './psp-client.ts';

/**
 * One terminal's settings in one mode, by suffix: `URL` (no trailing slash), `PAGE_URL` ('' when the
 * page is at `URL`), `TERMINAL_ID` and each of the profile's own settings (`PASSWORD`, …).
 */
export type PspTerminalSettings = Readonly<Record<string, string>>;

/** A documented layout of a PSP's daily report file (reports.ts): how to read it, and the reference that documents it. */
export interface ReportLayout {
  /** The file's lines of `terminalId`'s Tehran day `day`; BankReportInvalid when the file is not one. */
  read(text: string, terminalId: string, day: string): BankReportLine[];
  /** Where the layout is documented (a published document, or a repository and path). */
  reference: string;
}

/**
 * Declared with `satisfies PspConnector` (not `: PspConnector`), so that the registry sees its
 * profile's literal name and its client's own class (registry.ts holds each entry to its key).
 */
export interface PspConnector {
  readonly profile: PspProfile;
  /** The client of one terminal: its settings in one mode, and how long one call may take (BANK_TIMEOUT_MS). */
  client(settings: PspTerminalSettings, timeoutMs: number): PspClient;
  /**
   * The fields the PSP's page posted (or put on the query of) our return route, normalized (state OK,
   * CanceledByUser or Failed); undefined when they are not of this protocol's shape or name another
   * payment than `paymentId` (when given). Checked for shape only: the workflow confirms everything
   * with the PSP. The return route's one reading of a return (callbacks.ts); a client has none.
   */
  parseReturn(fields: Record<string, string>, paymentId?: string): BankCallback | undefined;
  /** Whether a return's fields are this PSP's by their own names, for a payment that has no PSP recorded. */
  recognisesReturn(fields: Record<string, string>): boolean;
  /** The id by which the PSP knows payment `paymentId` (its panel, its reports): derived, never stored. */
  orderId(paymentId: string): string;
  /** The origins the customer's browser is sent to with these settings (the pages' form-action policy). */
  pageOrigins(settings: PspTerminalSettings): string[];
  /**
   * The layout of the PSP's daily report, only where a public reference documents one (then its
   * profile declares `dailyReport: true`; a unit test holds the two together). None today.
   */
  report?: ReportLayout;
}

/** A setting of one terminal by its suffix; '' when it is not set. */
export const terminalSetting = (settings: PspTerminalSettings, suffix: string): string => settings[suffix] ?? '';

/**
 * What every connector's endpoint has, from a terminal's settings: its address (URL, no trailing
 * slash), its page's address when PAGE_URL names another, and its terminal id.
 */
export function terminalEndpoint(settings: PspTerminalSettings): {
  baseUrl: string;
  pageBaseUrl?: string;
  terminalId: string;
} {
  const strip = (url: string) => url.replace(/\/+$/, '');
  const pageUrl = terminalSetting(settings, 'PAGE_URL');
  return {
    baseUrl: strip(terminalSetting(settings, 'URL')),
    ...(pageUrl === '' ? {} : { pageBaseUrl: strip(pageUrl) }),
    terminalId: terminalSetting(settings, 'TERMINAL_ID'),
  };
}

/** The origin customers' browsers are sent to: PAGE_URL's, else URL's (none when neither is a URL). */
export function pageOriginOf(settings: PspTerminalSettings): string[] {
  const page = terminalSetting(settings, 'PAGE_URL') || terminalSetting(settings, 'URL');
  try {
    return [new URL(page).origin];
  } catch {
    return [];
  }
}

/**
 * The first 13 hex digits of the SHA-256 of `id`, as a number: below 2^52, a safe integer, a long at a
 * PSP. The one derivation of the PSPs' numeric order ids from our ids (the same on every call and
 * worker without being stored).
 */
export function hashedLong(id: string): number {
  return Number.parseInt(createHash('sha256').update(id).digest('hex').slice(0, 13), 16);
}

/**
 * A payment's numeric order id at a PSP whose order id is a long (Asan Pardakht's localInvoiceId,
 * Sadad's OrderId): its hashedLong kept below 10^15, so
 * the same on every call and worker without being stored. At most fifteen digits: exact as a JSON
 * number, and never taken for a card number (16 to 19 digits) by a log scanner, the fault suite's
 * (test/faults/9-secrets-in-logs.test.ts) or an operator's. Mellat's and Parsian's order ids keep
 * their hashedLong whole (16 digits mostly): their payments in flight are found again by it.
 */
export function numericOrderId(paymentId: string): string {
  return String(hashedLong(paymentId) % 1e15);
}
