// The workflow bundle's entry: every workflow type the worker registers.
export { paymentFlowWorkflow, paymentLifecycleWorkflow } from './payment.ts';
export { lateBankReturnWorkflow } from './late-return.ts';
export { paymentRefundsWorkflow } from './refunds.ts';
export { webhookDeliveryWorkflow } from './webhook.ts';
// Replaced by retentionWorkflow; kept registered so a run started before the switch still completes.
export { idempotencyCleanupWorkflow } from './maintenance.ts';
export { retentionWorkflow } from './retention.ts';
export { merchantOnboardingWorkflow } from './onboarding.ts';
export { beneficiaryPayoutWorkflow, settlementRunWorkflow, settlementWorkflow } from './settlement.ts';
export { stuckRecordsSweepWorkflow } from './sweep.ts';
export { mandateWorkflow } from './mandate.ts';
export { directDebitWorkflow } from './debit.ts';
export { subscriptionWorkflow } from './subscription.ts';
