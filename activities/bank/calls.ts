/**
 * What every bank activity does around its call to the PSP (activities/bank.ts): the call logged
 * with its outcome and a refusal made final, an operation the PSP lacks refused without a call, and
 * the claim of a confirmed sale for one payment. Shared by the operations and the refused
 * confirmation's reversal, so both log, refuse and claim alike.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { keyedCardHash } from '../../src/psps/card-hash.ts';
import { BankRefusalError, type PspClient } from '../../src/psps/psp-client.ts';
import { claimSale, type SaleCard } from '../../src/db/sale-claims.ts';
import { MASKED_CARD_PAN_PATTERN } from '../../src/domain/bank-confirmation.ts';
import type { KeyMode } from '../../src/domain/merchant.ts';
import { cardHashKey } from '../../src/config.ts';
import type { BankActivityDependencies } from './record-guard.ts';

const MASKED_CARD_PAN = new RegExp(MASKED_CARD_PAN_PATTERN);
const SHA256_HEX = /^[0-9A-Fa-f]{64}$/;

/** The PSP's operation `what` (bound to its client); a PSP without it is asked nothing: a non-retryable `operation_not_offered`. */
export function offered<A extends unknown[], R>(
  bank: PspClient,
  what: string,
  operation: ((...args: A) => Promise<R>) | undefined,
): (...args: A) => Promise<R> {
  if (operation === undefined)
    throw ApplicationFailure.create({
      type: 'operation_not_offered',
      message: `PSP ${bank.name} has no ${what} operation`,
      nonRetryable: true,
    });
  return operation;
}

export function bankCallKit({ db, logger, config }: Pick<BankActivityDependencies, 'db' | 'logger' | 'config'>) {
  /** Makes the bank call and logs its outcome; a refusal by the bank becomes a non-retryable failure typed `bank_refused`. */
  async function loggedBankCall<T>(what: string, fields: Record<string, unknown>, call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      logger.info({ ...fields, bank_call: what, result }, `bank ${what}: done`);
      return result;
    } catch (error) {
      if (error instanceof BankRefusalError) {
        logger.warn({ ...fields, bank_call: what, result_code: error.code }, `bank ${what}: refused`);
        throw ApplicationFailure.create({
          type: 'bank_refused',
          message: `${error.message} (${error.code})`,
          nonRetryable: true,
        });
      }
      logger.warn(
        { ...fields, bank_call: what, err: error instanceof Error ? error.message : String(error) },
        `bank ${what}: no answer, to be retried`,
      );
      throw error;
    }
  }

  /**
   * Claims the PSP's sale `ref_num` at `bank` for the payment (src/db/sale-claims.ts) and answers the
   * payment that holds it: this one, or another that claimed it first. The claim is the one guard of
   * "one sale, one payment": two returns presenting one sale at the same instant are decided by the
   * table's primary key. `card`: what the PSP said of the card that paid (kept for a refund to it); a
   * masked card only in its masked shape, the PSP's hash only keyed.
   */
  const saleHolder = (
    bank: PspClient,
    mode: KeyMode,
    payment_id: string,
    ref_num: string,
    card: { card_pan?: string | null; card_sha256?: string } = {},
  ): Promise<string> => {
    const kept: SaleCard = {
      card_pan:
        card.card_pan !== undefined && card.card_pan !== null && MASKED_CARD_PAN.test(card.card_pan)
          ? card.card_pan
          : null,
      card_hash:
        card.card_sha256 !== undefined && SHA256_HEX.test(card.card_sha256)
          ? keyedCardHash(cardHashKey(config), card.card_sha256)
          : null,
    };
    return claimSale(
      db,
      { mode, psp: bank.name, terminal_id: bank.terminalId, reference_id: ref_num },
      payment_id,
      kept,
    );
  };

  return { loggedBankCall, saleHolder };
}

export type BankCallKit = ReturnType<typeof bankCallKit>;
