/**
 * How the payment and refunds workflows fail a step: a domain rule's refusal
 * as an Update's failure (the API answers it with the code's status,
 * src/errors.ts), and a transition TRANSITIONS does not allow, which is a bug
 * in the caller, so the step fails rather than record it.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { canTransition } from '../src/domain/payment.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';

export const refusalFailure = (refusal: { code: string; message: string }) =>
  ApplicationFailure.create({ type: refusal.code, message: refusal.message, nonRetryable: true });

export function checkTransition(from: Payment, next: Payment): void {
  if (!canTransition(from.status, next.status)) {
    throw ApplicationFailure.nonRetryable(`illegal transition ${from.status} -> ${next.status}`, 'illegal_transition');
  }
}
