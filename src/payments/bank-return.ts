/**
 * The customer's way through the bank (docs/BANK.md): the bank's page for a
 * payment, and the bank's post back to our return route handed to the
 * payment's workflow, which confirms everything with the bank itself.
 */
import { WorkflowNotFoundError, WorkflowUpdateStage, type Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { bankCallbackUpdate, bankTokenUpdate, paymentWorkflowId, type BankCallback } from '../domain/payment-workflow.ts';
import { DomainError } from '../errors.ts';
import { temporalCall, updateRefusal } from '../temporal/call.ts';
import type { PaymentServiceDeps } from './payment-calls.ts';

/** Where the bank sends the customer back: our return route (docs/BANK.md). */
export const bankReturnUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>, id: string) => `${config.PUBLIC_BASE_URL}/pay/${id}/return`;

/** The customer goes to the bank: the payment's workflow asks the bank for a token; answers the bank's page for the customer. */
export async function requestBankPage({ temporal, config }: Pick<PaymentServiceDeps, 'temporal' | 'config'>, paymentId: string): Promise<string> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(paymentId));
  try {
    const token = await temporalCall(temporal, () => handle.executeUpdate(bankTokenUpdate, { args: [{ redirect_url: bankReturnUrl(config, paymentId) }] }));
    return token.url;
  } catch (error) {
    // Its workflow ended meanwhile (canceled, expired): no longer payable.
    if (error instanceof WorkflowNotFoundError) throw new DomainError('payment_not_payable', 'The payment can no longer be paid.');
    throw updateRefusal(error) ?? error;
  }
}

/** The fields of the bank's post to our return route, checked for shape only (the workflow confirms everything with the bank). */
export function bankCallbackFrom(paymentId: string, form: URLSearchParams): BankCallback | undefined {
  const state = form.get('State') ?? '';
  const refNum = form.get('RefNum') ?? '';
  const resNum = form.get('ResNum') ?? '';
  const token = form.get('Token') ?? '';
  if (!/^[A-Za-z]{1,40}$/.test(state) || !/^[0-9]{0,40}$/.test(refNum) || resNum !== paymentId || !/^[A-Za-z0-9_-]{1,64}$/.test(token)) return undefined;
  if (state === 'OK' && refNum === '') return undefined;
  return { state, ref_num: refNum, res_num: resNum, token };
}

/**
 * The bank's callback to the payment's workflow. `settled`: wait until the workflow has
 * confirmed with the bank (the test helper); else only until the workflow has accepted it
 * (the customer's browser goes on to the result page, which waits for the answer).
 */
export async function submitBankCallback(temporal: Client, paymentId: string, callback: BankCallback, settled: boolean): Promise<Payment | undefined> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(paymentId));
  try {
    if (settled) return await temporalCall(temporal, () => handle.executeUpdate(bankCallbackUpdate, { args: [callback] }));
    await temporalCall(temporal, () => handle.startUpdate(bankCallbackUpdate, { args: [callback], waitForStage: WorkflowUpdateStage.ACCEPTED }));
    return undefined;
  } catch (error) {
    // Its workflow ended meanwhile (expired, canceled): the result page shows the payment as it is.
    if (!settled && error instanceof WorkflowNotFoundError) return undefined;
    throw updateRefusal(error) ?? error;
  }
}

