/**
 * The operator's decisions on refunds held for approval (docs/PAYMENTS.md#refund-states): a refund to an
 * IBAN a person typed, or one the merchant's balance does not cover, is paid only once the operator
 * approves it (`refunds approve --id`); rejecting it (`refunds reject --id --reason`) fails it and its
 * amount is refundable again. The list shows each typed IBAN's owner as the identity provider names it,
 * for the operator to compare with the payment's customer.
 */
import type { Client } from '@temporalio/client';
import { IdentityRefusalError, IdentityUnavailableError } from '../adapters/identity/identity-provider.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { paymentById, paymentFromRow } from '../db/payments.ts';
import { refundsAwaitingApproval, refundWithMerchant } from '../db/refunds.ts';
import type { Refund } from '../domain/refund-schemas.ts';
import { DomainError } from '../errors.ts';
import { decideRefund } from '../temporal/refunds.ts';
import type { IdentityProviders } from './claims.ts';

/** The most held refunds one listing shows, oldest first. */
const APPROVALS_SHOWN = 200;

/** Every refund waiting for the operator's approval, with its typed IBAN's owner (or why it is not known). */
export async function refundApprovals(db: Db, identity: IdentityProviders) {
  const held = await refundsAwaitingApproval(db, APPROVALS_SHOWN);
  const approvals = [];
  for (const r of held) {
    let ibanOwner: string | null = null;
    let ibanOwnerNote: string | null = null;
    if (r.destination_iban !== null) {
      const provider = identity[r.mode];
      if (provider === undefined) ibanOwnerNote = `no identity provider configured for ${r.mode} mode`;
      else {
        try {
          const account = await provider.ibanOwner(r.destination_iban);
          ibanOwner = account.owner_name;
          if (account.active === false) ibanOwnerNote = 'the provider says the account is not active';
        } catch (error) {
          if (error instanceof IdentityRefusalError) ibanOwnerNote = `refused by the provider: ${error.code}`;
          else if (error instanceof IdentityUnavailableError) ibanOwnerNote = 'the identity provider did not answer';
          else throw error;
        }
      }
    }
    approvals.push({
      id: r.id,
      payment_id: r.payment_id,
      merchant_id: r.merchant_id,
      merchant_name: r.merchant_name,
      mode: r.mode,
      amount: Number(r.amount),
      method: r.method,
      held_for: r.held_for,
      destination_iban: r.destination_iban,
      iban_owner: ibanOwner,
      iban_owner_note: ibanOwnerNote,
      reason: r.reason,
      created_at: r.created_at.toISOString(),
    });
  }
  return { count: approvals.length, approvals };
}

/** Sends the operator's decision on refund `refundId` to its payment's refunds workflow. */
export async function decideHeldRefund(
  db: Db,
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'REFUND_WINDOW_SECONDS'>,
  refundId: string,
  decision: { decision: 'approve' } | { decision: 'reject'; reason: string },
): Promise<Refund> {
  const row = await refundWithMerchant(db, refundId);
  if (row === undefined) throw new DomainError('refund_not_found', `No refund ${refundId}.`);
  if (row.status !== 'awaiting_approval' && decision.decision === 'approve' && row.held_for === null)
    throw new DomainError('refund_not_awaiting', `The refund is ${row.status}; it does not wait for approval.`);
  const payment = await paymentById(db, row.payment_id);
  if (payment === undefined) throw new DomainError('payment_not_found', `No payment ${row.payment_id}.`);
  return decideRefund(temporal, config, row.merchant_id, paymentFromRow(payment), { refund_id: refundId, ...decision });
}
