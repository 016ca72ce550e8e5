/** Reading a merchant's payments: the list with its filters, and the merchant's metadata change. */
import type { Db } from '../db/database.ts';
import { lockTenantPayment, paymentsPage, setPaymentMetadata } from '../db/payment-listing.ts';
import { paymentFromRow } from '../db/payments.ts';
import type { AuthState, Tenant } from '../domain/merchant.ts';
import { mergeMetadata } from '../domain/payment.ts';
import {
  METADATA_LIMITS,
  type ListPaymentsQuery,
  type Metadata,
  type Payment,
  type UpdatePaymentRequest,
} from '../domain/payment-schemas.ts';
import { DomainError } from '../errors.ts';
import { pageWithSplits } from './splits.ts';

/**
 * Newest first, with the filters of the query, all combined (docs/API.md#pagination),
 * a split payment with its `splits`.
 */
export async function listPayments(db: Db, tenant: Tenant, query: ListPaymentsQuery) {
  const page = await paymentsPage(db, tenant, query);
  // Each split payment with its shares, as GET /payments/{id} shows it: one query for the page.
  return { ...page, data: await pageWithSplits(db, page.data) };
}

/** Merges metadata into the payment's (docs/PAYMENTS.md#metadata): a null value removes its key. */
export async function updatePayment(
  db: Db,
  auth: AuthState,
  id: string,
  request: UpdatePaymentRequest,
): Promise<Payment> {
  return db.transaction().execute(async (trx) => {
    const row = await lockTenantPayment(trx, auth, id);
    if (row === undefined) throw new DomainError('payment_not_found', `No payment ${id}.`);
    const merged = mergeMetadata(JSON.parse(row.metadata) as Metadata, request.metadata);
    if (Object.keys(merged).length > METADATA_LIMITS.keys) {
      throw new DomainError(
        'validation_failed',
        `A payment has at most ${METADATA_LIMITS.keys} metadata keys; remove some first.`,
        [{ path: 'metadata', message: `would have more than ${METADATA_LIMITS.keys} keys` }],
      );
    }
    const metadata = JSON.stringify(merged);
    await setPaymentMetadata(trx, id, metadata);
    return paymentFromRow({ ...row, metadata });
  });
}
