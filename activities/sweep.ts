/**
 * The stuck-records sweep's activities (docs/RELIABILITY.md#waiting-states):
 * each finds one kind of record past its bound and drives it on by the path
 * a retry takes, a bounded batch at a time. Each is idempotent: a refund is
 * sent on under its own refund id (its update id, and the bank's key), a
 * delivery is started under its derived id (at most once), a payout is asked
 * again under its attempt's key (the bank answers with the transfer it made).
 * One record that cannot be moved now is logged and left to the next run.
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { paymentByIdOrThrow, paymentFromRow } from '../src/db/payments.ts';
import {
  EVENT_LOOKBACK_MS,
  eventsWithoutDeliveryBefore,
  pendingRefundsBefore,
  unansweredPayoutsBefore,
} from '../src/db/stuck.ts';
import { webhookDeliveryWorkflowId } from '../src/domain/webhook-delivery.ts';
import type { StuckSweepInput } from '../src/domain/waiting-states.ts';
import type { Logger } from '../src/logger.ts';
import { startDelivery, type DeliveryConfig } from '../src/temporal/deliveries.ts';
import { takeRefund } from '../src/temporal/refunds.ts';
import { startPayoutAttempt } from '../src/temporal/settlements.ts';

export interface SweepActivityDependencies {
  db: Db;
  logger: Logger;
  temporal: Client;
  config: DeliveryConfig & Pick<Config, 'REFUND_WINDOW_SECONDS'>;
}

/** A run stops starting new items after this long, well within its activity's 2 minutes: the next run goes on. */
const RUN_BUDGET_MS = 60_000;

export function createSweepActivities({ db, logger, temporal, config }: SweepActivityDependencies) {
  /** Moves each item on; answers how many moved. A failure is the item's alone: the next run tries it again. */
  async function each<T>(
    what: string,
    items: T[],
    id: (item: T) => string,
    move: (item: T) => Promise<void>,
  ): Promise<number> {
    let moved = 0;
    const stopAt = Date.now() + RUN_BUDGET_MS;
    for (const item of items) {
      if (Date.now() > stopAt) break;
      try {
        await move(item);
        moved += 1;
      } catch (error) {
        logger.warn(
          { [what]: id(item), err: (error as Error).message },
          `stuck ${what} not sent on; the next sweep tries again`,
        );
      }
    }
    if (moved > 0) logger.info({ kind: what, moved, found: items.length }, 'stuck records sent on');
    return moved;
  }

  return {
    /**
     * Refunds `pending` past the bound: each is sent to its payment's refunds workflow as the same
     * Update a retried request is (`refund-<refund id>`). The run finds it recorded and pays it out
     * under its own id, so the bank pays it once; a run already paying it out just answers.
     */
    async sendOnPendingRefunds({ after_ms, batch_size }: StuckSweepInput): Promise<number> {
      const refunds = await pendingRefundsBefore(db, new Date(Date.now() - after_ms), batch_size);
      return each(
        'refund',
        refunds,
        (r) => r.id,
        async (refund) => {
          const row = await paymentByIdOrThrow(db, refund.payment_id);
          await takeRefund(temporal, config, refund.merchant_id, paymentFromRow(row), {
            refund_id: refund.id,
            amount: Number(refund.amount),
            reason: refund.reason,
          });
        },
      );
    },

    /** Events an endpoint subscribed to has no attempt of, past the bound: their first delivery is started. */
    async startMissingDeliveries({ after_ms, batch_size }: StuckSweepInput): Promise<number> {
      const now = Date.now();
      const missing = await eventsWithoutDeliveryBefore(db, {
        before: new Date(now - after_ms),
        since: new Date(now - EVENT_LOOKBACK_MS),
        limit: batch_size,
      });
      return each(
        'event',
        missing,
        (m) => m.event_id,
        (m) =>
          startDelivery(
            temporal,
            config,
            m.event_id,
            m.endpoint_id,
            webhookDeliveryWorkflowId(m.event_id, m.endpoint_id),
          ),
      );
    },

    /**
     * Settlements `pending` past the bound: the payout attempt is asked again under its key, by the
     * settlement workflow of that attempt (started again only when no run of it is open).
     */
    async askUnansweredPayouts({ after_ms, batch_size }: StuckSweepInput): Promise<number> {
      const settlements = await unansweredPayoutsBefore(db, new Date(Date.now() - after_ms), batch_size);
      return each(
        'settlement',
        settlements,
        (s) => s.id,
        (row) => startPayoutAttempt(temporal, config, row, { again: true }),
      );
    },
  };
}

export type SweepActivities = ReturnType<typeof createSweepActivities>;
