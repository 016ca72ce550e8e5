import { closeHarness, startedHarness } from './harness.ts';
import { assertLedgerBalancedSince } from './ledger.ts';

let testStarted = new Date();
const breaks: string[] = [];

// Services are built on first use and closed once, after the whole suite. After each test, the ledger
// balances and agrees with the records of what the test touched (docs/LEDGER.md#invariants); a break
// is named with its test and fails the suite at its end, without stopping the tests that follow.
export const mochaHooks = {
  beforeEach(this: unknown) {
    // A second of margin: MySQL's datetime(3) and this clock are the same machine's, rounded differently.
    testStarted = new Date(Date.now() - 1_000);
  },
  async afterEach(this: Mocha.Context) {
    const h = await startedHarness();
    if (h === undefined) return;
    await assertLedgerBalancedSince(h.db, testStarted, `after "${this.currentTest?.fullTitle() ?? 'a test'}"`).catch((error: unknown) => {
      breaks.push(error instanceof Error ? error.message : String(error));
    });
  },
  async afterAll(this: unknown) {
    try {
      if (breaks.length > 0) throw new Error(`the ledger check failed after ${breaks.length} test(s):\n${breaks.join('\n')}`);
    } finally {
      await closeHarness();
    }
  },
};
