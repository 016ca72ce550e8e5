/** The merchant's cancel of a created payment and reverse of a paid, unverified one. */
import type { AuthState } from '../domain/merchant.ts';
import { cancelRefusal, canceledByMerchant, reverseRefusal } from '../domain/payment.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { cancelUpdate, reverseUpdate } from '../domain/payment-workflow.ts';
import { DomainError } from '../errors.ts';
import { changePayment, type PaymentServiceDeps } from './payment-calls.ts';

/** Cancel (docs/PAYMENTS.md#cancel-and-reverse): only a created payment; a repeat answers the same. */
export function cancelPayment(deps: PaymentServiceDeps, auth: AuthState, id: string): Promise<Payment> {
  return changePayment(deps, auth, id, cancelUpdate, [], (p) => {
    const refusal = cancelRefusal(p);
    if (refusal !== undefined) throw new DomainError(refusal.code, refusal.message);
    return canceledByMerchant(p) ? p : undefined;
  });
}

/** Reverse now (docs/PAYMENTS.md#cancel-and-reverse): only a paid, unverified payment; a repeat answers the same. */
export function reversePayment(deps: PaymentServiceDeps, auth: AuthState, id: string): Promise<Payment> {
  return changePayment(deps, auth, id, reverseUpdate, [], (p) => {
    const refusal = reverseRefusal(p);
    if (refusal !== undefined) throw new DomainError(refusal.code, refusal.message);
    return p.status === 'reversed' ? p : undefined;
  });
}
