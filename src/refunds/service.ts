/**
 * What the API does with refunds. The payment's workflow decides whether a
 * refund may be taken and serialises refunds, so they never add up to more
 * than was paid; this module forwards the request and reads the records.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../db/database.ts';
import { findRefund, refundFromRow } from '../db/refunds.ts';
import { refundRefusal } from '../domain/refund.ts';
import { ApiError } from '../api/errors.ts';
import type { AuthState } from '../api/middleware/auth.ts';
import type { CreateRefundRequest, ListRefundsQuery, Refund } from '../api/refund-schemas.ts';
import { temporalCall } from '../api/dependencies.ts';
import { afterCursor, pageOf, rowCursor } from '../api/pagination.ts';
import { getPayment, refusalError, type PaymentServiceDeps } from '../payments/service.ts';
import { idempotent, type IdempotentResult } from '../payments/idempotency.ts';
import { paymentWorkflowId, refundUpdate, refundUpdateId } from '../../workflows/definitions.ts';

const scopeOf = (auth: AuthState) => ({ merchantId: auth.merchant.id, mode: auth.mode });

/**
 * Creates a refund. It answers 201 as soon as the workflow has recorded the
 * refund `pending` (its amount reserved), not after the bank: the bank's
 * answer may take as long as its outages last, and an HTTP request must not.
 */
export async function createRefund(
  { db, temporal, config }: PaymentServiceDeps,
  auth: AuthState,
  paymentId: string,
  request: CreateRefundRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentResult> {
  await getPayment(db, auth, paymentId); // another merchant's or mode's payment: 404, nothing written
  const scope = { ...scopeOf(auth), operation: 'create_refund' };
  // The payment is part of what the key stands for: the same key on another payment is another request.
  const fingerprint = { payment_id: paymentId, ...request };
  return idempotent(db, scope, idempotencyKey, fingerprint, config.IDEMPOTENCY_TTL_SECONDS, async (refundId) => {
    const taken = await findRefund(db, refundId, scopeOf(auth));
    if (taken !== undefined) return { status: 201, body: { refund: refundFromRow(taken) } };

    const amount = request.amount ?? null;
    // Refusals the record already fixes are answered without a workflow round trip.
    const refusal = refundRefusal(await getPayment(db, auth, paymentId), amount, true);
    if (refusal !== undefined) throw refusalError(refusal.code, refusal.message);

    const handle = temporal.workflow.getHandle(paymentWorkflowId(paymentId));
    try {
      const refund = await temporalCall(temporal, () =>
        handle.executeUpdate(refundUpdate, {
          args: [{ refund_id: refundId, amount, reason: request.reason ?? null }],
          // A retried request is the same update: Temporal answers it once.
          updateId: refundUpdateId(refundId),
        }),
      );
      return { status: 201, body: { refund } };
    } catch (error) {
      const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
      if (cause instanceof ApplicationFailure && typeof cause.type === 'string') throw refusalError(cause.type, cause.message);
      if (await workflowClosed(temporal, handle)) {
        throw new ApiError('payment_not_refundable', "The payment's refund window has closed.");
      }
      throw error;
    }
  });
}

/** The workflow ends when the refund window closes; a closed workflow takes no refunds. */
async function workflowClosed(temporal: Client, handle: WorkflowHandle): Promise<boolean> {
  try {
    const description = await temporalCall(temporal, () => handle.describe());
    return description.status.name !== 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return true;
    throw error;
  }
}

export async function getRefund(db: Db, auth: AuthState, id: string): Promise<Refund> {
  const row = await findRefund(db, id, scopeOf(auth));
  if (row === undefined) throw new ApiError('refund_not_found', `No refund ${id}.`);
  return refundFromRow(row);
}

/** A payment's refunds, newest first, paged like payments. */
export async function listRefunds(db: Db, auth: AuthState, paymentId: string, query: ListRefundsQuery) {
  await getPayment(db, auth, paymentId);
  const limit = query.limit ?? 20;
  let q = db
    .selectFrom('refunds')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .where('merchant_id', '=', auth.merchant.id)
    .where('mode', '=', auth.mode);
  if (query.cursor !== undefined) q = q.where(afterCursor(query.cursor));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  return pageOf(rows, limit, refundFromRow, rowCursor);
}
