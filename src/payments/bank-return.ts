/**
 * The customer's way through the bank (docs/BANK.md): the bank's page for a
 * payment, and the bank's post back to our return route handed to the
 * payment's workflow, which confirms everything with the bank itself.
 */
import { WorkflowNotFoundError, WorkflowUpdateStage, type Client } from '@temporalio/client';
import { parseBankCallback } from '../psps/callbacks.ts';
import { isPspName } from '../psps/profiles.ts';
import type { Config } from '../config.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import {
  bankCallbackUpdate,
  bankTokenUpdate,
  paymentWorkflowId,
  type BankCallback,
  type BankTokenResult,
} from '../domain/payment-workflow.ts';
import { DomainError } from '../errors.ts';
import { temporalCall, updateRefusal } from '../temporal/call.ts';
import type { PaymentServiceDeps } from './payment-calls.ts';
import { returnSignature } from './return-signature.ts';

/**
 * Where the bank sends the customer back: our return route, signed for the payment's bank session
 * (return-signature.ts; docs/BANK.md#never-trusting-the-callback). Only a return to this address may end
 * the payment.
 */
export const bankReturnUrl = (config: Pick<Config, 'PUBLIC_BASE_URL' | 'PAGES_CSRF_SECRET'>, id: string) =>
  `${config.PUBLIC_BASE_URL}/pay/${id}/return/${returnSignature(config, id)}`;

/** The customer's way to the bank's page: a GET of `url`, or a form POST of `fields` to it. */
export interface BankPage {
  url: string;
  method: 'GET' | 'POST';
  fields: Record<string, string>;
}

/** The token's way to the bank's page; a token asked for before there were two PSPs has no method: a GET, as it was. */
export const bankPageOf = (token: BankTokenResult): BankPage => ({
  url: token.url,
  method: token.method ?? 'GET',
  fields: token.fields ?? {},
});

/** The customer goes to the bank: the payment's workflow asks the bank for a token; answers the way to the bank's page for the customer. */
export async function requestBankPage(
  { temporal, config }: Pick<PaymentServiceDeps, 'temporal' | 'config'>,
  paymentId: string,
): Promise<BankPage> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(paymentId));
  try {
    const token = await temporalCall(temporal, () =>
      handle.executeUpdate(bankTokenUpdate, { args: [{ redirect_url: bankReturnUrl(config, paymentId) }] }),
    );
    return bankPageOf(token);
  } catch (error) {
    // Its workflow ended meanwhile (canceled, expired): no longer payable.
    if (error instanceof WorkflowNotFoundError)
      throw new DomainError('payment_not_payable', 'The payment can no longer be paid.');
    // A refusal; no PSP of the payment's route gave a token (docs/psps/routing.md) is a 503: the customer was
    // sent nowhere and may press Pay again.
    throw updateRefusal(error) ?? error;
  }
}

/**
 * The fields of the bank's post to our return route, normalized by the connector of the payment's
 * PSP (`psp`: its record's; unknown or not a registered PSP, the connector whose fields they are:
 * callbacks.ts, pspOfReturn) and checked for shape only (the workflow confirms everything with the bank).
 * `signed`: the return came to the payment's signed return address (the caller checked the signature).
 */
export function bankCallbackFrom(
  paymentId: string,
  form: URLSearchParams,
  psp?: string | null,
  signed = false,
): BankCallback | undefined {
  const callback = parseBankCallback(Object.fromEntries(form), paymentId, isPspName(psp) ? psp : undefined);
  // `signed`: it came to the address of the payment's bank session (the route checked its signature).
  return callback === undefined ? undefined : { ...callback, signed };
}

/**
 * The bank's callback to the payment's workflow. `settled`: wait until the workflow has
 * confirmed with the bank (the test helper); else only until the workflow has accepted it
 * (the customer's browser goes on to the result page, which waits for the answer).
 */
export async function submitBankCallback(
  temporal: Client,
  paymentId: string,
  callback: BankCallback,
  settled: boolean,
): Promise<Payment | undefined> {
  const handle = temporal.workflow.getHandle(paymentWorkflowId(paymentId));
  try {
    if (settled)
      return await temporalCall(temporal, () => handle.executeUpdate(bankCallbackUpdate, { args: [callback] }));
    await temporalCall(temporal, () =>
      handle.startUpdate(bankCallbackUpdate, { args: [callback], waitForStage: WorkflowUpdateStage.ACCEPTED }),
    );
    return undefined;
  } catch (error) {
    // Its workflow ended meanwhile (expired, canceled): the result page shows the payment as it is.
    if (!settled && error instanceof WorkflowNotFoundError) return undefined;
    throw updateRefusal(error) ?? error;
  }
}
