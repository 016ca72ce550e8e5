/**
 * Bank activities: the payment workflow's calls to the bank behind it through its PSP client
 * (src/psps/psp-client.ts, docs/BANK.md). Every outcome is logged and lands in the workflow's history
 * as the activity's result. This module composes them, one file a job, under activities/bank/:
 * - record-guard.ts: the bank of the payment as its record names it; a workflow's word is checked first;
 * - calls.ts: the logged call, the operation a PSP lacks, the claim of a confirmed sale;
 * - routing.ts: the route of PSP terminals (docs/psps/routing.md) and the token through each one's breaker;
 * - operations.ts: capabilities, confirm, inquire, settle, reverse and refund at the payment's PSP;
 * - refused-confirmation.ts: the reversal of a sale whose confirmation the workflow refused.
 * The activities' names are the activity types in the histories: they never change.
 */
import { bankCallKit } from './bank/calls.ts';
import { operationActivities } from './bank/operations.ts';
import { recordedBanks, type BankActivityDependencies } from './bank/record-guard.ts';
import { refusedConfirmationActivities } from './bank/refused-confirmation.ts';
import { routingActivities } from './bank/routing.ts';

export { PSP_UNAVAILABLE, type BankActivityDependencies } from './bank/record-guard.ts';
export type { PaymentRouteCandidate, RoutedBankToken } from './bank/routing.ts';

export function createBankActivities(dependencies: BankActivityDependencies) {
  const banks = recordedBanks(dependencies);
  const kit = bankCallKit(dependencies);
  return {
    ...operationActivities(dependencies, banks, kit),
    ...routingActivities(dependencies, banks, kit),
    ...refusedConfirmationActivities(dependencies, banks, kit),
  };
}

export type BankActivities = ReturnType<typeof createBankActivities>;
