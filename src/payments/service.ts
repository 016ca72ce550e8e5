/**
 * The payment service: what the API, the pages and the dashboard ask of
 * payments, one module per operation. The workflow decides every transition;
 * these record a new payment, start its workflow, read records, and forward
 * the merchant's and the bank's messages to the workflow.
 */
export { findTenantPayment, getPayment, type PaymentServiceDeps } from './payment-calls.ts';
export {
  checkCallbackUrl,
  createPayment,
  newPayment,
  paymentUrl,
  paymentWorkflowInput,
  startPaymentWorkflow,
} from './create.ts';
export { verifyPayment } from './verify.ts';
export { cancelPayment, reversePayment } from './cancel-reverse.ts';
export { bankCallbackFrom, bankReturnUrl, requestBankPage, submitBankCallback, type BankPage } from './bank-return.ts';
export { isLateReturn, startLateReturn } from './late-return.ts';
export { isReturnSignature } from './return-signature.ts';
export { advancePaymentClock, simulateBankOutcome } from './test-helpers.ts';
export { listPayments, updatePayment } from './listing.ts';
export { previewFee } from './fees.ts';
