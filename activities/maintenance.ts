/**
 * Housekeeping activities: deleting records nobody needs any more.
 */
import type { Db } from '../src/db/database.ts';
import type { Logger } from '../src/logger.ts';

export interface MaintenanceActivityDependencies {
  db: Db;
  logger: Logger;
}

export function createMaintenanceActivities({ db, logger }: MaintenanceActivityDependencies) {
  return {
    /**
     * Deletes up to `batch_size` expired Idempotency-Key records (oldest
     * first, by the expires_at index) and answers how many went. A record a
     * request still holds (locked) is left alone. Safe to repeat.
     */
    async deleteExpiredIdempotencyKeys({ batch_size }: { batch_size: number }): Promise<number> {
      const now = new Date();
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('expires_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .orderBy('expires_at')
        .limit(batch_size)
        .executeTakeFirst();
      const deleted = Number(result.numDeletedRows);
      if (deleted > 0) logger.info({ deleted }, 'expired idempotency keys deleted');
      return deleted;
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;
