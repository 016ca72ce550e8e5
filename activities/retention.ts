/**
 * The retention workflow's activities (workflows/retention.ts): the plan of a
 * run, and one bounded batch of one pruned table's rule (src/db/retention.ts).
 * Periods come from this worker's configuration, read at each batch, so a
 * changed setting applies from the next batch. Safe to repeat: a batch
 * deletes only rows past their period, and a repeated one finds fewer.
 */
import type { Config } from '../src/config.ts';
import type { DocumentStore } from '../src/adapters/document-store.ts';
import type { Db } from '../src/db/database.ts';
import { PRUNERS } from '../src/db/retention.ts';
import { PRUNE_ORDER, type PrunedTable } from '../src/domain/retention.ts';
import type { Logger } from '../src/logger.ts';
import { retentionPrunedRows } from '../src/observability/metrics.ts';

export interface RetentionActivityDependencies {
  db: Db;
  logger: Logger;
  config: Pick<Config, 'EVENT_RETENTION_DAYS' | 'REJECTED_DOCUMENTS_RETENTION_DAYS' | 'DASHBOARD_SESSION_IDLE_SECONDS'>;
  /** Where the documents' files are: the worker prunes the files of the rows it prunes (the same DOCUMENTS_DIR as the API's). */
  documents: Pick<DocumentStore, 'remove'>;
}

const DAY_MS = 86_400_000;

export function createRetentionActivities({ db, logger, config, documents }: RetentionActivityDependencies) {
  return {
    /** The pruned tables in the order a run takes them (a row before the row it references); recorded in the run's history. */
    async retentionPlan(): Promise<PrunedTable[]> {
      return [...PRUNE_ORDER];
    },

    /** Deletes up to `batch_size` rows of `table` past their period, and answers how many went. */
    async pruneRetentionBatch({ table, batch_size }: { table: PrunedTable; batch_size: number }): Promise<number> {
      const pruner = PRUNERS[table];
      // A history recorded by a newer worker may name a table this one does not know: nothing to do here.
      if (pruner === undefined) return 0;
      const { deleted, files = [] } = await pruner(db, {
        now: new Date(),
        batchSize: batch_size,
        eventsKeepMs: config.EVENT_RETENTION_DAYS * DAY_MS,
        rejectedDocumentsKeepMs: config.REJECTED_DOCUMENTS_RETENTION_DAYS * DAY_MS,
        sessionIdleMs: config.DASHBOARD_SESSION_IDLE_SECONDS * 1000,
      });
      // The rows are gone first, so no row ever names a missing file; a file left by a crash here is only bytes.
      for (const file of files) await documents.remove(file.merchant_id, file.id);
      if (deleted > 0) {
        retentionPrunedRows.inc({ table }, deleted);
        logger.info(
          { table, deleted, ...(files.length > 0 ? { files_removed: files.length } : {}) },
          'retention: rows past their period deleted',
        );
      }
      return deleted;
    },
  };
}

export type RetentionActivities = ReturnType<typeof createRetentionActivities>;
