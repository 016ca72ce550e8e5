/**
 * What the API does with refunds. The refund rules are checked on the record
 * here and again by the workflow that takes the refund, which serialises the
 * payment's refunds, so they never add up to more than was paid; this module
 * sends the request on and reads the records.
 */
import type { Db } from '../db/database.ts';
import { findRefund, paymentRefundsPage, refundFromRow, refundsPage } from '../db/refunds.ts';
import { isValidSheba, normalizeSheba } from '../domain/business-documents.ts';
import type { Tenant } from '../domain/merchant.ts';
import { recordedRefundRefusal } from '../domain/refund.ts';
import type { CreateRefundRequest, ListAllRefundsQuery, ListRefundsQuery, Refund } from '../domain/refund-schemas.ts';
import { DomainError } from '../errors.ts';
import { idempotent, type IdempotentResult } from '../payments/idempotency.ts';
import { getPayment, type PaymentServiceDeps } from '../payments/service.ts';
import { takeRefund } from '../temporal/refunds.ts';
import { shownRefund } from './claims.ts';

/**
 * Creates a refund. It answers 201 as soon as the workflow has recorded the
 * refund `pending` (its amount reserved), not after the bank: the bank's
 * answer may take as long as its outages last, and an HTTP request must not.
 */
export async function createRefund(
  { db, temporal, config }: PaymentServiceDeps,
  auth: Tenant,
  paymentId: string,
  request: CreateRefundRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentResult> {
  await getPayment(db, auth, paymentId); // another merchant's or mode's payment: 404, nothing written
  const scope = { owner: auth, operation: 'create_refund' };
  // The payment is part of what the key stands for: the same key on another payment is another request.
  const fingerprint = { payment_id: paymentId, ...request };
  return idempotent(db, scope, idempotencyKey, fingerprint, config.IDEMPOTENCY_TTL_SECONDS, async (refundId) => {
    const taken = await findRefund(db, refundId, auth);
    // A final refund is answered from the record. A pending one is sent on again: if the run that
    // recorded it ended before paying it out (a worker killed in between), the next run finishes it.
    if (taken !== undefined && taken.status !== 'pending')
      return { status: 201, body: { refund: shownRefund(config, refundFromRow(taken)) } };

    const amount = request.amount ?? null;
    const payment = await getPayment(db, auth, paymentId);
    if (taken === undefined) {
      // Refusals the record already fixes (the window, the amount left) are answered without a workflow round trip.
      const refusal = recordedRefundRefusal(payment, amount, config.REFUND_WINDOW_SECONDS * 1000, Date.now());
      if (refusal !== undefined) throw new DomainError(refusal.code, refusal.message);
    }

    // The IBAN is checked here, where a refusal writes nothing. A typed IBAN is never paid on a key's word:
    // the workflow holds such a refund for the operator's approval (docs/PAYMENTS.md#refund-states).
    const destination =
      request.destination_iban === undefined ? {} : { destination_iban: refundIban(request.destination_iban) };
    const refund = await takeRefund(temporal, config, auth.merchant.id, payment, {
      refund_id: refundId,
      amount,
      reason: request.reason ?? null,
      ...destination,
    });
    return { status: 201, body: { refund: shownRefund(config, refund) } };
  });
}

/** The IBAN a refund is to be paid to, as given: a Sheba IBAN whose ISO 13616 check holds, as the settlement IBAN must. */
function refundIban(given: string): string {
  const iban = normalizeSheba(given);
  if (!isValidSheba(iban)) {
    throw new DomainError(
      'validation_failed',
      'The request body is invalid: destination_iban is not a valid Sheba IBAN (IR and 24 digits whose check digits hold).',
      [{ path: 'destination_iban', message: 'is not a valid Sheba IBAN' }],
    );
  }
  return iban;
}

export async function getRefund(db: Db, auth: Tenant, id: string, config: ClaimLinkConfig): Promise<Refund> {
  const row = await findRefund(db, id, auth);
  if (row === undefined) throw new DomainError('refund_not_found', `No refund ${id}.`);
  return shownRefund(config, refundFromRow(row));
}

/** What a refund's claim link is made of. */
type ClaimLinkConfig = Pick<PaymentServiceDeps['config'], 'CARD_HASH_KEY' | 'PUBLIC_BASE_URL'>;

/**
 * All the merchant's refunds, newest first, paged like payments, with the
 * filters of the query combined (indexes: refunds_by_merchant,
 * refunds_by_status, refunds_by_payment).
 */
export async function listAllRefunds(db: Db, tenant: Tenant, query: ListAllRefundsQuery, config: ClaimLinkConfig) {
  const page = await refundsPage(db, tenant, query);
  return { ...page, data: page.data.map((r) => shownRefund(config, r)) };
}

/** A payment's refunds, newest first, paged like payments. */
export async function listRefunds(
  db: Db,
  auth: Tenant,
  paymentId: string,
  query: ListRefundsQuery,
  config: ClaimLinkConfig,
) {
  await getPayment(db, auth, paymentId);
  const page = await paymentRefundsPage(db, auth, paymentId, query);
  return { ...page, data: page.data.map((r) => shownRefund(config, r)) };
}
