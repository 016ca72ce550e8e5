/**
 * The direct debit workflow's activities (docs/SUBSCRIPTIONS.md#debits-are-payments): naming the
 * debit's transaction at the provider, taking its money, and giving the mandate's counts back when the
 * provider refused. The payment's own records (paid, verified, failed) are the record activities'
 * (activities/records.ts), the same as every payment's.
 *
 * Why a retry never debits twice: the provider's authority of the transaction is recorded on the debit
 * (first wins) before any money moves, and `takeDebitAtProvider` always checks out *that* authority,
 * which the provider pays once (a repeated checkout is answered as the first). An activity retried after
 * a lost answer, or a worker killed mid-call, sends the same authority again; once the debit is marked
 * `taken` a retry does not call the provider at all. A retried prepare whose first answer was lost may
 * name a second transaction at the provider, which is never checked out: no money moves for it.
 *
 * The mandate's signature is opened only inside `takeDebitAtProvider` to be sent, and is never an
 * activity's argument or answer, so no workflow history holds it.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../src/db/database.ts';
import { mandateRowById, releaseMandateDebit } from '../src/db/mandates.ts';
import { mandateDebitById, markMandateDebitTaken, recordDebitAuthority } from '../src/db/mandate-debits.ts';
import type { MandateDebitRow } from '../src/db/schema.ts';
import type { DebitClaim, DebitStep } from '../src/domain/debit-workflow.ts';
import { ProviderRefusalError } from '../src/direct-debit/providers/contract.ts';
import type { DirectDebitProviders } from '../src/direct-debit/providers/registry.ts';
import type { Logger } from '../src/logger.ts';
import type { SignatureBox } from './mandates.ts';
import { paymentRecordGuard } from './payment-record.ts';

export interface DebitActivityDependencies {
  db: Db;
  logger: Logger;
  providers: DirectDebitProviders;
  box: SignatureBox;
}

export type DebitActivities = ReturnType<typeof createDebitActivities>;

export function createDebitActivities({ db, logger, providers, box }: DebitActivityDependencies) {
  const guard = paymentRecordGuard(logger);

  /** The debit and its mandate, once the workflow's claim is checked against both records. */
  const recorded = async (activity: string, claim: DebitClaim) => {
    await guard.read(db, activity, {
      payment_id: claim.payment_id,
      mode: claim.mode,
      amount: claim.amount,
      merchant_id: claim.merchant_id,
    });
    const debit = await mandateDebitById(db, claim.debit_id);
    if (debit === undefined || debit.payment_id !== claim.payment_id || Number(debit.amount) !== claim.amount)
      throw ApplicationFailure.nonRetryable(`debit ${claim.debit_id} is not this payment's`, 'record_mismatch');
    const mandate = await mandateRowById(db, debit.mandate_id);
    if (mandate === undefined)
      throw ApplicationFailure.nonRetryable(`no mandate ${debit.mandate_id}`, 'MandateMissing');
    return { debit, mandate, provider: providers[mandate.mode] };
  };

  const refused = (debit: MandateDebitRow, code: number, step: string): DebitStep => {
    logger.warn({ debit_id: debit.id, mandate_id: debit.mandate_id, provider_code: code, step }, 'debit refused');
    return { outcome: 'refused', provider_code: code };
  };

  return {
    /** Names the debit's transaction at the provider and records its authority before any money moves. */
    async prepareDebitAtProvider(claim: DebitClaim): Promise<DebitStep> {
      const { debit, mandate, provider } = await recorded('prepareDebitAtProvider', claim);
      if (debit.status === 'failed') return { outcome: 'refused', provider_code: 0 };
      if (debit.provider_authority !== null || debit.status === 'taken') return { outcome: 'prepared' };
      if (provider === undefined) return refused(debit, 0, 'prepare');
      try {
        const { authority } = await provider.prepareDebit({
          debitId: debit.id,
          amount: claim.amount,
          mobile: mandate.mobile,
          returnUrl: mandate.return_url,
        });
        await recordDebitAuthority(db, debit.id, authority);
        return { outcome: 'prepared' };
      } catch (error) {
        if (!(error instanceof ProviderRefusalError)) throw error;
        return refused(debit, error.code, 'prepare');
      }
    },

    /**
     * Takes the money of the recorded authority under the mandate's signature (the module's header says
     * why a retry is safe), then marks the debit taken with the provider's reference.
     */
    async takeDebitAtProvider(claim: DebitClaim): Promise<DebitStep> {
      const { debit, mandate, provider } = await recorded('takeDebitAtProvider', claim);
      if (debit.status === 'taken' && debit.provider_reference !== null)
        return { outcome: 'taken', reference: debit.provider_reference };
      if (debit.status === 'failed') return { outcome: 'refused', provider_code: 0 };
      if (debit.provider_authority === null)
        throw ApplicationFailure.nonRetryable(`debit ${debit.id} has no authority yet`, 'debit_not_prepared');
      // A mandate canceled at the provider since keeps its sealed signature: the provider refuses it then.
      if (provider === undefined || mandate.signature_sealed === null) return refused(debit, 0, 'checkout');
      try {
        const taken = await provider.debit({
          debitId: debit.id,
          authority: debit.provider_authority,
          signature: box.open(mandate.signature_sealed, mandate.id),
          amount: claim.amount,
        });
        await markMandateDebitTaken(db, debit.id, taken.reference, new Date());
        const now = await mandateDebitById(db, debit.id);
        return { outcome: 'taken', reference: now?.provider_reference ?? taken.reference };
      } catch (error) {
        if (!(error instanceof ProviderRefusalError)) throw error;
        return refused(debit, error.code, 'checkout');
      }
    },

    /** Gives a refused debit's counts back (once, by the debit's status: a taken debit is never released). */
    async releaseDebitReservation({ debit_id }: { debit_id: string }): Promise<void> {
      await releaseMandateDebit(db, debit_id);
    },
  };
}
