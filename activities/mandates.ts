/**
 * The mandate workflow's activities (docs/SUBSCRIPTIONS.md#mandates): asking the provider for the
 * mandate, fetching and sealing its signature, ending it, cancelling it at the provider. Each is
 * idempotent (a retry finds what its first run wrote) and none returns or logs the signature: it is
 * fetched and sealed inside `activateMandate`, and opened only inside `cancelMandateAtProvider`, so it
 * never enters a workflow's history.
 */
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/activity';
import type { Db } from '../src/db/database.ts';
import { eventIdFor, storedEvent, type StoredEvent } from '../src/db/events.ts';
import {
  activateMandate as activateMandateRow,
  endMandate as endMandateRow,
  mandateRowById,
  recordMandateAuthority,
} from '../src/db/mandates.ts';
import type { MandateStatus } from '../src/domain/mandate.ts';
import { chargingSubscriptionIds } from '../src/db/subscriptions.ts';
import { cancelSubscriptionWorkflow } from '../src/temporal/subscriptions.ts';
import { ProviderRefusalError } from '../src/direct-debit/providers/contract.ts';
import type { DirectDebitProviders } from '../src/direct-debit/providers/registry.ts';
import type { Logger } from '../src/logger.ts';
import { dispatchEvent, type DeliveryConfig } from '../src/temporal/deliveries.ts';

/** Seals and opens the signature (src/accounts/secret-box.ts, given by the worker: activities do not import services). */
export interface SignatureBox {
  seal(plain: string, owner: string): string;
  open(stored: string, owner: string): string;
}

export interface MandateActivityDependencies {
  db: Db;
  logger: Logger;
  temporal: Client;
  providers: DirectDebitProviders;
  box: SignatureBox;
  config: DeliveryConfig;
}

export interface EndMandateInput {
  mandate_id: string;
  from: MandateStatus;
  to: 'declined' | 'canceled' | 'expired';
  failure_code?: string;
}

export type MandateActivities = ReturnType<typeof createMandateActivities>;

export function createMandateActivities({ db, logger, temporal, providers, box, config }: MandateActivityDependencies) {
  const row = async (id: string) => {
    const found = await mandateRowById(db, id);
    // A mandate's workflow starts after its row is written: no row is a bug, not a state to retry.
    if (found === undefined) throw ApplicationFailure.nonRetryable(`no mandate ${id}`, 'MandateMissing');
    return found;
  };
  const provider = (mode: 'test' | 'live') => providers[mode];

  /**
   * Hands the state's event to its deliveries. When the move was made by an earlier attempt (this one
   * found the mandate already there), the event that attempt stored is dispatched again: starting a
   * delivery is idempotent, and an attempt that stored the event but died before dispatching loses nothing.
   */
  const dispatch = async (id: string, status: MandateStatus, event: StoredEvent | undefined) => {
    const stored = event ?? (await storedEvent(db, eventIdFor(`mandate:${id}:${status}`)));
    if (stored !== undefined) await dispatchEvent(db, temporal, config, stored);
  };

  const end = async (
    id: string,
    from: MandateStatus,
    to: 'declined' | 'canceled' | 'expired',
    failureCode?: string,
  ): Promise<MandateStatus> => {
    const event = await endMandateRow(db, id, from, to, new Date(), failureCode);
    const now = await row(id);
    if (now.status === to) await dispatch(id, to, event);
    return now.status as MandateStatus;
  };

  return {
    /**
     * Registers the mandate at its provider: 'requested', or 'refused' (the provider said no, or the mode
     * has no provider), which ends it `declined`. The first authority is kept; a retry after a lost
     * answer may register a second contract at the provider, which nobody signs and which lapses there.
     */
    async requestMandateAtProvider({
      mandate_id: id,
      return_url: returnUrl,
    }: {
      mandate_id: string;
      return_url: string;
    }): Promise<'requested' | 'refused'> {
      const mandate = await row(id);
      if (mandate.provider_authority !== null) return 'requested';
      const p = provider(mandate.mode);
      if (p === undefined) return 'refused';
      try {
        const { authority } = await p.requestMandate({
          mandateId: id,
          mobile: mandate.mobile,
          nationalCode: mandate.national_code,
          maxAmount: mandate.max_amount,
          maxDailyCount: mandate.max_daily_count,
          maxMonthlyCount: mandate.max_monthly_count,
          expiresAt: mandate.expires_at,
          returnUrl,
        });
        await recordMandateAuthority(db, id, authority);
        return 'requested';
      } catch (error) {
        if (!(error instanceof ProviderRefusalError)) throw error;
        logger.warn({ mandate_id: id, provider_code: error.code }, 'the provider refused the mandate');
        return 'refused';
      }
    },

    /**
     * After a signed return: fetches the signature, seals it and activates the mandate in one step, so
     * the signature is never an activity's answer. The provider saying it is not signed declines it.
     */
    async activateMandate(id: string): Promise<MandateStatus> {
      const mandate = await row(id);
      if (mandate.status !== 'pending') {
        if (mandate.status === 'active') await dispatch(id, 'active', undefined);
        return mandate.status as MandateStatus;
      }
      const p = provider(mandate.mode);
      if (p === undefined || mandate.provider_authority === null) return end(id, 'pending', 'declined', 'not_signed');
      let signature: string;
      try {
        signature = await p.signature(mandate.provider_authority, id);
      } catch (error) {
        if (!(error instanceof ProviderRefusalError)) throw error;
        return end(id, 'pending', 'declined', 'not_signed');
      }
      const event = await activateMandateRow(db, id, box.seal(signature, id), new Date());
      const now = await row(id);
      if (now.status === 'active') await dispatch(id, 'active', event);
      return now.status as MandateStatus;
    },

    /** Ends a mandate still in `from` (declined, canceled or expired) with its event; answers its status. */
    async endMandate(input: EndMandateInput): Promise<MandateStatus> {
      return end(input.mandate_id, input.from, input.to, input.failure_code);
    },

    /**
     * Cancels every subscription of the ended mandate still charging, each through its own workflow's
     * cancel Update (the workflow alone moves its subscription; it records `canceled` with the reason
     * and sends subscription.canceled), all at once so one waiting for a charge in flight holds up no
     * other. A retry asks again: a canceled subscription's cancel answers it as it is. A subscription
     * whose workflow is not found yet (its create died before starting it) is left to its charges,
     * which the admission refuses on this mandate until the retries cancel it.
     */
    async endMandateSubscriptions({
      mandate_id: id,
      reason,
    }: {
      mandate_id: string;
      reason: 'mandate_canceled' | 'mandate_expired';
    }): Promise<number> {
      const ids = await chargingSubscriptionIds(db, id);
      await Promise.all(ids.map((sid) => cancelSubscriptionWorkflow(temporal, sid, { at_period_end: false, reason })));
      if (ids.length > 0)
        logger.info({ mandate_id: id, reason, subscriptions: ids.length }, 'mandate ended its subscriptions');
      return ids.length;
    },

    /**
     * Ends the mandate at the provider, so no debit can be taken there either. The provider refusing
     * (its contract already ended, by the customer at the bank) leaves nothing to end: done.
     */
    async cancelMandateAtProvider(id: string): Promise<void> {
      const mandate = await row(id);
      const p = provider(mandate.mode);
      if (mandate.signature_sealed === null || p === undefined) return;
      try {
        await p.cancel(box.open(mandate.signature_sealed, id), id);
      } catch (error) {
        if (!(error instanceof ProviderRefusalError)) throw error;
        logger.info({ mandate_id: id, provider_code: error.code }, 'the provider had no contract to cancel');
      }
    },
  };
}
