/** The test-mode helpers of the API (docs/API.md): a bank outcome without a browser, and the payment's own clock. */
import { WorkflowNotFoundError } from '@temporalio/client';
import { chooseOnSimulatorReturn } from '../adapters/bank-customer.ts';
import { BankUnavailableError } from '../psps/psp-client.ts';
import { pspUrlSetting } from '../config.ts';
import type { AuthState } from '../domain/merchant.ts';
import type { BankOutcome } from '../domain/payment.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { advanceClockUpdate } from '../domain/payment-workflow.ts';
import { overRecord } from '../db/payments.ts';
import { DomainError } from '../errors.ts';
import { bankCallbackFrom, requestBankPage, submitBankCallback } from './bank-return.ts';
import { isReturnSignature, signatureOfReturnUrl } from './return-signature.ts';
import { changePayment, getPayment, testModeOnly, type PaymentServiceDeps } from './payment-calls.ts';

/**
 * Test helper: the customer's whole path through the bank simulator, without a browser (token,
 * the outcome chosen on the bank's page, the bank's callback); answers once the workflow has
 * confirmed with the bank.
 */
export async function simulateBankOutcome(
  deps: PaymentServiceDeps,
  auth: AuthState,
  id: string,
  outcome: BankOutcome,
): Promise<Payment> {
  testModeOnly(auth);
  const recorded = await getPayment(deps.db, auth, id);
  // Like a second visit to the bank, an outcome for a payment that is no longer `created` changes nothing.
  if (recorded.status !== 'created') return recorded;
  try {
    const page = await requestBankPage(deps, id);
    // The PSP that gave the token is recorded with it: the customer chooses on that PSP's own simulator.
    const psp = (await getPayment(deps.db, auth, id)).psp?.name;
    if (psp === undefined) throw new DomainError('service_unavailable', 'The payment has no PSP after its token.');
    const simulator = deps.config[pspUrlSetting(psp, 'test')];
    const { fields, returnUrl } = await chooseOnSimulatorReturn(simulator, page, outcome, deps.config.BANK_TIMEOUT_MS);
    // Signed as the return route signs it: the bank's page sends the customer to the session's signed address.
    const signed = isReturnSignature(deps.config, id, signatureOfReturnUrl(returnUrl, id));
    const callback = bankCallbackFrom(id, new URLSearchParams(fields), psp, signed);
    if (callback === undefined)
      throw new DomainError('service_unavailable', 'The bank simulator answered an unexpected page.');
    const payment = await submitBankCallback(deps.temporal, id, callback, true);
    return overRecord(payment ?? recorded, recorded);
  } catch (error) {
    // The payment stopped being payable meanwhile (canceled, expired, paid): it answers as it is.
    if (
      error instanceof WorkflowNotFoundError ||
      (error instanceof DomainError && error.code === 'payment_not_payable')
    )
      return getPayment(deps.db, auth, id);
    if (error instanceof BankUnavailableError)
      throw new DomainError('service_unavailable', 'The bank simulator did not answer.');
    throw error;
  }
}

/** Test helper: moves the payment's own clock forward; its due timers fire before the answer. */
export function advancePaymentClock(
  deps: PaymentServiceDeps,
  auth: AuthState,
  id: string,
  seconds: number,
): Promise<Payment> {
  testModeOnly(auth);
  return changePayment(deps, auth, id, advanceClockUpdate, [{ seconds }], () => undefined);
}
