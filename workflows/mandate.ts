/**
 * One mandate's life (docs/SUBSCRIPTIONS.md#mandates), a workflow of its own type (the payment
 * workflow is not changed): ask the provider, wait for the customer's return from the bank (an
 * Update, answered once the mandate has settled) within the signing window, activate it (the
 * signature is fetched and sealed inside one activity and never enters this history), then wait for
 * a cancel or its expiry, and then end its subscriptions. Every state is written to MySQL by an
 * activity, with its `mandate.*` event.
 */
import { condition, defineUpdate, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { MandateActivities } from '../activities/mandates.ts';
import type { MandateStatus } from '../src/domain/mandate.ts';
import {
  MANDATE_CANCEL_UPDATE,
  MANDATE_RETURN_UPDATE,
  type MandateReturnInput,
  type MandateWorkflowInput,
} from '../src/domain/mandate-workflow.ts';
import { MANDATE_ENDS_SUBSCRIPTIONS_PATCH } from './patches.ts';

// Provider calls and MySQL writes are retried until they answer: a refusal is an answer (the
// activities turn it into a state), so only an outage is retried.
const act = proxyActivities<MandateActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});
// Ending the subscriptions waits, through each one's cancel Update, for a charge in flight to complete
// (its debit at the provider), which may take longer than a write; a retry asks again, harmlessly.
const ending = proxyActivities<MandateActivities>({
  startToCloseTimeout: '5m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

export const mandateReturnUpdate = defineUpdate<MandateStatus, [MandateReturnInput]>(MANDATE_RETURN_UPDATE);
export const mandateCancelUpdate = defineUpdate<MandateStatus, []>(MANDATE_CANCEL_UPDATE);

const FINAL: readonly MandateStatus[] = ['declined', 'canceled', 'expired'];

export async function mandateWorkflow(input: MandateWorkflowInput): Promise<MandateStatus> {
  const id = input.mandate_id;
  let status: MandateStatus = 'pending';
  let returned: MandateReturnInput | undefined;
  let cancelAsked = false;
  // Both answer the mandate's status once it has moved past what they asked for, so the return route
  // can send the customer on knowing the outcome, and cancel can answer the canceled mandate.
  setHandler(mandateReturnUpdate, async (r) => {
    if (status === 'pending' && returned === undefined) returned = r;
    await condition(() => status !== 'pending');
    return status;
  });
  setHandler(mandateCancelUpdate, async () => {
    if (!FINAL.includes(status)) cancelAsked = true;
    await condition(() => FINAL.includes(status));
    return status;
  });

  if ((await act.requestMandateAtProvider({ mandate_id: id, return_url: input.provider_return_url })) === 'refused') {
    status = await act.endMandate({
      mandate_id: id,
      from: 'pending',
      to: 'declined',
      failure_code: 'provider_refused',
    });
    return status;
  }

  const signingWindow = Math.max(1, Math.min(input.signing_window_ms, input.expires_at_ms - Date.now()));
  const answered = await condition(() => returned !== undefined || cancelAsked, signingWindow);
  if (!answered)
    status = await act.endMandate({ mandate_id: id, from: 'pending', to: 'expired', failure_code: 'not_signed' });
  else if (returned === undefined) status = await act.endMandate({ mandate_id: id, from: 'pending', to: 'canceled' });
  else if (!returned.signed)
    status = await act.endMandate({ mandate_id: id, from: 'pending', to: 'declined', failure_code: 'refused_at_bank' });
  else status = await act.activateMandate(id);
  if (status !== 'active') return status;

  // Active until the merchant cancels or it expires. A cancel asked while signing is honoured now.
  const canceled = await condition(() => cancelAsked, Math.max(1, input.expires_at_ms - Date.now()));
  let end: MandateStatus;
  if (canceled) {
    await act.cancelMandateAtProvider(id);
    end = await act.endMandate({ mandate_id: id, from: 'active', to: 'canceled' });
  } else end = await act.endMandate({ mandate_id: id, from: 'active', to: 'expired' });
  // Its subscriptions could charge nothing more (the admission refuses an ended mandate): they end now,
  // before `status` moves, so the merchant's cancel answers once they are canceled too.
  if (patched(MANDATE_ENDS_SUBSCRIPTIONS_PATCH))
    await ending.endMandateSubscriptions({
      mandate_id: id,
      reason: canceled ? 'mandate_canceled' : 'mandate_expired',
    });
  status = end;
  return status;
}
