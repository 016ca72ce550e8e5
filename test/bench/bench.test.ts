import assert from 'node:assert/strict';
import { getHarness, newMerchant } from '../support/harness.ts';
import { runBenchmark, type BenchPlan } from '../../src/bench/run.ts';

// Keeps the benchmark's code path working on tiny numbers. It asserts what the
// run did, never how fast: timing claims come only from `npm run bench`.
describe('benchmark code path', function () {
  this.timeout(240_000);

  it('runs every scenario, the durable baseline and a scale checkpoint against the real services', async () => {
    const h = await getHarness();
    const merchant = await newMerchant();
    const plan: BenchPlan = {
      connections: 2,
      warmup: 4,
      create: 6,
      verify: 4,
      fullFlow: 3,
      maxSeconds: 60,
      scaleCheckpoints: [20],
      scaleProbe: 4,
      fillConcurrency: 4,
    };
    const report = await runBenchmark(
      {
        target: { baseUrl: h.baseUrl, key: merchant.key },
        db: h.db,
        temporal: h.temporal.client,
        config: h.config,
        merchant: { id: merchant.merchantId, fee_plan: { bps: h.config.FEE_BPS, min: h.config.FEE_MIN, max: h.config.FEE_MAX } },
        workerPid: process.pid, // the suite's worker runs in this process
        log: () => {},
      },
      plan,
    );

    assert.deepEqual(report.scenarios.map((s) => s.name), ['create', 'verify', 'full_flow']);
    for (const scenario of report.scenarios) {
      assert.equal(scenario.errors, 0, `${scenario.name} had errors`);
      assert.ok(scenario.rps > 0 && scenario.p99_ms >= scenario.p50_ms, `${scenario.name}: ${JSON.stringify(scenario)}`);
    }
    const [create, verify, fullFlow] = report.scenarios;
    assert.equal(create!.requests, plan.create);
    assert.equal(verify!.requests, plan.verify);
    assert.ok((fullFlow!.payments ?? 0) >= plan.fullFlow, `full_flow verified ${fullFlow!.payments} payments`);
    assert.equal(report.baseline.operations, plan.create);

    const verified = await h.db.selectFrom('payments').select('id').where('merchant_id', '=', merchant.merchantId).where('status', '=', 'verified').execute();
    assert.ok(verified.length >= plan.verify + plan.fullFlow, `${verified.length} verified payments`);

    assert.equal(report.scale.length, 1);
    assert.ok(report.scale[0]!.open_payments >= 20);
    assert.ok(report.scale[0]!.worker_rss_mb > 0);
    assert.equal(report.scale[0]!.create_errors, 0);
  });
});
