/**
 * A paid return for a payment already ended (docs/BANK.md#a-paid-return-for-an-ended-payment): the
 * customer paid at the PSP after the payment was canceled, expired or failed. The gateway never records
 * such a payment paid, but a PSP whose verify captures (SEP, Parsian) or that settles by itself later
 * (Behpardakht) must not keep the money with no record here: the sale is confirmed at the PSP, then
 * reversed through its claim (activities/bank/refused-confirmation.ts, reason `late_return`: a sale
 * another payment holds is never undone), and the outcome recorded (table late_bank_returns). Run by the
 * payment's own workflow while it still runs, else by lateBankReturnWorkflow, one per payment and
 * reference.
 */
import { ActivityFailure, ApplicationFailure, isCancellation } from '@temporalio/workflow';
import type { BankCallIdentity } from '../src/domain/bank-call.ts';
import { CAPTURE } from '../src/domain/capture.ts';
import type { LateReturnInput, LateReturnOutcome } from '../src/domain/late-return.ts';
import { bankCalls, pspCapabilitiesOf, recordWrites } from './proxies.ts';

const refusedByBank = (error: unknown) => {
  const failure = error instanceof ActivityFailure ? error.cause : error;
  return failure instanceof ApplicationFailure && failure.type === 'bank_refused';
};

/** Confirms the late return's sale at the PSP, reverses it through its claim, and records the outcome. */
export async function reverseLateReturn(identity: BankCallIdentity, refNum: string): Promise<LateReturnOutcome> {
  const capabilities = await pspCapabilitiesOf.pspCapabilities(identity);
  const outcome = await settle(identity, refNum, CAPTURE[capabilities.capture].verifiesOnlyAtMerchantVerify);
  await recordWrites.recordLateReturn({
    payment_id: identity.payment_id,
    reference_id: refNum,
    mode: identity.mode,
    psp: capabilities.psp,
    outcome,
  });
  return outcome;
}

async function settle(identity: BankCallIdentity, refNum: string, verifiesAtMerchantVerify: boolean) {
  // A PSP that verifies only at the merchant's verify (Sadad) captured nothing at the return and has no
  // reversal: asking it to verify now would capture the money; nobody verifying it gives it back.
  if (verifiesAtMerchantVerify) return 'left_to_psp';
  let answer: Awaited<ReturnType<typeof bankCalls.confirmAtBank>>;
  try {
    answer = await bankCalls.confirmAtBank({ ...identity, ref_num: refNum });
  } catch (error) {
    if (isCancellation(error) || !refusedByBank(error)) throw error;
    return 'not_confirmed';
  }
  if (answer.result !== 'confirmed') return 'not_confirmed';
  // The answer names another of our payments (its ResNum): that payment's sale, never reversed here.
  const namesOther = answer.res_num !== null && answer.res_num !== identity.payment_id;
  const { reversal } = await bankCalls.reverseRefusedConfirmation({
    ...identity,
    ref_num: refNum,
    reason: namesOther ? 'other_payment' : 'late_return',
  });
  return reversal;
}

/**
 * The late return of a payment whose workflow has closed: started by the API (its id is one per payment
 * and reference, so a repeated return does it once).
 */
export async function lateBankReturnWorkflow(input: LateReturnInput): Promise<LateReturnOutcome> {
  const identity: BankCallIdentity = {
    payment_id: input.payment_id,
    mode: input.mode,
    ...(input.psp === undefined ? {} : { psp: input.psp as NonNullable<BankCallIdentity['psp']> }),
  };
  return reverseLateReturn(identity, input.ref_num);
}
