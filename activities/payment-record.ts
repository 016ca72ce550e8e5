/**
 * The payment record against the workflow that acts on it. A workflow's
 * input is not proof of anything: whoever reaches Temporal can terminate a
 * payment's workflow and start another with the same id and an input of
 * their choosing (a live payment as `test`, another amount, another
 * merchant). The record, written by the API at create, is the truth: every
 * record write and bank call first checks that the payment it names has, in
 * MySQL, the mode, merchant and amount the workflow claims, and refuses
 * otherwise with a failure that is never retried into success, logged and
 * counted for the alert (docs/SECURITY.md, docs/OPERATIONS.md).
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../src/db/database.ts';
import { paymentIdentity } from '../src/db/payments.ts';
import type { Logger } from '../src/logger.ts';
import { recordMismatchRefusals } from '../src/observability/metrics.ts';
import { recordedChargedAmount } from '../src/domain/payment.ts';

/** What an activity's caller says about the payment it acts on; each field given must be the record's. */
export interface PaymentClaim {
  payment_id: string;
  mode: string;
  amount?: number;
  /** What the bank charges the customer (docs/PAYMENTS.md#who-pays-the-fee): the record's charged sum (recordedChargedAmount). */
  charged_amount?: number;
  merchant_id?: string;
  /** The PSP the workflow means to call; checked only once the record names one (it is then the record's). */
  psp?: string;
}

/** The columns of a payment no transition ever changes: what a claim is checked against. */
export interface RecordedIdentity {
  mode: 'test' | 'live';
  amount: number | string | bigint;
  /** The fee a customer-pays payment adds to its amount (absent where a caller did not read it: a charged_amount claim is then refused). */
  customer_fee?: number | string | bigint;
  /** The charged sum as recorded (null on a row the previous release inserted; absent as customer_fee is). */
  charged_amount?: number | string | bigint | null;
  merchant_id: string;
  /** The PSP that gave the payment its token (null: none yet, or a payment older than routing: SEP). */
  psp?: string | null;
  /** The keyed hashes of the cards that alone may pay it, a JSON array (null: any card). */
  allowed_card_hashes?: string | null;
}

export const RECORD_MISMATCH = 'record_mismatch';

/** The names of the claimed fields that differ from the record (none: the claim holds). */
function differences(claim: PaymentClaim, row: RecordedIdentity | undefined): string[] {
  if (row === undefined) return ['payment'];
  const differ: string[] = [];
  if (claim.mode !== row.mode) differ.push('mode');
  if (claim.amount !== undefined && claim.amount !== Number(row.amount)) differ.push('amount');
  if (
    claim.charged_amount !== undefined &&
    (row.customer_fee === undefined ||
      row.charged_amount === undefined ||
      claim.charged_amount !==
        recordedChargedAmount({ ...row, customer_fee: row.customer_fee, charged_amount: row.charged_amount }))
  )
    differ.push('charged amount');
  if (claim.merchant_id !== undefined && claim.merchant_id !== row.merchant_id) differ.push('merchant');
  // After the redirect the payment never moves: a bank call for another PSP than the one that took it is refused.
  if (claim.psp !== undefined && row.psp !== undefined && row.psp !== null && claim.psp !== row.psp) differ.push('psp');
  return differ;
}

export function paymentRecordGuard(logger: Logger) {
  /** Throws the non-retryable `record_mismatch` unless `row` (the record, undefined: none) is what `claim` says. */
  function check<R extends RecordedIdentity>(activity: string, claim: PaymentClaim, row: R | undefined): R {
    const differ = differences(claim, row);
    if (row !== undefined && differ.length === 0) return row;
    recordMismatchRefusals.inc({ activity });
    // The field names only: the values are the record's and the forger's, not the log's business.
    logger.error(
      { payment_id: claim.payment_id, activity, differ },
      'workflow input differs from the payment record: refused',
    );
    throw ApplicationFailure.nonRetryable(
      `payment ${claim.payment_id}: the workflow's ${differ.join(', ')} differ from the record; refused`,
      RECORD_MISMATCH,
    );
  }

  return {
    check,
    /** Reads the payment's identity and checks `claim` against it (see check); answers the record's. */
    async read(
      db: Db,
      activity: string,
      claim: PaymentClaim,
    ): Promise<RecordedIdentity & Required<Pick<RecordedIdentity, 'customer_fee' | 'charged_amount'>>> {
      const row = await paymentIdentity(db, claim.payment_id);
      return check(activity, claim, row);
    },
  };
}

export type PaymentRecordGuard = ReturnType<typeof paymentRecordGuard>;
