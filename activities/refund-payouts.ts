/**
 * A refund paid to the customer's Sheba IBAN (docs/PAYMENTS.md#how-a-refund-is-paid-out): when the
 * payment's PSP has no refund operation and a reversal cannot return the money (the refund is partial,
 * or the PSP's reversal window has closed), the gateway's bank makes a Paya transfer from the
 * gateway's account to the IBAN the merchant gave with the refund, through the same adapter as the
 * settlements' payouts (src/adapters/payout.ts). One transfer per refund: the key is the refund's id,
 * and the bank answers a repeat with the first transfer, so a retried activity, or a refund resumed
 * by a later run, never pays twice. The ledger is written by the refund's own records (refund
 * pending, then succeeded or failed: docs/LEDGER.md).
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { PayoutAdapter } from '../src/adapters/payout.ts';
import { BankUnavailableError } from '../src/psps/psp-client.ts';
import { maskSheba } from '../src/domain/business-documents.ts';
import { refundPayoutKey } from '../src/domain/refund.ts';
import type { Logger } from '../src/logger.ts';

type Mode = 'test' | 'live';

export interface RefundPayoutActivityDependencies {
  /** Each mode's Paya transfers: the simulator's in test mode, the live bank's in live mode (absent: not configured). */
  refundPayouts: Partial<Record<Mode, PayoutAdapter>>;
  logger: Logger;
}

/** The failure type of a transfer the bank refused, as of a PSP's refusal: the refund fails (failure code `bank_refused`), and its amount is refundable again. */
export const REFUND_PAYOUT_REFUSED = 'bank_refused';

export function createRefundPayoutActivities({ refundPayouts, logger }: RefundPayoutActivityDependencies) {
  return {
    /** Transfers `amount` rials of refund `refund_id` to `iban`, once; a refusal is a non-retryable `payout_refused`. */
    async payRefundToIban({
      refund_id,
      payment_id,
      mode,
      iban,
      amount,
    }: {
      refund_id: string;
      payment_id: string;
      mode: Mode;
      iban: string;
      amount: number;
    }): Promise<{ bank_reference: string }> {
      const bank = refundPayouts[mode];
      const where = { refund_id, payment_id, mode, iban: maskSheba(iban), amount };
      if (bank === undefined) {
        throw ApplicationFailure.create({
          type: 'payout_not_configured',
          message: `No bank is configured to transfer ${mode} refunds to an IBAN.`,
          nonRetryable: true,
        });
      }
      let answer: Awaited<ReturnType<PayoutAdapter['transfer']>>;
      try {
        answer = await bank.transfer({
          key: refundPayoutKey(refund_id),
          iban,
          amount,
          description: `refund ${refund_id} of payment ${payment_id}`,
        });
      } catch (error) {
        // No answer: the same key again, until the bank answers.
        logger.warn(
          { ...where, err: error instanceof Error ? error.message : String(error) },
          'refund transfer: no answer, to be retried',
        );
        if (error instanceof BankUnavailableError)
          throw ApplicationFailure.retryable(error.message, 'bank_unavailable');
        throw error;
      }
      if (answer.result === 'refused') {
        logger.warn({ ...where, result_code: answer.code }, 'refund transfer: refused by the bank');
        throw ApplicationFailure.create({
          type: REFUND_PAYOUT_REFUSED,
          message: `${answer.description} (${answer.code})`,
          nonRetryable: true,
        });
      }
      logger.info({ ...where, bank_reference: answer.reference }, 'refund transfer: paid');
      return { bank_reference: answer.reference };
    },
  };
}

export type RefundPayoutActivities = ReturnType<typeof createRefundPayoutActivities>;
