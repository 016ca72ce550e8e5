/**
 * The merchant's audit log (docs/DASHBOARD.md#audit-log): one row per
 * dashboard action, appended by `recordAudit` and never changed, read newest
 * first by the Security page.
 */
import type { AuditAction } from '../domain/audit.ts';
import type { Db } from './database.ts';

/** Longest user agent kept: enough to tell browsers apart, not a place to store a payload. */
export const AUDIT_USER_AGENT_MAX = 255;
const ADDRESS_MAX = 64;
const DETAIL_MAX = 300;

export interface AuditEntry {
  action: AuditAction;
  /** The merchant whose log shows it; undefined only when no merchant is known (an unknown address failing to sign in). */
  merchantId?: string;
  /** Who did it, when known. */
  userId?: string;
  /** What it was done to, in a few words (a key's prefix, a domain). Never a secret. */
  detail?: string;
  /** Where from: the client's address and user agent as the request carried them. */
  address: string;
  userAgent: string;
}

/** Records one action. Callers await it after the action: a record that cannot be written fails the request rather than vanish. */
export async function recordAudit(db: Db, entry: AuditEntry, now = new Date()): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      created_at: now,
      merchant_id: entry.merchantId ?? null,
      user_id: entry.userId ?? null,
      action: entry.action,
      detail: (entry.detail ?? '').slice(0, DETAIL_MAX),
      address: entry.address.slice(0, ADDRESS_MAX),
      user_agent: entry.userAgent.slice(0, AUDIT_USER_AGENT_MAX),
    })
    .execute();
}

export interface AuditRow {
  id: number;
  created_at: Date;
  /** An AuditAction; typed as text because rows outlive the list (a name dropped later still shows). */
  action: string;
  /** The address of the user who did it, if still known. */
  email: string | null;
  detail: string;
  address: string;
  user_agent: string;
}

/**
 * One page of a merchant's entries, newest first; `before` is the id of the
 * previous page's last entry. `next` is the id to ask for the page after, if any.
 */
export async function listAudit(
  db: Db,
  merchantId: string,
  options: { limit: number; before?: number },
): Promise<{ entries: AuditRow[]; next: number | undefined }> {
  let query = db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.user_id')
    .select([
      'audit_log.id',
      'audit_log.created_at',
      'audit_log.action',
      'audit_log.detail',
      'audit_log.address',
      'audit_log.user_agent',
      'users.email',
    ])
    .where('audit_log.merchant_id', '=', merchantId)
    .orderBy('audit_log.id', 'desc')
    .limit(options.limit + 1);
  if (options.before !== undefined) query = query.where('audit_log.id', '<', options.before);
  const rows = await query.execute();
  const kept = rows.slice(0, options.limit);
  return {
    entries: kept.map((r) => ({ ...r, id: Number(r.id) })),
    next: rows.length > options.limit ? Number(kept.at(-1)!.id) : undefined,
  };
}
