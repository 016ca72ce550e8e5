import { bankAdmin, bankOperations, simulatorUrl, type BankOperation } from './bank.ts';
import { client, waitFor } from './http.ts';
import { shebaFor } from './sheba.ts';
import { paidPayment } from './payments.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

/** What the refund endpoints answer. */
export interface RefundBody {
  refund: Refund;
}

/** A payment the customer paid and the merchant verified: the one kind that can be refunded. */
export async function verifiedPayment(
  baseUrl: string,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<Payment> {
  const paid = await paidPayment(baseUrl, key, overrides);
  const res = await client(baseUrl, key).post<{ payment: Payment }>(`/payments/${paid.id}/verify`, {
    amount: paid.amount,
  });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${res.text}`);
  return res.body.payment;
}

export async function waitForRefund(
  baseUrl: string,
  key: string,
  refundId: string,
  status: Refund['status'],
): Promise<Refund> {
  return waitFor(`refund ${refundId} to be ${status}`, async () => {
    const res = await client(baseUrl, key).get<{ refund: Refund }>(`/refunds/${refundId}`);
    return res.body.refund?.status === status ? res.body.refund : undefined;
  });
}

/**
 * The customer's Sheba IBAN the tests' merchants give with their refunds: test mode's PSP is SEP, which
 * has no refund operation, so a refund that is not the whole payment within SEP's reversal window is
 * paid to it by transfer (docs/PAYMENTS.md#how-a-refund-is-paid-out).
 */
export const REFUND_IBAN = shebaFor('7700000000000000000001');

/**
 * What the bank (the suite's simulator) did to pay a payment's refunds back, whichever way each went:
 * the PSP's refund operations, its reversal of the whole payment, and the transfers to the IBAN a
 * refund named (their `operation_key` the transfer's key, `refund-payout:<refund id>`).
 */
export async function refundsAtBank(paymentId: string, base = simulatorUrl()): Promise<BankOperation[]> {
  const atPsp = (await bankOperations(paymentId)).filter((op) => op.kind === 'refund' || op.kind === 'reverse');
  const { transfers } = await bankAdmin<{ transfers: { transfer_id: string; amount: number; description: string }[] }>(
    '/admin/transfers',
    base,
  );
  const paid = transfers
    .filter((t) => t.transfer_id.startsWith('refund-payout:') && t.description.endsWith(`of payment ${paymentId}`))
    .map((t) => ({ kind: 'refund' as const, amount: Number(t.amount), operation_key: t.transfer_id }));
  return [...atPsp, ...paid];
}
