/**
 * Bank activities: the payment workflow's calls to the bank behind it
 * through its PSP client (src/adapters/psp/psp-client.ts, docs/BANK.md). Every bank operation is
 * idempotent by its operation key (confirm/settle/reverse by payment, refund
 * by refund id), so Temporal may retry these as often as it needs; every
 * outcome is logged here and lands in the workflow's history as the
 * activity's result.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { BankRefusalError, type Confirmation, type PspClient } from '../src/adapters/psp/psp-client.ts';
import type { PspClients } from '../src/adapters/psp/clients.ts';
import type { Logger } from '../src/logger.ts';

export interface BankActivityDependencies {
  /** The PSP's client per mode: the simulator for test, the PSP for live (absent: not configured). */
  psps: PspClients;
  logger: Logger;
}

type Mode = 'test' | 'live';

export function createBankActivities({ psps, logger }: BankActivityDependencies) {
  const adapter = (mode: Mode): PspClient => {
    const chosen = mode === 'test' ? psps.test : psps.live;
    if (chosen === undefined) throw ApplicationFailure.nonRetryable('No bank is configured for live payments (BANK_BASE_URL).', 'bank_not_configured');
    return chosen;
  };

  /** Logs the outcome; a refusal by the bank becomes a non-retryable failure typed `bank_refused`. */
  async function recorded<T>(what: string, fields: Record<string, unknown>, call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      logger.info({ ...fields, bank_call: what, result }, `bank ${what}: done`);
      return result;
    } catch (error) {
      if (error instanceof BankRefusalError) {
        logger.warn({ ...fields, bank_call: what, result_code: error.code }, `bank ${what}: refused`);
        throw ApplicationFailure.create({ type: 'bank_refused', message: `${error.message} (${error.code})`, nonRetryable: true });
      }
      logger.warn({ ...fields, bank_call: what, err: error instanceof Error ? error.message : String(error) }, `bank ${what}: no answer, to be retried`);
      throw error;
    }
  }

  return {
    /** A token for the bank's page, and the page's address for the customer. */
    async requestBankToken({ payment_id, mode, amount, redirect_url }: { payment_id: string; mode: Mode; amount: number; redirect_url: string }) {
      return recorded('token', { payment_id, mode, amount }, () => adapter(mode).requestToken(payment_id, amount, redirect_url));
    },

    /** Asks the bank whether it holds the customer's payment under `ref_num` (VerifyTransaction); the workflow judges the answer. */
    async confirmAtBank({ payment_id, mode, ref_num }: { payment_id: string; mode: Mode; ref_num: string }): Promise<Confirmation & { terminal_matches?: boolean }> {
      const bankFor = adapter(mode);
      const answer = await recorded('confirm', { payment_id, mode, ref_num }, () => bankFor.confirm(payment_id, ref_num));
      return answer.result === 'confirmed' ? { ...answer, terminal_matches: answer.terminal === bankFor.terminalId } : answer;
    },

    async settleAtBank({ payment_id, mode, ref_num }: { payment_id: string; mode: Mode; ref_num: string }) {
      return recorded('settle', { payment_id, mode, ref_num }, () => adapter(mode).settle(payment_id, ref_num));
    },

    async reverseAtBank({ payment_id, mode, ref_num }: { payment_id: string; mode: Mode; ref_num: string }) {
      return recorded('reverse', { payment_id, mode, ref_num }, () => adapter(mode).reverse(payment_id, ref_num));
    },

    async refundAtBank({ payment_id, mode, ref_num, refund_id, amount }: { payment_id: string; mode: Mode; ref_num: string; refund_id: string; amount: number }) {
      return recorded('refund', { payment_id, mode, ref_num, refund_id, amount }, () => adapter(mode).refund(ref_num, refund_id, amount));
    },
  };
}

export type BankActivities = ReturnType<typeof createBankActivities>;
