/**
 * Settlement activities (docs/LEDGER.md#settlement): what a run covers,
 * making a merchant's settlement, the payout at the bank and recording its
 * answer. Each is idempotent: a settlement is made once per id, a payout is
 * one transfer per settlement and attempt at the bank (our key), and an
 * answer is recorded once per attempt.
 */
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { PspClients } from '../src/psps/clients.ts';
import { reportedPsps } from '../src/psps/reports.ts';
import { BankUnavailableError } from '../src/psps/psp-client.ts';
import type { PayoutAdapter, PayoutRequest } from '../src/adapters/payout.ts';
import type { Config } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { daysAwaitingReconciliation } from '../src/db/bank-reconciliation.ts';
import { makeSettlement, settleableMerchants } from '../src/db/settlements.ts';
import {
  pendingBeneficiaryPayouts,
  recordBeneficiaryPayoutResult,
  recordPayoutResult,
  settlementPayoutTarget,
  type PayoutResult,
} from '../src/db/settlement-payouts.ts';
import { beneficiaryPayoutKey, payoutKey, type BeneficiaryPayoutInput } from '../src/domain/settlement.ts';
import { reconcileLookbackStart } from '../src/domain/bank-reconciliation.ts';
import { tehranDay } from '../src/domain/calendar.ts';
import type { Logger } from '../src/logger.ts';
import { dispatchEvent, type DeliveryConfig } from '../src/temporal/deliveries.ts';

export interface SettlementActivityDependencies {
  db: Db;
  logger: Logger;
  temporal: Client;
  config: DeliveryConfig & Pick<Config, 'SETTLEMENT_HOLD_HOURS'>;
  /** The live bank's Paya transfers; undefined when no live bank is configured (every payout then fails). */
  payouts: PayoutAdapter | undefined;
  /** The PSP terminals (no longer asked for reports: no reference shows such a call; kept for the worker's wiring). */
  psps: PspClients;
}

export type MadeMerchantSettlement =
  { made: { net: number; attempt: number } } | { carried: number } | { skipped: 'no_iban' };

export function createSettlementActivities({ db, logger, temporal, config, payouts }: SettlementActivityDependencies) {
  /** One beneficiary's transfer under its attempt's key, and the bank's answer recorded once for that attempt. */
  async function payBeneficiary(
    bank: PayoutAdapter,
    settlementId: string,
    share: { beneficiary_id: string; iban: string; amount: number; attempt: number },
  ): Promise<PayoutResult> {
    const key = beneficiaryPayoutKey(settlementId, share.beneficiary_id, share.attempt);
    const result = await transfer(bank, {
      key,
      iban: share.iban,
      amount: Number(share.amount),
      description: `settlement ${settlementId} share`,
    });
    if (!result.paid)
      logger.warn(
        {
          settlement_id: settlementId,
          beneficiary_id: share.beneficiary_id,
          attempt: share.attempt,
          code: result.code,
        },
        'beneficiary payout refused by the bank',
      );
    const event = await recordBeneficiaryPayoutResult(
      db,
      settlementId,
      share.beneficiary_id,
      result,
      new Date(),
      share.attempt,
    );
    if (event !== null) await dispatchEvent(db, temporal, config, event);
    return result;
  }

  return {
    /**
     * The run's cutoff (now − SETTLEMENT_HOLD_HOURS), its day in Tehran, and the merchants with something to settle.
     * A payment of a PSP with a documented daily report waits until an imported report matched it (the days that
     * wait are logged); every other PSP's payments are the PSP's own recorded answers and wait for nothing
     * (docs/LEDGER.md#settlement).
     */
    async settlementCandidates(): Promise<{ cutoff: string; date: string; merchant_ids: string[] }> {
      const now = new Date();
      const cutoff = new Date(now.getTime() - config.SETTLEMENT_HOLD_HOURS * 3_600_000);
      // The live terminal days of the last RECONCILE_LOOKBACK_DAYS whose payments still wait for an imported
      // report, logged for the operator (nothing is asked of any PSP: no reference shows a report call).
      const reported = reportedPsps();
      for (const day of await daysAwaitingReconciliation(db, cutoff, reconcileLookbackStart(cutoff), reported))
        logger.warn(day, "settlement waits for this day's bank report to be imported (reconcile import)");
      const merchant_ids = await settleableMerchants(db, cutoff, reported);
      logger.info({ cutoff: cutoff.toISOString(), merchants: merchant_ids.length }, 'settlement run');
      return { cutoff: cutoff.toISOString(), date: tehranDay(now), merchant_ids };
    },

    /** Makes the merchant's settlement (once per id), or says why there is none: a net carried, or no IBAN. */
    async makeMerchantSettlement({
      settlement_id,
      merchant_id,
      cutoff,
    }: {
      settlement_id: string;
      merchant_id: string;
      cutoff: string;
    }): Promise<MadeMerchantSettlement> {
      const made = await makeSettlement(db, {
        id: settlement_id,
        merchantId: merchant_id,
        cutoff: new Date(cutoff),
        at: new Date(),
        reportedPsps: reportedPsps(),
      });
      if ('carried' in made) {
        logger.info({ merchant_id, net: made.carried }, 'settlement carried: nothing positive to pay out');
        return made;
      }
      if ('skipped' in made) {
        logger.warn({ merchant_id }, 'settlement skipped: the merchant has no settlement IBAN');
        return made;
      }
      logger.info({ merchant_id, settlement_id, net: Number(made.made.net) }, 'settlement made');
      return { made: { net: Number(made.made.net), attempt: made.made.payout_attempt } };
    },

    /**
     * Asks the bank to transfer each beneficiary's shares still pending (docs/LEDGER.md#split-settlement), then the
     * settlement's net to the merchant's IBAN, each under its own key. Under the patch
     * settlement-beneficiary-payouts-one-by-one the workflow has already asked for each beneficiary's in an
     * activity of its own, so only the histories recorded before (and a share an operator's retry reopened
     * meanwhile) find any here: a retried call (the bank did not
     * answer) is the same transfers, and a beneficiary's answer, once recorded, is not asked for again.
     * A refusal is an answer, not an error. A net of 0 (the shares took it all) needs no transfer.
     */
    async payOutSettlement({
      settlement_id,
      attempt,
    }: {
      settlement_id: string;
      attempt: number;
    }): Promise<PayoutResult> {
      if (payouts === undefined)
        return { paid: false, code: 'no_live_bank', message: 'No live bank is configured to transfer payouts.' };
      try {
        // Each under its own attempt's key: a transfer an operator's retry reopened is asked for under the retry's key, the one its own workflow uses.
        for (const share of await pendingBeneficiaryPayouts(db, settlement_id))
          await payBeneficiary(payouts, settlement_id, share);
        const row = await settlementPayoutTarget(db, settlement_id);
        if (Number(row.net) === 0) return { paid: true, bank_reference: null };
        const result = await transfer(payouts, {
          key: payoutKey(settlement_id, attempt),
          iban: row.iban,
          amount: Number(row.net),
          description: `settlement ${settlement_id}`,
        });
        if (!result.paid) logger.warn({ settlement_id, attempt, code: result.code }, 'payout refused by the bank');
        return result;
      } catch (error) {
        if (error instanceof BankUnavailableError)
          throw ApplicationFailure.retryable(error.message, 'bank_unavailable');
        throw error;
      }
    },

    /**
     * The beneficiary transfers of a settlement still waiting for the bank's answer, each by its beneficiary and
     * attempt only (no IBAN, no amount: they stay in MySQL, out of the workflow's history). The settlement workflow
     * asks for each with payOutBeneficiary, one activity per transfer (docs/LEDGER.md#split-settlement).
     */
    async pendingBeneficiaryTransfers({
      settlement_id,
    }: {
      settlement_id: string;
    }): Promise<{ beneficiary_id: string; attempt: number }[]> {
      return (await pendingBeneficiaryPayouts(db, settlement_id)).map(({ beneficiary_id, attempt }) => ({
        beneficiary_id,
        attempt,
      }));
    },

    /**
     * One beneficiary transfer, attempt `attempt`, under its own key, its answer recorded once for that attempt:
     * the settlement workflow's own transfer of each beneficiary, and the operator's retry of one the bank refused
     * (`settlements retry`). A retried call (the bank
     * did not answer) is the same transfer; a row no longer pending at this attempt is left alone.
     */
    async payOutBeneficiary({
      settlement_id,
      beneficiary_id,
      attempt,
    }: BeneficiaryPayoutInput): Promise<PayoutResult | null> {
      const share = (await pendingBeneficiaryPayouts(db, settlement_id)).find(
        (s) => s.beneficiary_id === beneficiary_id && s.attempt === attempt,
      );
      if (share === undefined) return null;
      if (payouts === undefined) {
        const result = {
          paid: false as const,
          code: 'no_live_bank',
          message: 'No live bank is configured to transfer payouts.',
        };
        const event = await recordBeneficiaryPayoutResult(
          db,
          settlement_id,
          beneficiary_id,
          result,
          new Date(),
          attempt,
        );
        if (event !== null) await dispatchEvent(db, temporal, config, event);
        return result;
      }
      try {
        return await payBeneficiary(payouts, settlement_id, share);
      } catch (error) {
        if (error instanceof BankUnavailableError)
          throw ApplicationFailure.retryable(error.message, 'bank_unavailable');
        throw error;
      }
    },

    /** Records the bank's answer to this attempt (once) with its event, then starts the event's deliveries. */
    async recordPayout({
      settlement_id,
      attempt,
      result,
    }: {
      settlement_id: string;
      attempt: number;
      result: PayoutResult;
    }): Promise<void> {
      const event = await recordPayoutResult(db, settlement_id, attempt, result, new Date());
      logger.info({ settlement_id, attempt, paid: result.paid }, 'payout recorded');
      if (event !== null) await dispatchEvent(db, temporal, config, event);
    },
  };
}

/** One Paya transfer and the bank's answer as a PayoutResult; throws BankUnavailableError when the bank did not answer. */
async function transfer(payouts: PayoutAdapter, request: PayoutRequest): Promise<PayoutResult> {
  const answer = await payouts.transfer(request);
  return answer.result === 'paid'
    ? { paid: true, bank_reference: answer.reference }
    : { paid: false, code: 'bank_refused', message: answer.description };
}

export type SettlementActivities = ReturnType<typeof createSettlementActivities>;
