/**
 * Housekeeping activities: deleting records nobody needs any more.
 */
import type { Db } from '../src/db/database.ts';
import { deleteExpiredIdempotencyKeys } from '../src/db/maintenance.ts';
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
      const deleted = await deleteExpiredIdempotencyKeys(db, new Date(), batch_size);
      if (deleted > 0) logger.info({ deleted }, 'expired idempotency keys deleted');
      return deleted;
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;
