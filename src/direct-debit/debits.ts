/**
 * A debit's admission against its mandate (docs/SUBSCRIPTIONS.md#limits): refused before the
 * provider is asked, with the documented error shape, when the mandate is not active or a limit
 * would be crossed; one debit per mandate and idempotency key. The decision is the database's
 * (src/db/mandates.ts): this module only turns it into the API's answers.
 */
import { randomUUID } from 'node:crypto';
import type { Db, NewPaymentRow } from '../db/database.ts';
import { releaseMandateDebit, reserveMandateDebit } from '../db/mandates.ts';
import type { MandateDebitRow } from '../db/schema.ts';
import type { Tenant } from '../domain/merchant.ts';
import { DomainError } from '../errors.ts';

export interface DebitAsked {
  mandateId: string;
  amount: number;
  idempotencyKey: string;
  merchantReference: string;
  /** The debit's payment row for its id, inserted with the admission in one transaction (none: the debit alone). */
  paymentRow?: (paymentId: string) => NewPaymentRow;
}

/** The admitted debit (`replayed`: the key's first debit, admitted before), or a DomainError. */
export async function admitDebit(
  db: Db,
  tenant: Tenant,
  asked: DebitAsked,
  at = new Date(),
): Promise<{ debit: MandateDebitRow; replayed: boolean }> {
  const paymentId = randomUUID();
  const result = await reserveMandateDebit(db, {
    mandateId: asked.mandateId,
    tenant,
    idempotencyKey: asked.idempotencyKey,
    amount: asked.amount,
    merchantReference: asked.merchantReference,
    debitId: randomUUID(),
    paymentId,
    at,
    ...(asked.paymentRow === undefined ? {} : { payment: asked.paymentRow(paymentId) }),
  });
  switch (result.kind) {
    case 'not_found':
      throw new DomainError('mandate_not_found', 'no such mandate');
    case 'refused':
      throw new DomainError(
        result.refusal.code,
        result.refusal.message,
        result.refusal.code === 'mandate_limit_exceeded'
          ? [{ path: result.refusal.limit === 'amount' ? '/amount' : '/mandate', message: result.refusal.limit }]
          : undefined,
      );
    case 'replayed':
      // One key, one debit: the same key with another amount is another request, refused as such.
      if (Number(result.debit.amount) !== asked.amount || result.debit.merchant_reference !== asked.merchantReference)
        throw new DomainError('idempotency_key_reused', 'this Idempotency-Key was used for another debit');
      return { debit: result.debit, replayed: true };
    case 'reserved':
      return { debit: result.debit, replayed: false };
  }
}

/** Gives a debit's counts back after the provider refused it. */
export function releaseDebit(db: Db, debitId: string): Promise<boolean> {
  return releaseMandateDebit(db, debitId);
}
