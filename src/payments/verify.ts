/** Verify: the merchant confirms a paid payment before its deadline. */
import type { AuthState } from '../domain/merchant.ts';
import { verifyRefusal } from '../domain/payment.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { verifyUpdate } from '../domain/payment-workflow.ts';
import { DomainError } from '../errors.ts';
import { getPayment, updateWorkflow, type PaymentServiceDeps } from './payment-calls.ts';

/**
 * Verify (docs/PAYMENTS.md#verify). The record answers every case whose outcome it already
 * fixes; only a paid payment with the right amount before its deadline goes
 * to the workflow, which makes the one transition even under concurrent calls.
 */
export async function verifyPayment(
  deps: PaymentServiceDeps,
  auth: AuthState,
  id: string,
  amount: number,
): Promise<Payment> {
  const recorded = await getPayment(deps.db, auth, id);
  const refusal = verifyRefusal(recorded, amount, Date.now());
  if (refusal !== undefined) throw new DomainError(refusal.code, refusal.message);
  if (recorded.status !== 'paid') return recorded; // verified before with this amount: same answer

  try {
    return await updateWorkflow(deps, recorded, verifyUpdate, [{ amount }]);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // The workflow may have finished meanwhile (reversed at the deadline): the record has the answer.
    const now = await getPayment(deps.db, auth, id);
    if (now.status !== 'paid') {
      const late = verifyRefusal(now, amount, Date.now());
      if (late !== undefined) throw new DomainError(late.code, late.message);
      return now;
    }
    throw error;
  }
}
