/**
 * The bank of a payment as its record names it, for every bank activity (activities/bank.ts). A
 * workflow that claims another mode (or amount, or PSP) than the record's is refused before any bank
 * is asked (activities/payment-record.ts), so a live payment never reaches the simulator however its
 * workflow was started, and a payment sent to one PSP is never asked about at another. The PSP is the
 * record's once it has one, else the claim's, else SEP.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { pspClient, type PspClients } from '../../src/psps/clients.ts';
import type { PspHealthStore } from '../../src/db/psp-health.ts';
import { ORIGINAL_PSP, isPspName } from '../../src/psps/profiles.ts';
import type { PspClient, PspName } from '../../src/psps/psp-client.ts';
import type { Db } from '../../src/db/database.ts';
import type { BankCallIdentity } from '../../src/domain/bank-call.ts';
import { pspUrlSetting, type Config } from '../../src/config.ts';
import type { Logger } from '../../src/logger.ts';
import {
  paymentRecordGuard,
  type PaymentClaim,
  type PaymentRecordGuard,
  type RecordedIdentity,
} from '../payment-record.ts';

export interface BankActivityDependencies {
  /** The PSP clients per mode and name: the simulator for test, the PSPs for live (absent: not configured). */
  psps: PspClients;
  /** The payment records: the bank is chosen by the record's mode and PSP, never by the workflow's word. */
  db: Db;
  /** Each PSP terminal's circuit breaker, shared by every process. */
  health: PspHealthStore;
  logger: Logger;
  /** The key of the allowed cards' stored hashes (src/psps/card-hash.ts). */
  config: Pick<Config, 'CARD_HASH_KEY'>;
}

/** The failure types of a token request the next PSP of the route should be asked instead. */
export const PSP_UNAVAILABLE = 'psp_unavailable';

/** The payment as the guard read it: its identity with its customer fee. */
export type RecordedPayment = Awaited<ReturnType<PaymentRecordGuard['read']>>;

/** The record's allowed cards' keyed hashes; null when any card may pay. */
export const allowedCardsOf = (recorded: RecordedIdentity): string[] | null =>
  recorded.allowed_card_hashes === undefined || recorded.allowed_card_hashes === null
    ? null
    : (JSON.parse(recorded.allowed_card_hashes) as string[]);

/**
 * What a bank call's identity claims of the record: its payment, mode and PSP, and nothing else of
 * the activity's input (a refund's `amount` is not the payment's). A call without a PSP (a workflow
 * older than routing) claims none.
 */
export const claimOf = ({ payment_id, mode, psp }: BankCallIdentity): PaymentClaim =>
  psp === undefined ? { payment_id, mode } : { payment_id, mode, psp };

export function recordedBanks({ psps, db, logger }: Pick<BankActivityDependencies, 'psps' | 'db' | 'logger'>) {
  const guard = paymentRecordGuard(logger);

  /**
   * The record (checked against `claim`) and the client of its PSP. `tokenAt`: the PSP a token is
   * asked of; a record naming another is passed over with PSP_UNAVAILABLE, not refused as forged (see
   * requestBankToken).
   */
  const recordedBank = async (
    activity: string,
    claim: PaymentClaim,
    tokenAt?: PspName,
  ): Promise<{ bank: PspClient; recorded: RecordedPayment }> => {
    const recorded = await guard.read(db, activity, claim);
    if (tokenAt !== undefined && recorded.psp !== undefined && recorded.psp !== null && recorded.psp !== tokenAt) {
      logger.warn(
        { payment_id: claim.payment_id, psp: tokenAt, recorded_psp: recorded.psp },
        'bank token: the record names another PSP; passed over',
      );
      throw ApplicationFailure.create({
        type: PSP_UNAVAILABLE,
        message: `the payment's record names PSP ${recorded.psp}`,
        nonRetryable: true,
      });
    }
    // A payment recorded before payments named their PSP is SEP's (ORIGINAL_PSP).
    const name = recorded.psp ?? tokenAt ?? claim.psp ?? ORIGINAL_PSP;
    const chosen = isPspName(name) ? pspClient(psps, recorded.mode, name) : undefined;
    if (chosen === undefined) {
      const setting = isPspName(name) ? ` (${pspUrlSetting(name, recorded.mode)})` : '';
      throw ApplicationFailure.nonRetryable(
        `PSP ${name} is not configured for ${recorded.mode} payments${setting}.`,
        'bank_not_configured',
      );
    }
    return { bank: chosen, recorded };
  };

  /** The client of the payment's PSP alone, for the calls that need nothing else of the record. */
  const clientFor = async (activity: string, claim: PaymentClaim, tokenAt?: PspName): Promise<PspClient> =>
    (await recordedBank(activity, claim, tokenAt)).bank;

  return { guard, recordedBank, clientFor };
}

export type RecordedBanks = ReturnType<typeof recordedBanks>;
