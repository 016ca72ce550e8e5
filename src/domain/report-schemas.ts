/**
 * The reconciliation reports: what a merchant asks for, and the rules of
 * the range a report may cover.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DateTimeFilter } from './schema.ts';

/** The longest range one report may cover; a longer period is several reports. */
export const REPORT_MAX_DAYS = 366;

export const PaymentsReportQuerySchema = Type.Object(
  {
    created_gte: DateTimeFilter('payments created at or after this instant'),
    created_lt: DateTimeFilter(
      `payments created before this instant; at most ${REPORT_MAX_DAYS} days after created_gte`,
      '2026-12-01T00:00:00Z',
    ),
  },
  { additionalProperties: false },
);
export type PaymentsReportQuery = Static<typeof PaymentsReportQuerySchema>;

/** The columns of the payments report, in order: the header line names them. */
export const PAYMENTS_REPORT_COLUMNS = [
  'id',
  'created_at',
  'status',
  'mode',
  'amount',
  'fee',
  'refunded_amount',
  'currency',
  'merchant_reference',
  'tracking_code',
  'reference_id',
  'rrn',
  'card_pan',
  'paid_at',
  'verified_at',
  'settlement_status',
  'metadata',
  // Added after the first release, at the end so a reader of the columns by position keeps working.
  'fee_payer',
  'charged_amount',
  'splits_amount',
  'merchant_receives',
] as const;
