import { bankAdmin, bankOperations, simulatorUrl, type BankOperation } from './bank.ts';
import { client, waitFor } from './http.ts';
import { shebaFor } from './sheba.ts';
import { paidPayment } from './payments.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import type { Client } from '@temporalio/client';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import { decideHeldRefund } from '../../src/refunds/approvals.ts';
import { getHarness } from './harness.ts';

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

/** What the operator's decision goes through: the main suite's harness, or a fault or cluster suite's own stack. */
export interface OperatorServices {
  db: Db;
  temporal: Client;
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'REFUND_WINDOW_SECONDS'>;
}

async function operatorServices(services?: OperatorServices): Promise<OperatorServices> {
  if (services !== undefined) return services;
  const h = await getHarness();
  return { db: h.db, temporal: h.temporal.client, config: h.config };
}

/**
 * A refund to an IBAN a person typed is held for the operator (docs/PAYMENTS.md#refund-states): asserts
 * that `refund`, as the API answered it, is so held (`awaiting_approval`, held_for `typed_iban`, an
 * `iban_payout` to its `destination_iban`), then approves it as `cli refunds approve --id` does
 * (decideHeldRefund) and answers the refund as approved (`pending`, or already final).
 */
export async function approveTypedIban(refund: Refund, services?: OperatorServices): Promise<Refund> {
  if (refund.status !== 'awaiting_approval' || refund.held_for !== 'typed_iban' || refund.method !== 'iban_payout')
    throw new Error(
      `refund ${refund.id} is ${refund.status} (${refund.method}, held_for ${refund.held_for}), not held for its typed IBAN`,
    );
  const s = await operatorServices(services);
  const approved = await decideHeldRefund(s.db, s.temporal, s.config, refund.id, { decision: 'approve' });
  if (approved.status === 'awaiting_approval') throw new Error(`refund ${refund.id} is still held after its approval`);
  return approved;
}

/**
 * For a refund whose method the test does not fix (a typed IBAN is used only when neither the PSP's refund
 * nor its reversal can be): approves it when it is held for its typed IBAN (approveTypedIban), and
 * answers it unchanged otherwise. Never approves a refund held for the balance.
 */
export async function approvedIfTypedIban(refund: Refund, services?: OperatorServices): Promise<Refund> {
  if (refund.status === 'awaiting_approval' && refund.held_for === 'typed_iban')
    return approveTypedIban(refund, services);
  return refund;
}
