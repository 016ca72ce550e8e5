import type { Db } from '../../src/db/database.ts';
import { checkLedger, type CheckScope } from '../../src/ledger/check.ts';

/**
 * Fails with the breaks found when the ledger's invariants do not hold (docs/LEDGER.md#invariants).
 * The main suite names its merchants: some of its tests seed records straight into the tables,
 * without the movements (or the consistency) the gateway's own writes have.
 */
export async function assertLedgerBalanced(db: Db, when: string, scope: CheckScope = {}): Promise<void> {
  const report = await checkLedger(db, scope);
  if (!report.ok) throw new Error(`ledger check ${when}: ${report.break_count} break(s): ${JSON.stringify(report.breaks.slice(0, 10))}`);
}
