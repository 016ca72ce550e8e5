import { PSP_NAMES, pspSettingName } from '../../src/psps/profiles.ts';
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
    // Every browser and client of the suite signs in from loopback: one test's wrong passwords and codes must not
    // throttle the next (in production the 15-minute window passes; tests of the throttle fill it themselves).
    await h.db.deleteFrom('rate_limit_counters').where('bucket', 'like', 'signin-%').execute();
    // The suite's simulators (one per registered PSP) are every test's PSPs: a test that takes SEP's token service down must not leave its
    // breaker open for the next test's payments (which would go to Mellat first). Terminals a test runs of its
    // own (the failover test's) keep their state from one of its steps to the next.
    const suiteTerminals = PSP_NAMES.map((psp) => h.config[pspSettingName(psp, 'test', 'TERMINAL_ID')]);
    await h.db.deleteFrom('psp_health').where('terminal_id', 'in', suiteTerminals).execute();
    // Nor leave one of them reserved for its own merchants: every other test's payments would skip it.
    await h.db.deleteFrom('psp_terminal_reservations').where('terminal_id', 'in', suiteTerminals).execute();
    await assertLedgerBalancedSince(h.db, testStarted, `after "${this.currentTest?.fullTitle() ?? 'a test'}"`).catch(
      (error: unknown) => {
        breaks.push(error instanceof Error ? error.message : String(error));
      },
    );
  },
  async afterAll(this: unknown) {
    try {
      if (breaks.length > 0)
        throw new Error(`the ledger check failed after ${breaks.length} test(s):\n${breaks.join('\n')}`);
    } finally {
      await closeHarness();
    }
  },
};
