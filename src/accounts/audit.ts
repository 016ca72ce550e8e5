/**
 * The merchant's audit log as the dashboard keeps it (docs/DASHBOARD.md#audit-log): every dashboard
 * action appended once it is done, and the Security page's pages of entries, newest first. The
 * rows are src/db/audit.ts's; the actions and their words are src/domain/audit.ts's.
 */
import { listAudit, recordAudit, type AuditEntry, type AuditRow } from '../db/audit.ts';
import type { Db } from '../db/database.ts';

export type { AuditEntry, AuditRow };

/** Records one action. Awaited after the action: a record that cannot be written fails the request rather than vanish. */
export function auditAction(db: Db, entry: AuditEntry, now = new Date()): Promise<void> {
  return recordAudit(db, entry, now);
}

/**
 * One page of the merchant's entries, newest first; `before` is the id of the previous page's last
 * entry, `next` the id to ask for the page after, if any.
 */
export function auditLogPage(
  db: Db,
  merchantId: string,
  options: { limit: number; before?: number },
): Promise<{ entries: AuditRow[]; next: number | undefined }> {
  return listAudit(db, merchantId, options);
}
