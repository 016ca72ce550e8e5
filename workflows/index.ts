// The workflow bundle's entry: every workflow type the worker registers.
export { paymentLifecycleWorkflow } from './payment.ts';
export { paymentRefundsWorkflow } from './refunds.ts';
export { webhookDeliveryWorkflow } from './webhook.ts';
export { idempotencyCleanupWorkflow } from './maintenance.ts';
export { merchantOnboardingWorkflow } from './onboarding.ts';
export { beneficiaryPayoutWorkflow, settlementRunWorkflow, settlementWorkflow } from './settlement.ts';
export { stuckRecordsSweepWorkflow } from './sweep.ts';
