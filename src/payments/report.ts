/**
 * The payments report for reconciliation: every payment of a period as CSV
 * (RFC 4180), oldest first. It is streamed: the rows are read in keyed
 * batches and written as they come, so memory stays flat however many rows
 * the period holds, and no MySQL connection is held between batches.
 */
import { Readable } from 'node:stream';
import type { Db, PaymentRow } from '../db/database.ts';
import { instant } from '../db/filters.ts';
import { reportPaymentsBatch, splitsAmountsOf } from '../db/payment-report.ts';
import { paymentFromRow } from '../db/payments.ts';
import type { Tenant } from '../domain/merchant.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { PAYMENTS_REPORT_COLUMNS, REPORT_MAX_DAYS, type PaymentsReportQuery } from '../domain/report-schemas.ts';
import { merchantShare } from '../domain/splits.ts';
import { DomainError } from '../errors.ts';

/** Rows read per query. */
export const REPORT_BATCH_SIZE = 500;

const DAY_MS = 86_400_000;

/** What makes a spreadsheet read a cell as a formula (CSV injection): such a field gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: null is empty; a formula-like start is defused; a comma, quote, CR or LF makes it quoted, quotes doubled (RFC 4180). */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, ended by CRLF as RFC 4180 has it. */
export const csvLine = (fields: readonly (string | number | null)[]): string => `${fields.map(csvField).join(',')}\r\n`;

type ReportColumn = (typeof PAYMENTS_REPORT_COLUMNS)[number];

/**
 * A payment's line of the report, its fields in the order of the header. `splitsAmount` is the sum of its
 * shares (0 without splits); `merchant_receives` is what its verify put on the merchant's balance
 * (charged − fee − shares, before refunds), empty until it is verified (docs/API.md#reconciliation).
 */
export function reportLine(p: Payment, splitsAmount = 0): string {
  const fields: Record<ReportColumn, string | number | null> = {
    id: p.id,
    created_at: p.created_at,
    status: p.status,
    mode: p.mode,
    amount: p.amount,
    fee: p.fee,
    refunded_amount: p.refunded_amount,
    currency: p.currency,
    merchant_reference: p.merchant_reference,
    tracking_code: p.tracking_code,
    reference_id: p.reference_id,
    rrn: p.rrn,
    card_pan: p.card_pan,
    paid_at: p.paid_at,
    verified_at: p.verified_at,
    settlement_status: p.settlement_status,
    metadata: JSON.stringify(p.metadata),
    fee_payer: p.fee_payer,
    charged_amount: p.charged_amount,
    splits_amount: splitsAmount,
    merchant_receives:
      p.verified_at === null ? null : merchantShare({ charged: p.charged_amount, fee: p.fee }, splitsAmount),
  };
  return csvLine(PAYMENTS_REPORT_COLUMNS.map((column) => fields[column]));
}

/** `20261101T000000Z`: an instant fit for a file name (no colons). */
const compact = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.000Z$/, 'Z');

export interface PaymentsReport {
  filename: string;
  /** The CSV text, header line first; it fails (and the response is cut short) if MySQL fails midway. */
  body: Readable;
}

/**
 * The tenant's payments created in [created_gte, created_lt). The range is
 * checked and the first batch read before anything is returned, so a bad
 * range is a 422 and a MySQL failure a 503, both as JSON; later batches are
 * read as the client takes the text.
 */
export async function paymentsReport(
  db: Db,
  tenant: Tenant,
  query: PaymentsReportQuery,
  batchSize = REPORT_BATCH_SIZE,
): Promise<PaymentsReport> {
  const from = instant(query.created_gte, 'created_gte');
  const to = instant(query.created_lt, 'created_lt');
  if (to.getTime() <= from.getTime()) {
    throw new DomainError('validation_failed', 'created_lt must be after created_gte.', [
      { path: 'created_lt', message: 'must be after created_gte' },
    ]);
  }
  if (to.getTime() - from.getTime() > REPORT_MAX_DAYS * DAY_MS) {
    throw new DomainError('validation_failed', `A report covers at most ${REPORT_MAX_DAYS} days; ask for several.`, [
      { path: 'created_lt', message: `must be at most ${REPORT_MAX_DAYS} days after created_gte` },
    ]);
  }

  // Oldest first by (created_at, id), each batch after the last row of the one before (index payments_list).
  const read = (after: PaymentRow | undefined) => reportPaymentsBatch(db, tenant, { from, to }, after, batchSize);

  const first = await read(undefined);
  async function* text() {
    yield csvLine(PAYMENTS_REPORT_COLUMNS);
    for (let rows = first; ;) {
      if (rows.length > 0) {
        // The batch's shares in one grouped read, not one query a payment.
        const shares = await splitsAmountsOf(
          db,
          rows.map((row) => row.id),
        );
        yield rows.map((row) => reportLine(paymentFromRow(row), shares.get(row.id) ?? 0)).join('');
      }
      const last = rows.at(-1);
      if (rows.length < batchSize || last === undefined) return;
      rows = await read(last);
    }
  }
  return {
    filename: `payments-${compact(from)}-${compact(to)}.csv`,
    body: Readable.from(text(), { objectMode: false }),
  };
}
