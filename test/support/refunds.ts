import { client, waitFor } from './http.ts';
import { paidPayment } from './payments.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

/** What the refund endpoints answer. */
export interface RefundBody {
  refund: Refund;
}

/** A payment the customer paid and the merchant verified: the one kind that can be refunded. */
export async function verifiedPayment(baseUrl: string, key: string, overrides: Record<string, unknown> = {}): Promise<Payment> {
  const paid = await paidPayment(baseUrl, key, overrides);
  const res = await client(baseUrl, key).post<{ payment: Payment }>(`/payments/${paid.id}/verify`, { amount: paid.amount });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${res.text}`);
  return res.body.payment;
}

export async function waitForRefund(baseUrl: string, key: string, refundId: string, status: Refund['status']): Promise<Refund> {
  return waitFor(`refund ${refundId} to be ${status}`, async () => {
    const res = await client(baseUrl, key).get<{ refund: Refund }>(`/refunds/${refundId}`);
    return res.body.refund?.status === status ? res.body.refund : undefined;
  });
}
