import type { Db } from '../../src/db/database.ts';
import { checkLedger, type CheckScope } from '../../src/ledger/check.ts';

/**
 * Fails with the breaks found when the ledger's invariants do not hold (docs/LEDGER.md#invariants).
 * Returns the report (its last_posting_id lets the next check go on from there).
 */
export async function assertLedgerBalanced(db: Db, when: string, scope: CheckScope = {}) {
  const report = await checkLedger(db, scope);
  if (!report.ok)
    throw new Error(
      `ledger check ${when}: ${report.break_count} break(s): ${JSON.stringify(report.breaks.slice(0, 10))}`,
    );
  return report;
}

/**
 * Merchants whose records a test wrote straight into the tables (a report over 50,000 payments, a
 * page for a payment no workflow runs): they have no movements to agree with, so the check after
 * each test leaves them out. Nothing else may be.
 */
const seeded = new Set<string>();
export function markSeeded(merchantId: string): void {
  seeded.add(merchantId);
}

let checkedThrough = 0;

/**
 * The check after each test of the main suite: every posting made since the last check balances,
 * all entries sum to zero, and every merchant the test touched (created, posted for, or whose
 * payments changed since `since`) agrees with its records. Incremental, so it stays cheap as the
 * suite's ledger grows.
 */
export async function assertLedgerBalancedSince(db: Db, since: Date, when: string): Promise<void> {
  const touched = await db
    .selectFrom('merchants')
    .select('id')
    .where('created_at', '>=', since)
    .union(db.selectFrom('ledger_postings').select('merchant_id as id').where('id', '>', checkedThrough))
    .union(db.selectFrom('payments').select('merchant_id as id').where('updated_at', '>=', since))
    .execute();
  const merchantIds = touched.map((m) => m.id).filter((id) => !seeded.has(id));
  const report = await assertLedgerBalanced(db, when, { merchantIds, postingsAfter: checkedThrough });
  checkedThrough = report.last_posting_id;
}
