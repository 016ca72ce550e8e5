import assert from 'node:assert/strict';
import { getHarness, newMerchant } from '../support/harness.ts';
import { runBenchmark, QUICK_PLAN, type BenchPlan } from '../../tools/bench/run.ts';
import { dayFates } from '../../tools/bench/day.ts';
import { PAYMENT_WORKFLOW } from '../../src/domain/payment-workflow.ts';

// Keeps the benchmark's code path working on tiny numbers. It asserts what the
// run did, never how fast: timing claims come only from `npm run bench`.
describe('benchmark code path', function () {
  this.timeout(240_000);

  it('runs every scenario, the durable baseline, two simulated days, the work per payment and the fixed-rate load against the real services', async () => {
    const h = await getHarness();
    const merchant = await newMerchant();
    const plan: BenchPlan = {
      connections: 2,
      warmup: 4,
      create: 6,
      verify: 4,
      fullFlow: 3,
      maxSeconds: 60,
      scaleCheckpoints: [12, 24],
      scaleMix: QUICK_PLAN.scaleMix,
      scaleInFlight: 3,
      scaleProbe: 4,
      fillConcurrency: 4,
      fixedRates: { create: 4, verify: 2 },
      fixedRateSeconds: 2,
    };
    const report = await runBenchmark(
      {
        target: { baseUrl: h.baseUrl, key: merchant.key },
        db: h.db,
        temporal: h.temporal.client,
        config: h.config,
        merchant: {
          id: merchant.merchantId,
          fee_plan: { bps: h.config.FEE_BPS, min: h.config.FEE_MIN, max: h.config.FEE_MAX },
        },
        workerPid: process.pid, // the suite's worker runs in this process
        log: () => {},
      },
      plan,
    );

    assert.deepEqual(
      report.scenarios.map((s) => s.name),
      ['create', 'verify', 'full_flow'],
    );
    for (const scenario of report.scenarios) {
      assert.equal(scenario.errors, 0, `${scenario.name} had errors`);
      assert.ok(
        scenario.rps > 0 && scenario.p99_ms >= scenario.p50_ms,
        `${scenario.name}: ${JSON.stringify(scenario)}`,
      );
    }
    const [create, verify, fullFlow] = report.scenarios;
    assert.equal(create!.requests, plan.create);
    assert.equal(verify!.requests, plan.verify);
    assert.ok((fullFlow!.payments ?? 0) >= plan.fullFlow, `full_flow verified ${fullFlow!.payments} payments`);
    assert.equal(report.baseline.operations, plan.create);
    // The ratios `--check` holds to their floors (tools/bench/budget.ts), of the same run's baseline.
    assert.ok(report.create_to_baseline > 0 && report.full_flow_to_baseline > 0, JSON.stringify(report.baseline));

    const verified = await h.db
      .selectFrom('payments')
      .select('id')
      .where('merchant_id', '=', merchant.merchantId)
      .where('status', '=', 'verified')
      .execute();
    assert.ok(verified.length >= plan.verify + plan.fullFlow, `${verified.length} verified payments`);

    // Each day ends its payments as its mix says; the next day begins by expiring what was left on the page.
    const verifiedPerDay = dayFates(12, plan.scaleMix, plan.scaleInFlight).filter(
      (fate) => fate === 'verified' || fate === 'refunded',
    ).length;
    assert.deepEqual(
      report.scale.map((p) => [p.payments, p.verified_payments, p.in_flight]),
      [
        [12, verifiedPerDay, plan.scaleInFlight],
        [24, 2 * verifiedPerDay, plan.scaleInFlight],
      ],
    );
    for (const point of report.scale) {
      // The suite's server runs other tests' workflows too: at least this merchant's payments in flight are open.
      const openPayments = point.open_workflows_by_type[PAYMENT_WORKFLOW] ?? 0;
      assert.ok(openPayments >= point.in_flight, JSON.stringify(point));
      assert.ok(point.open_workflows >= openPayments);
      assert.ok(point.worker_rss_mb > 0);
      assert.equal(point.create_errors, 0);
    }

    // Work per payment: counted from the histories of every payment full_flow verified.
    const work = report.per_payment;
    assert.equal(work.payments_counted, fullFlow!.payments);
    // The side effects run as activities or as local activities (markers), whichever the workflow type does.
    assert.ok(
      work.runs >= 1 && work.workflow_tasks >= 1 && work.activity_tasks + work.local_activities >= 1,
      JSON.stringify(work),
    );
    assert.ok(
      work.history_events > work.workflow_tasks + work.activity_tasks + work.local_activities,
      JSON.stringify(work),
    );
    assert.ok(work.updates >= 1, 'a verified payment accepted at least its verify update');
    assert.ok(work.worker_cpu_ms > 0, JSON.stringify(work));

    // Fixed rate: every request of the schedule sent and answered as expected.
    assert.deepEqual(
      report.fixed_rate.map((f) => [f.name, f.rate, f.requests, f.errors]),
      [
        ['create', 4, 8, 0],
        ['verify', 2, 4, 0],
      ],
    );
    for (const f of report.fixed_rate) assert.ok(f.p99_ms >= f.p50_ms && f.p50_ms > 0, JSON.stringify(f));
  });
});
