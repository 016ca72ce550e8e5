import { closeHarness } from '../harness.ts';
import { assertLedgerBalanced } from '../ledger.ts';
import { closeFaultStack, startedFaultStack, thawTemporal } from './fault-stack.ts';

// The private services of the fault suite are built on first use and torn down once, at the end.
export const mochaHooks = {
  // Every scenario ends with a ledger check: whatever was killed, frozen or raced, the ledger balances
  // and agrees with the records (each posting is written in the transaction of its record).
  async afterEach(this: unknown) {
    const s = await startedFaultStack()?.catch(() => undefined);
    if (s === undefined) return;
    // A scenario that failed half-way may have left a service stopped.
    s.mariadb.thaw();
    thawTemporal(s);
    await assertLedgerBalanced(s.db, 'after the scenario');
  },
  async afterAll(this: unknown) {
    await closeFaultStack();
    await closeHarness();
  },
};
