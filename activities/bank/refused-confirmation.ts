/**
 * A confirmation the workflow refused (docs/PAYMENTS.md#a-confirmation-the-gateway-refuses), or a paid
 * return for a payment already ended (workflows/late-return.ts): the PSP's verify already did its work,
 * so the sale is reversed here, at once, rather than left to the verify deadline. Apart from the
 * merchant's reverse (operations.ts) because its outcome is the point: it decides from the sale's
 * claim whether the money is this payment's to give back at all, and answers what became of it for
 * the workflow to record.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { BankCallIdentity } from '../../src/domain/bank-call.ts';
import type { ConfirmationRefusalReason } from '../../src/domain/confirmation-refusal.ts';
import { pspConfirmationsRefused } from '../../src/observability/metrics.ts';
import { claimOf, type BankActivityDependencies, type RecordedBanks } from './record-guard.ts';
import type { BankCallKit } from './calls.ts';

type Reversal = 'reversed' | 'reversal_refused' | 'not_reversed';

export function refusedConfirmationActivities(
  { logger }: Pick<BankActivityDependencies, 'logger'>,
  { clientFor }: RecordedBanks,
  { loggedBankCall, saleHolder }: BankCallKit,
) {
  return {
    /**
     * Reverses the refused confirmation's sale, keyed by payment (`reverse:<payment>`: a retry or a
     * replay reverses once), counted and logged here, never in the workflow. Not reversed: a sale the
     * answer names as another of our payments (ResNum), or whose claim another payment holds
     * (src/db/sale-claims.ts): that money is the other payment's, and reversing it here would undo a
     * payment its merchant sees paid. A PSP that refuses the reversal (its window passed, say) is
     * answered as such: the payment is still recorded, and the alert says money is held at the PSP. No
     * answer: thrown, and retried until the PSP answers.
     */
    async reverseRefusedConfirmation(
      input: BankCallIdentity & { ref_num: string; reason: ConfirmationRefusalReason },
    ): Promise<{ reversal: Reversal }> {
      const { payment_id, mode, ref_num, reason } = input;
      const bank = await clientFor('reverseRefusedConfirmation', claimOf(input));
      const fields = { payment_id, mode, psp: bank.name, ref_num, reason };
      // Reversed only while this payment holds the sale's claim (confirmAtBank took it, or takes it now
      // for a confirmation made before claims existed): a sale another payment holds is never undone
      // on this payment's word, nor one the PSP names as another of our payments.
      const holder =
        reason === 'other_payment' ? 'named by the answer' : await saleHolder(bank, mode, payment_id, ref_num);
      const counted = (reversal: Reversal) => {
        pspConfirmationsRefused.inc({ psp: bank.name, reason, reversal });
        return { reversal };
      };
      if (holder !== payment_id) {
        logger.error(
          { ...fields, other_payment_id: holder },
          "bank confirm refused: the PSP's sale is another payment's; not reversed",
        );
        return counted('not_reversed');
      }
      logger.warn(
        fields,
        'bank confirm refused: the confirmation does not match the payment; reversing the sale at the PSP',
      );
      try {
        await loggedBankCall('reverse', fields, () => bank.reverse(payment_id, ref_num));
      } catch (error) {
        if (error instanceof ApplicationFailure && error.type === 'bank_refused') {
          logger.error(fields, 'bank confirm refused: the PSP refused to reverse the sale; money is held at the PSP');
          return counted('reversal_refused');
        }
        throw error;
      }
      return counted('reversed');
    },
  };
}
