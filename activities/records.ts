/**
 * Record activities: the payment workflow's only way to write MySQL. Each
 * write carries the payment's next version, so a retried or replayed
 * activity never moves a record backwards, and each change's event is
 * written in the same transaction (an outbox: the event exists exactly when
 * the change does), then handed to its delivery workflows.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Db } from '../src/db/database.ts';
import { merchantLiveMode } from '../src/db/merchants.ts';
import { isCheckViolation } from '../src/db/errors.ts';
import { recordEvent, type StoredEvent } from '../src/db/events.ts';
import { hasPosting, post } from '../src/db/ledger.ts';
import { allocateRefundToShares, paymentSplits, returnRefundToShares, splitAmountOf } from '../src/db/splits.ts';
import {
  lockPaymentRecord,
  overRecord,
  paymentById,
  paymentFromRow,
  pspFromRow,
  recordColumnsOf,
  recordedFieldsFromRow,
  setPaymentPspWhileCreated,
  settlementStatusAfter,
  writePaymentVersion,
  type RecordColumns,
} from '../src/db/payments.ts';
import {
  lockedMerchantBalance,
  lockRefundStatus,
  refundFromRow,
  refundOfPayment,
  writeRefund,
} from '../src/db/refunds.ts';
import { paymentEventType, type EventType } from '../src/domain/events.ts';
import { transitionMovement } from '../src/domain/ledger.ts';
import { tenantOf, type KeyMode } from '../src/domain/merchant.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';
import type { Refund } from '../src/domain/refund-schemas.ts';
import type { Logger } from '../src/logger.ts';
import {
  lateBankReturns,
  paidToVerified,
  paymentTransitions,
  refunds as refundOutcomes,
} from '../src/observability/metrics.ts';
import { recordLateReturn, type LateReturnRecord } from '../src/db/late-returns.ts';
import { dispatchEvent, type DeliveryConfig } from '../src/temporal/deliveries.ts';
import { paymentRecordGuard, type PaymentRecordGuard } from './payment-record.ts';

export interface RecordActivityDependencies {
  db: Db;
  logger: Logger;
  /** Starts webhook deliveries, outside the payment's workflow. */
  temporal: Client;
  config: DeliveryConfig;
}

export interface RecordRefundInput {
  refund: Refund;
  merchant_id: string;
  mode: KeyMode;
  /** The payment's next version when the refund changes it (reserved or given back), else null. */
  payment: { payment: Payment; version: number } | null;
  /**
   * Whether a refund whose amount this write takes from the merchant's balance is held for the operator's
   * approval instead (`awaiting_approval`, held_for `balance`) when the balance would go below zero
   * (docs/LEDGER.md#refunds-and-the-balance). Absent in the writes of runs from before it: never held.
   * Only a live refund is checked: test mode moves no money.
   */
  within_balance?: boolean;
}

/** What recordRefund recorded: the refund's status, which the balance check may have turned into a hold. */
export interface RecordedRefund {
  status: Refund['status'];
  held_for: Refund['held_for'];
}

/** What the refunds workflow decides a refund on: the payment and its version as recorded, and the refund if it was taken before. */
export interface RecordedForRefund {
  /** Without the merchant's metadata, which stays in MySQL (no history keeps a copy). */
  payment: Payment;
  version: number;
  refund: Refund | null;
}

/** The payment as events show it (the workflow's state with the merchant's metadata from the record), and whose it is. */
interface Shown {
  payment: Payment;
  merchantId: string;
}

/**
 * `row`'s metadata, settlement status and PSP on the workflow's state: settlement_status is the
 * record's (settlement and the end of a live payment set it), and so is the PSP that took the
 * payment (recordPaymentPsp), which a workflow started before routing does not hold, and who pays
 * the fee with what the customer is charged, who may pay and the payment link, which a workflow started before those columns does not.
 */
function shownFrom(payment: Payment, row: RecordColumns): Shown {
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
async function withMetadata(trx: Db, payment: Payment): Promise<Shown> {
  return shownFrom(payment, await recordColumnsOf(trx, payment.id));
}

/**
 * Locks the payment's row for the write of `version`, refuses the write when
 * the payment's mode or amount differ from the row's, and reads, in the same
 * round trip, what the write's posting and event need: found only when that
 * write will change the row, so a retried or replayed activity counts its
 * transition once. `shown` is the payment as it will stand once written.
 */
async function lockForWrite(
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

/** The ledger posting of a payment's recorded transition (capture, verify, reversal), once per payment and movement. */
async function postTransition(trx: Db, { payment, merchantId }: Shown, at: Date): Promise<void> {
  const movement = transitionMovement(payment.status);
  if (movement === undefined) return;
  await post(trx, {
    cause: `payment:${payment.id}:${movement}`,
    movement,
    merchantId,
    mode: payment.mode,
    // What the customer was charged: a customer-pays payment's fee is part of what is held, and of what goes back.
    amount: payment.charged_amount,
    fee: payment.fee,
    // A split payment's shares go to its beneficiaries' payable at verify (docs/LEDGER.md#split-settlement).
    splits: movement === 'verify' ? await splitAmountOf(trx, payment.id) : 0,
    paymentId: payment.id,
    at,
  });
}

const REFUND_MOVEMENTS = { pending: 'refund', succeeded: 'refund_succeeded', failed: 'refund_failed' } as const;

/** The posting a refund's status makes: its amount leaves the balance once, named `pending`, whether it then waits for its payer or is paid out. */
const postedStatus = (status: Refund['status']): keyof typeof REFUND_MOVEMENTS =>
  status === 'awaiting_payer' || status === 'awaiting_approval' ? 'pending' : status;

/**
 * The event of a payment's recorded version: one per version, so a retried activity finds the same one.
 * A split payment's event carries its shares as GET /payments/{id} shows them, read from MySQL here in the
 * event's transaction (the workflow's state holds no shares, so no history keeps a copy).
 */
async function recordPaymentEvent(
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
function countTransition(from: string | undefined, payment: Payment): void {
  if (from === undefined || from === payment.status) return;
  paymentTransitions.inc({ from, to: payment.status, mode: payment.mode });
  if (payment.status === 'verified' && payment.paid_at !== null && payment.verified_at !== null) {
    paidToVerified.observe(
      { mode: payment.mode },
      Math.max(0, Date.parse(payment.verified_at) - Date.parse(payment.paid_at)) / 1000,
    );
  }
}

export function createRecordActivities({ db, logger, temporal, config }: RecordActivityDependencies) {
  const dispatch = (events: StoredEvent[]) =>
    Promise.all(events.map((event) => dispatchEvent(db, temporal, config, event)));
  const guard = paymentRecordGuard(logger);
  return {
    /** Records payment.created for a new payment (its version 1) and starts its deliveries. */
    async announcePayment({ payment, merchant_id }: { payment: Payment; merchant_id: string }): Promise<void> {
      // The first thing every payment workflow does: one started with another payment's mode, amount or merchant stops here.
      await guard.read(db, 'announcePayment', {
        payment_id: payment.id,
        mode: payment.mode,
        amount: payment.amount,
        merchant_id,
      });
      // Two statements, the event's a single insert: no transaction needed.
      const event = await recordPaymentEvent(
        db,
        await withMetadata(db, payment),
        1,
        'payment.created',
        new Date(payment.created_at),
      );
      await dispatch([event]);
    },

    /**
     * Records which PSP terminal gave the payment its token, before the customer is sent there
     * (docs/psps/routing.md): from then on every bank call of the payment goes to that PSP
     * (activities/bank/record-guard.ts), and its resource, its events and its search attributes name it. Written
     * while the payment is `created` only; the same values again change nothing.
     */
    async recordPaymentPsp({
      payment_id,
      mode,
      amount,
      psp,
      terminal_id,
    }: {
      payment_id: string;
      mode: KeyMode;
      amount: number;
      psp: string;
      terminal_id: string;
    }): Promise<void> {
      await guard.read(db, 'recordPaymentPsp', { payment_id, mode, amount });
      await setPaymentPspWhileCreated(db, payment_id, psp, terminal_id);
    },

    /**
     * A paid return for a payment already ended, and what became of its sale
     * (docs/BANK.md#a-paid-return-for-an-ended-payment): one row per payment and reference, counted and
     * logged once; a sale the PSP holds (it refused the reversal) is logged as an error and listed by
     * `cli stuck`.
     */
    async recordLateReturn(record: Omit<LateReturnRecord, 'payment_status'>): Promise<void> {
      const row = await paymentById(db, record.payment_id);
      if (row === undefined || row.mode !== record.mode) {
        logger.error({ payment_id: record.payment_id }, 'late bank return: no such payment in this mode; not recorded');
        return;
      }
      const written = await recordLateReturn(db, { ...record, payment_status: row.status });
      if (!written) return;
      lateBankReturns.inc({ psp: record.psp, outcome: record.outcome });
      const fields = { payment_id: record.payment_id, mode: record.mode, psp: record.psp, outcome: record.outcome };
      if (record.outcome === 'reversal_refused')
        logger.error(fields, 'late bank return: the PSP refused to reverse the sale; money is held at the PSP');
      else logger.warn(fields, 'late bank return: a paid return came for a payment already ended');
    },

    /**
     * Whether the merchant is approved for live mode now: a live payment link's payment is verified by
     * its workflow only while it is (docs/PAYMENTS.md#payment-links). A read, answered from the record.
     */
    async merchantLiveStanding({ merchant_id }: { merchant_id: string }): Promise<{ live: boolean }> {
      const merchant = await merchantLiveMode(db, merchant_id);
      return { live: Boolean(merchant?.live_mode) };
    },

    /** Reads the payment (and the refund `refund_id`, if taken) for the refunds workflow, which alone writes a verified payment. */
    async readPaymentForRefund({
      payment_id,
      refund_id,
    }: {
      payment_id: string;
      refund_id: string;
    }): Promise<RecordedForRefund> {
      const row = await paymentById(db, payment_id);
      if (row === undefined) throw ApplicationFailure.nonRetryable(`no payment ${payment_id}`, 'payment_not_found');
      const taken = await refundOfPayment(db, refund_id, payment_id);
      return {
        payment: { ...paymentFromRow(row), metadata: {} },
        version: row.version,
        refund: taken === undefined ? null : refundFromRow(taken),
      };
    },

    /** Writes a transition and its event; a stale or repeated write changes nothing. Then starts the event's deliveries. */
    async recordTransition({ payment, version }: { payment: Payment; version: number }): Promise<void> {
      let from: string | undefined;
      const event = await db.transaction().execute(async (trx) => {
        const now = new Date();
        const locked = await lockForWrite(trx, guard, 'recordTransition', payment, version);
        from = locked?.from;
        const stored = await writePaymentVersion(trx, payment, version, now);
        if (!stored) return undefined;
        // Written before (a retry or a replay): read the record as it stands.
        const shown = locked?.shown ?? (await withMetadata(trx, payment));
        await postTransition(trx, shown, now);
        const type = paymentEventType(payment.status, payment.failure?.code);
        if (type === undefined) return null;
        return recordPaymentEvent(trx, shown, version, type, now);
      });
      if (event !== undefined) countTransition(from, payment);
      if (event === undefined) {
        // The create endpoint inserts the row before it starts the workflow; retry until it is visible.
        throw ApplicationFailure.retryable(
          `payment ${payment.id} has no row to record version ${version}`,
          'payment_row_missing',
        );
      }
      logger.info({ payment_id: payment.id, status: payment.status, version }, 'payment transition recorded');
      if (event !== null) await dispatch([event]);
    },

    /**
     * Writes a refund and, when it changes, the payment's next version, in
     * one transaction. The CHECK on payments.refunded_amount refuses any
     * write that would refund more than was paid.
     */
    async recordRefund({
      refund: asked,
      merchant_id,
      mode,
      payment,
      within_balance,
    }: RecordRefundInput): Promise<RecordedRefund> {
      let refund = asked;
      const owner = tenantOf(merchant_id, mode);
      let events: StoredEvent[];
      // Whether this write ends the refund (counted once, like transitions).
      let ends = false;
      let paymentFrom: string | undefined;
      try {
        events = await db.transaction().execute(async (trx) => {
          const at = new Date();
          await guard.read(trx, 'recordRefund', {
            payment_id: refund.payment_id,
            mode,
            merchant_id,
            amount: payment?.payment.amount,
          });
          // The refund's row locked first: its status now decides what this write moves.
          const before = await lockRefundStatus(trx, refund.id);
          if (refund.status === 'succeeded' || refund.status === 'failed') ends = before?.status !== refund.status;
          // Its amount leaves the merchant's balance with the posting `refund:<id>:pending`, once: at
          // `awaiting_payer` or `pending`, never while it waits for the operator (nothing has moved then).
          const reserving = refund.status === 'pending' || refund.status === 'awaiting_payer';
          const reserved = await hasPosting(trx, `refund:${refund.id}:pending`);
          // Live mode only: test mode moves no money, so its refunds are never held for the balance.
          if (within_balance === true && mode === 'live' && reserving && !reserved) {
            // The merchant's row locked, then its balance read, in this transaction: concurrent refunds of one
            // merchant are decided one after the other, each on what the other left.
            const balance = await lockedMerchantBalance(trx, merchant_id, mode);
            if (balance - refund.amount < 0) refund = { ...refund, status: 'awaiting_approval', held_for: 'balance' };
          }
          const recorded: StoredEvent[] = [];
          let paymentEvent: { shown: Shown; version: number; type: EventType } | undefined;
          if (payment !== null) {
            const locked = await lockForWrite(trx, guard, 'recordRefund', payment.payment, payment.version);
            paymentFrom = locked?.from;
            const stored = await writePaymentVersion(trx, payment.payment, payment.version, at);
            if (!stored)
              throw ApplicationFailure.retryable(
                `payment ${refund.payment_id} has no row for version ${payment.version}`,
                'payment_row_missing',
              );
            // payment.partially_refunded / payment.refunded; a failed refund's way back to `verified` is told by refund.failed.
            const type = payment.payment.status === 'verified' ? undefined : paymentEventType(payment.payment.status);
            if (type !== undefined)
              paymentEvent = {
                shown: locked?.shown ?? (await withMetadata(trx, payment.payment)),
                version: payment.version,
                type,
              };
          }
          await writeRefund(trx, refund, owner, at);
          const posts = refund.status === 'pending' || refund.status === 'awaiting_payer' || reserved;
          // A split payment's refund: the merchant's share first, then its beneficiaries' (docs/LEDGER.md#refunds-of-a-split-payment).
          const fromShares = !posts
            ? 0
            : refund.status === 'pending' || refund.status === 'awaiting_payer'
              ? await allocateRefundToShares(trx, refund)
              : refund.status === 'failed'
                ? await returnRefundToShares(trx, refund.id)
                : 0;
          // The payment's event after the shares took their part of the refund: its splits' `refunded` say what this refund took.
          if (paymentEvent !== undefined)
            recorded.push(
              await recordPaymentEvent(trx, paymentEvent.shown, paymentEvent.version, paymentEvent.type, at),
            );
          // A refund that never left the balance (rejected while it waited for the operator) posts nothing.
          if (posts)
            await post(trx, {
              cause: `refund:${refund.id}:${postedStatus(refund.status)}`,
              movement: REFUND_MOVEMENTS[postedStatus(refund.status)],
              merchantId: merchant_id,
              mode,
              amount: refund.amount,
              splits: fromShares,
              paymentId: refund.payment_id,
              refundId: refund.id,
              at,
            });
          // A refund's first record and its final status are events (refund.created / .succeeded / .failed),
          // in the same transaction; the steps between (approved, claimed) are not.
          const final = refund.status === 'succeeded' || refund.status === 'failed';
          if (final || before === undefined)
            recorded.push(
              await recordEvent(trx, {
                sourceKey: `refund:${refund.id}:${final ? refund.status : 'pending'}`,
                owner,
                type:
                  refund.status === 'succeeded'
                    ? 'refund.succeeded'
                    : refund.status === 'failed'
                      ? 'refund.failed'
                      : 'refund.created',
                objectId: refund.id,
                data: { refund },
                at,
              }),
            );
          return recorded;
        });
      } catch (error) {
        if (isCheckViolation(error)) {
          throw ApplicationFailure.nonRetryable(
            'the record refuses a refund of more than was paid',
            'refund_exceeds_amount',
          );
        }
        throw error;
      }
      if (ends) refundOutcomes.inc({ outcome: refund.status, mode });
      if (payment !== null) countTransition(paymentFrom, payment.payment);
      logger.info(
        { payment_id: refund.payment_id, refund_id: refund.id, status: refund.status, amount: refund.amount },
        'refund recorded',
      );
      await dispatch(events);
      return { status: refund.status, held_for: refund.held_for ?? null };
    },
  };
}

export type RecordActivities = ReturnType<typeof createRecordActivities>;
