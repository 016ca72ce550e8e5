/**
 * Bank activities: the payment workflow's calls to the bank behind it. Every
 * bank operation is idempotent by its operation key (payment id, refund id),
 * so Temporal may retry these as often as it needs.
 */
import type { BankAdapter } from '../src/adapters/bank.ts';
import type { Logger } from '../src/logger.ts';

export interface BankActivityDependencies {
  bank: BankAdapter;
  logger: Logger;
}

export function createBankActivities({ bank, logger }: BankActivityDependencies) {
  return {
    async captureSandboxPayment({ payment_id, amount }: { payment_id: string; amount: number }) {
      return bank.capture(payment_id, amount);
    },

    async refundPayment({ payment_id, refund_id, amount }: { payment_id: string; refund_id: string; amount: number }) {
      const result = await bank.refund(payment_id, refund_id, amount);
      logger.info({ payment_id, refund_id, amount }, 'refund paid out to the customer');
      return result;
    },

    async reverseSandboxPayment({ payment_id, amount }: { payment_id: string; amount: number }) {
      const result = await bank.reverse(payment_id, amount);
      logger.info({ payment_id, amount }, 'payment reversed to the customer');
      return result;
    },
  };
}

export type BankActivities = ReturnType<typeof createBankActivities>;
