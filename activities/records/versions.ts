/**
 * What every write of a payment's version does (activities/records.ts), whichever activity makes it:
 * the payment's row locked and checked against the workflow's word, the payment as its events show
 * it, the version's event in the write's transaction (an outbox), the transition counted once, and
 * the events handed to their deliveries after the commit. Shared by the payment's announcement, its
 * transitions and its refunds, so a retried or replayed write never moves a record backwards nor
 * writes or counts anything twice, whichever of them it is.
 */
import type { Client } from '@temporalio/client';
import type { Db } from '../../src/db/database.ts';
import { recordEvent, type StoredEvent } from '../../src/db/events.ts';
import { paymentSplits } from '../../src/db/splits.ts';
import {
  lockPaymentRecord,
  overRecord,
  pspFromRow,
  recordColumnsOf,
  recordedFieldsFromRow,
  settlementStatusAfter,
  type RecordColumns,
} from '../../src/db/payments.ts';
import type { EventType } from '../../src/domain/events.ts';
import { tenantOf } from '../../src/domain/merchant.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Logger } from '../../src/logger.ts';
import { paidToVerified, paymentTransitions } from '../../src/observability/metrics.ts';
import { dispatchEvent, type DeliveryConfig } from '../../src/temporal/deliveries.ts';
import { paymentRecordGuard, type PaymentRecordGuard } from '../payment-record.ts';

export interface RecordActivityDependencies {
  db: Db;
  logger: Logger;
  /** Starts webhook deliveries, outside the payment's workflow. */
  temporal: Client;
  config: DeliveryConfig;
}

/** The payment as events show it (the workflow's state with the merchant's metadata from the record), and whose it is. */
export interface Shown {
  payment: Payment;
  merchantId: string;
}

/**
 * `row`'s metadata, settlement status and PSP on the workflow's state: settlement_status is the
 * record's (settlement and the end of a live payment set it), and so is the PSP that took the
 * payment (recordPaymentPsp), which a workflow started before routing does not hold, and who pays
 * the fee with what the customer is charged, who may pay and the payment link, which a workflow started before those columns does not.
 */
export function shownFrom(payment: Payment, row: RecordColumns): Shown {
  const settlement = row.settlement_status as Payment['settlement_status'];
  return {
    payment: {
      ...overRecord(payment, recordedFieldsFromRow(row)),
      settlement_status: settlement,
      psp: pspFromRow(row),
    },
    merchantId: row.merchant_id,
  };
}

/** The payment as events show it, read from the record as it stands (in `trx`, after any write of it there). */
export async function withMetadata(trx: Db, payment: Payment): Promise<Shown> {
  return shownFrom(payment, await recordColumnsOf(trx, payment.id));
}

/**
 * Locks the payment's row for the write of `version`, refuses the write when
 * the payment's mode or amount differ from the row's, and reads, in the same
 * round trip, what the write's posting and event need: found only when that
 * write will change the row, so a retried or replayed activity counts its
 * transition once. `shown` is the payment as it will stand once written.
 */
export async function lockForWrite(
  trx: Db,
  guard: PaymentRecordGuard,
  activity: string,
  payment: Payment,
  version: number,
): Promise<{ from: string; shown: Shown } | undefined> {
  const locked = await lockPaymentRecord(trx, payment.id);
  // No row yet: the caller retries until the create's insert is visible.
  if (locked === undefined) return undefined;
  // A write goes only to the record of the payment the workflow was started for (activities/payment-record.ts).
  const row = guard.check(activity, { payment_id: payment.id, mode: payment.mode, amount: payment.amount }, locked);
  if (row.version >= version) return undefined;
  return {
    from: row.status,
    shown: shownFrom(payment, {
      ...row,
      settlement_status: settlementStatusAfter(payment.status, row.settlement_status),
    }),
  };
}

/**
 * The event of a payment's recorded version: one per version, so a retried activity finds the same one.
 * A split payment's event carries its shares as GET /payments/{id} shows them, read from MySQL here in the
 * event's transaction (the workflow's state holds no shares, so no history keeps a copy).
 */
export async function recordPaymentEvent(
  trx: Db,
  shown: Shown,
  version: number,
  type: EventType,
  at: Date,
): Promise<StoredEvent> {
  const splits = await paymentSplits(trx, shown.payment.id);
  return recordEvent(trx, {
    sourceKey: `payment:${shown.payment.id}:${version}`,
    owner: tenantOf(shown.merchantId, shown.payment.mode),
    type,
    objectId: shown.payment.id,
    data: { payment: splits.length === 0 ? shown.payment : { ...shown.payment, splits } },
    at,
  });
}

/** Counts a committed transition (a change of status; a new version of the same status is none). */
export function countTransition(from: string | undefined, payment: Payment): void {
  if (from === undefined || from === payment.status) return;
  paymentTransitions.inc({ from, to: payment.status, mode: payment.mode });
  if (payment.status === 'verified' && payment.paid_at !== null && payment.verified_at !== null) {
    paidToVerified.observe(
      { mode: payment.mode },
      Math.max(0, Date.parse(payment.verified_at) - Date.parse(payment.paid_at)) / 1000,
    );
  }
}

/** One guard and one dispatch for every record activity of a worker: the record check, and the deliveries of committed events. */
export function recordWriteKit({ db, logger, temporal, config }: RecordActivityDependencies) {
  return {
    guard: paymentRecordGuard(logger),
    dispatch: (events: StoredEvent[]) => Promise.all(events.map((event) => dispatchEvent(db, temporal, config, event))),
  };
}

export type RecordWriteKit = ReturnType<typeof recordWriteKit>;
