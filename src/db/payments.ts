import { endsWithoutMoney } from '../domain/ledger.ts';
import type { Tenant } from '../domain/merchant.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db, NewPaymentRow, PaymentRow } from './database.ts';
import type { Database } from './schema.ts';
import { scopedTo } from './tenant.ts';
import { isDuplicateKey } from './errors.ts';
import { recordedChargedAmount } from '../domain/payment.ts';

/**
 * A payment row's charged amount in SQL (recordedChargedAmount in src/domain/payment.ts, for sums over
 * rows): its `charged_amount`, or amount + customer_fee on a row a replica of the previous release
 * inserted without it (docs/PAYMENTS.md#how-the-record-keeps-the-charged-sum).
 */
export const CHARGED_AMOUNT_SQL = sql<string>`COALESCE(charged_amount, amount + customer_fee)`;

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const date = (s: string | null): Date | null => (s === null ? null : new Date(s));

/** Which PSP terminal took the payment, as its resource shows it; null before its token (and on payments older than routing). */
export function pspFromRow(row: { psp: string | null; psp_terminal_id: string | null }): Payment['psp'] {
  return row.psp === null
    ? null
    : { name: row.psp as NonNullable<Payment['psp']>['name'], terminal_id: row.psp_terminal_id ?? '' };
}

/** Who may pay, as the resource shows it (masked); null where the merchant named no restriction. */
export function payerRestrictionFromRow(row: {
  allowed_cards_masked: string | null;
  national_code_masked: string | null;
}): Pick<Payment, 'allowed_cards' | 'national_code'> {
  return {
    allowed_cards: row.allowed_cards_masked === null ? null : (JSON.parse(row.allowed_cards_masked) as string[]),
    national_code: row.national_code_masked,
  };
}

/** The API shape of a stored payment. */
export function paymentFromRow(row: PaymentRow): Payment {
  return {
    id: row.id,
    status: row.status as Payment['status'],
    mode: row.mode,
    amount: Number(row.amount),
    fee: Number(row.fee),
    fee_payer: row.fee_payer as Payment['fee_payer'],
    charged_amount: recordedChargedAmount(row),
    refunded_amount: Number(row.refunded_amount),
    currency: 'IRR',
    merchant_reference: row.merchant_reference,
    tracking_code: row.tracking_code,
    reference_id: row.reference_id,
    rrn: row.rrn,
    card_pan: row.card_pan,
    description: row.description,
    callback_url: row.callback_url,
    metadata: JSON.parse(row.metadata) as Payment['metadata'],
    failure: row.failure_code === null ? null : { code: row.failure_code, message: row.failure_message ?? '' },
    created_at: row.created_at.toISOString(),
    paid_at: iso(row.paid_at),
    verified_at: iso(row.verified_at),
    verify_deadline_at: iso(row.verify_deadline_at),
    expires_at: row.expires_at.toISOString(),
    settlement_status: row.settlement_status as Payment['settlement_status'],
    psp: pspFromRow(row),
    created_via: row.created_via as Payment['created_via'],
    method: row.method as Payment['method'],
    ...payerRestrictionFromRow(row),
    payment_link: row.payment_link_id,
  };
}

/** The columns a transition may change (metadata is the merchant's, never a transition's). */
export function mutableColumns(payment: Payment) {
  return {
    status: payment.status,
    fee: payment.fee,
    refunded_amount: payment.refunded_amount,
    reference_id: payment.reference_id,
    rrn: payment.rrn,
    card_pan: payment.card_pan,
    failure_code: payment.failure?.code ?? null,
    failure_message: payment.failure?.message ?? null,
    paid_at: date(payment.paid_at),
    verified_at: date(payment.verified_at),
    verify_deadline_at: date(payment.verify_deadline_at),
    settlement_status: payment.settlement_status,
  };
}

/**
 * A new payment's row. `allowedCardHashes` are the keyed hashes of its allowed cards
 * (src/psps/card-hash.ts), given with `payment.allowed_cards` (their masks).
 */
export function rowFromNewPayment(
  payment: Payment,
  merchantId: string,
  mobile: string | null,
  protocolCurrency: string | null = null,
  allowedCardHashes: readonly string[] | null = null,
): NewPaymentRow {
  const createdAt = new Date(payment.created_at);
  return {
    id: payment.id,
    merchant_id: merchantId,
    mode: payment.mode,
    amount: payment.amount,
    currency: payment.currency,
    merchant_reference: payment.merchant_reference,
    tracking_code: payment.tracking_code,
    description: payment.description,
    mobile,
    callback_url: payment.callback_url,
    created_at: createdAt,
    expires_at: new Date(payment.expires_at),
    version: 1,
    updated_at: createdAt,
    metadata: JSON.stringify(payment.metadata),
    created_via: payment.created_via,
    method: payment.method,
    protocol_currency: protocolCurrency,
    fee_payer: payment.fee_payer,
    // The charged sum as create worked it out, and its fee, which the previous release's replicas read.
    charged_amount: payment.charged_amount,
    customer_fee: payment.charged_amount - payment.amount,
    allowed_cards_masked: payment.allowed_cards === null ? null : JSON.stringify(payment.allowed_cards),
    allowed_card_hashes: allowedCardHashes === null ? null : JSON.stringify(allowedCardHashes),
    national_code_masked: payment.national_code,
    payment_link_id: payment.payment_link,
    ...mutableColumns(payment),
  };
}

/**
 * The settlement status a write of a payment in `status` leaves on a row that
 * has `stored`: it is the record's, not the workflow's. Settlement marks a
 * payment `settled`, and a payment that ends without money is
 * `not_applicable`; otherwise a transition keeps what is stored.
 */
export function settlementStatusAfter(status: Payment['status'], stored: string): string {
  return endsWithoutMoney(status) ? 'not_applicable' : stored;
}

/**
 * Writes a payment's state at `version`. Only a newer version changes the
 * row, so a retried or replayed write of an older state is a no-op.
 * Answers whether the row is now at (or past) that version.
 */
export async function writePaymentVersion(db: Db, payment: Payment, version: number, at: Date): Promise<boolean> {
  // settlement_status as settlementStatusAfter says: only a payment ending without money changes it.
  const { settlement_status: _fromWorkflow, ...columns } = mutableColumns(payment);
  const result = await db
    .updateTable('payments')
    .set({
      ...columns,
      ...(endsWithoutMoney(payment.status) ? { settlement_status: 'not_applicable' } : {}),
      version,
      updated_at: at,
    })
    .where('id', '=', payment.id)
    .where('version', '<', version)
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return true;
  const row = await db.selectFrom('payments').select('version').where('id', '=', payment.id).executeTakeFirst();
  return row !== undefined && row.version >= version;
}

/** The tenant's payment with this id, if it has one. */
export async function findPayment(db: Db, id: string, tenant: Tenant): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).where(scopedTo(tenant)).executeTakeFirst();
}

/**
 * The payments a Zibal trackId names: the one whose drawn trackId (sixteen digits) it is; or, for
 * twelve digits, a payment Zibal's /v1/request made before trackIds were drawn (migration 0042 copied
 * their tracking code), or during an upgrade by an API of the version before, which drew none. A
 * payment made any other way is never named, so its tracking code leads nowhere.
 */
export function zibalTrackIdIs(trackId: string) {
  return (eb: ExpressionBuilder<Database, 'payments'>) =>
    trackId.length !== 12
      ? eb('zibal_track_id', '=', trackId)
      : eb.and([
          eb('tracking_code', '=', trackId),
          eb('created_via', '=', 'zibal'),
          eb.or([eb('zibal_track_id', 'is', null), eb('zibal_track_id', '=', trackId)]),
        ]);
}

/** The payment Zibal's /v1/request made with this trackId, whoever's it is: for the customer's step that names only it (Zibal's /start/{trackId}). */
export async function paymentIdByZibalTrackId(db: Db, trackId: string): Promise<string | undefined> {
  return (await db.selectFrom('payments').select('id').where(zibalTrackIdIs(trackId)).executeTakeFirst())?.id;
}

/** Stores a Zibal payment's trackId; false when another payment has it already (draw again). */
export async function setZibalTrackId(db: Db, paymentId: string, trackId: string): Promise<boolean> {
  try {
    await db.updateTable('payments').set({ zibal_track_id: trackId }).where('id', '=', paymentId).execute();
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/**
 * Claims the one answer "captured" (ZarinPal's and Zibal's 100) among the verifies of a payment on
 * those protocols: true for exactly one caller ever, however many verify at the same instant; the
 * others answer "verified before" (101, Zibal's 201). One conditional UPDATE: the row lock decides.
 */
export async function claimCompatVerifyAnswer(db: Db, paymentId: string): Promise<boolean> {
  const claimed = await db
    .updateTable('payments')
    .set({ compat_verify_answered_at: new Date() })
    .where('id', '=', paymentId)
    .where('compat_verify_answered_at', 'is', null)
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

/**
 * A payment's fields fixed at its create that its record alone is sure to hold: the merchant's metadata
 * (no workflow carries it), and how it was created and paid, who pays the fee with what the customer is charged,
 * who may pay and the payment link, which a workflow started before those columns existed does not hold.
 */
export type RecordedFields = Pick<
  Payment,
  | 'metadata'
  | 'created_via'
  | 'method'
  | 'fee_payer'
  | 'charged_amount'
  | 'allowed_cards'
  | 'national_code'
  | 'payment_link'
>;

/**
 * A workflow's payment (the state a transition leaves) written over its record: the payment as the
 * API and events show it, its RecordedFields the record's (`recorded`), whatever the workflow holds.
 */
export function overRecord(payment: Payment, recorded: RecordedFields): Payment {
  return {
    ...payment,
    metadata: recorded.metadata,
    created_via: recorded.created_via,
    method: recorded.method,
    fee_payer: recorded.fee_payer,
    charged_amount: recorded.charged_amount,
    allowed_cards: recorded.allowed_cards,
    national_code: recorded.national_code,
    payment_link: recorded.payment_link,
  };
}

/**
 * The record's columns a payment's resource takes from the record besides the workflow's state:
 * RecordedFields', its settlement status and PSP, and its merchant (whose the event and the posting are).
 */
const RECORD_COLUMNS = [
  'merchant_id',
  'metadata',
  'settlement_status',
  'psp',
  'psp_terminal_id',
  'created_via',
  'method',
  'amount',
  'fee_payer',
  'customer_fee',
  'charged_amount',
  'allowed_cards_masked',
  'national_code_masked',
  'payment_link_id',
] as const;

/** A payment row's RECORD_COLUMNS. */
export type RecordColumns = Pick<PaymentRow, (typeof RECORD_COLUMNS)[number]>;

/** RecordedFields as the record's columns hold them (read as paymentFromRow reads them). */
export function recordedFieldsFromRow(row: RecordColumns): RecordedFields {
  return {
    metadata: JSON.parse(row.metadata) as Payment['metadata'],
    created_via: row.created_via as Payment['created_via'],
    method: row.method as Payment['method'],
    fee_payer: row.fee_payer as Payment['fee_payer'],
    charged_amount: recordedChargedAmount(row),
    ...payerRestrictionFromRow(row),
    payment_link: row.payment_link_id,
  };
}

/** The payment's RECORD_COLUMNS as the row stands (in `db`'s transaction, after any write of it there); throws when there is no row. */
export function recordColumnsOf(db: Db, paymentId: string): Promise<RecordColumns> {
  return db.selectFrom('payments').select(RECORD_COLUMNS).where('id', '=', paymentId).executeTakeFirstOrThrow();
}

/** The payment's mode and RECORD_COLUMNS, unlocked (a claim's check and the payment as events show it, in one read); undefined: no row. */
export function paymentRecordOf(db: Db, paymentId: string) {
  return db
    .selectFrom('payments')
    .select(['mode', ...RECORD_COLUMNS])
    .where('id', '=', paymentId)
    .executeTakeFirst();
}

/** Locks the payment's row (FOR UPDATE) and reads its status, version, mode and RECORD_COLUMNS; undefined: no row yet. */
export function lockPaymentRecord(db: Db, paymentId: string) {
  return db
    .selectFrom('payments')
    .select(['status', 'version', 'mode', ...RECORD_COLUMNS])
    .where('id', '=', paymentId)
    .forUpdate()
    .executeTakeFirst();
}

/** The payment's row, whoever's it is (a workflow's read: its id is trusted). */
export function paymentById(db: Db, paymentId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirst();
}

/** The payment's row, whoever's it is; throws when there is none. */
export function paymentByIdOrThrow(db: Db, paymentId: string): Promise<PaymentRow> {
  return db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow();
}

/** The payment's status alone; undefined: no such payment. */
export function paymentStatusById(db: Db, paymentId: string) {
  return db.selectFrom('payments').select('status').where('id', '=', paymentId).executeTakeFirst();
}

/** What a workflow's claim on a payment is checked against (activities/payment-record.ts): its mode, amounts, merchant, PSP and allowed cards. */
export function paymentIdentity(db: Db, paymentId: string) {
  return db
    .selectFrom('payments')
    .select(['mode', 'amount', 'customer_fee', 'charged_amount', 'merchant_id', 'psp', 'allowed_card_hashes'])
    .where('id', '=', paymentId)
    .executeTakeFirst();
}

/** Records the PSP terminal that gave the payment its token; only while the payment is `created` (the same values again change nothing). */
export async function setPaymentPspWhileCreated(
  db: Db,
  paymentId: string,
  psp: string,
  terminalId: string,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ psp, psp_terminal_id: terminalId })
    .where('id', '=', paymentId)
    .where('status', '=', 'created')
    .execute();
}
