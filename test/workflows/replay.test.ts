/**
 * Every committed workflow history replays on the current workflow code, in
 * the unit tier (no MySQL, no API): a change that would break executions in
 * flight fails here within seconds. The main suite's replay tests record
 * these fixtures from real runs (RECORD_…=v<n>) and replay fresh histories too.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { committedHistories, replayAll } from '../support/replay.ts';
import { prepareWorkflowTests, workflowBundle } from '../support/workflows/environment.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories');

describe('committed workflow histories replay on the current code', () => {
  before(async function () {
    this.timeout(120_000);
    await prepareWorkflowTests();
  });

  for (const [what, folder] of [
    ['payment and refunds workflows', FIXTURES],
    ['webhook deliveries', join(FIXTURES, 'webhook')],
    ['onboarding', join(FIXTURES, 'onboarding')],
    ['the stuck-records sweep', join(FIXTURES, 'sweep')],
    ['the retention workflow', join(FIXTURES, 'retention')],
    // The mandate's end ending its subscriptions (the patch mandate-ends-subscriptions), canceled and expired.
    ['direct debit mandates', join(FIXTURES, 'mandate')],
    // Not the settlement run's: it names its children with uuid4(), drawn from the workflow's random
    // source, which this tier's bundle (with the tracing interceptors) draws from differently than the
    // main suite's that recorded them; test/settlements/replay.test.ts replays them on that bundle.
  ] as const) {
    it(`${what}: every fixture replays`, async function () {
      this.timeout(60_000);
      const histories = committedHistories(folder);
      assert.ok(histories.length >= 2, `fixtures in ${folder}`);
      assert.equal(await replayAll(await workflowBundle(), histories), histories.length);
    });
  }
  // The settlement workflow's own histories replay here; the run's (v1-run) only in the main suite, as said above.
  it('settlement workflows: every fixture but the run replays', async function () {
    this.timeout(60_000);
    const histories = committedHistories(join(FIXTURES, 'settlement')).filter(
      (h) => !h.workflowId.endsWith('-run.history.bin'),
    );
    assert.ok(
      histories.some((h) => h.workflowId.startsWith('v2-')),
      'the one-by-one beneficiary payouts are committed',
    );
    assert.equal(await replayAll(await workflowBundle(), histories), histories.length);
  });
});
