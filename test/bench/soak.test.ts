import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { observeWorkerThreadHeaps, serveMetrics } from '../../src/observability/metrics.ts';
import { DEFAULT_DAY_MIX } from '../../tools/bench/day.ts';
import { sqliteBytes, type WatchedProcess } from '../../tools/bench/sample.ts';
import { DEFAULT_SOAK_PLAN, OPERATIONS, runSoak, type SoakPlan, type SoakReport } from '../../tools/bench/soak.ts';
import { formatSoakReport, writeSoakOutputs } from '../../tools/bench/soak-cli.ts';

/**
 * Checks that `text` is well-formed XML (one root; every tag closed in order; attributes
 * quoted; no raw < or stray & in text) and answers its root, element counts and texts.
 */
function parseXml(text: string): { root: string; elements: Map<string, number>; texts: string[] } {
  const stack: string[] = [];
  const elements = new Map<string, number>();
  const texts: string[] = [];
  let root: string | undefined;
  const body = text.replace(/^<\?xml[^?]*\?>\s*/, '');
  const entity = /&(?!(amp|lt|gt|quot|apos|#\d+);)/;
  for (const token of body.split(/(<[^>]*>)/)) {
    if (!token.startsWith('<')) {
      assert.ok(!token.includes('>') && !entity.test(token), `text ${JSON.stringify(token.slice(0, 60))}`);
      if (token.trim() !== '') texts.push(token);
      continue;
    }
    const close = /^<\/([A-Za-z][\w:-]*)\s*>$/.exec(token);
    if (close !== null) {
      assert.equal(stack.pop(), close[1], `closing ${token}`);
      continue;
    }
    const open = /^<([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>$/.exec(token);
    assert.ok(open !== null, `tag ${token.slice(0, 80)}`);
    assert.ok(root === undefined || stack.length > 0, 'one root element');
    root ??= open[1];
    elements.set(open[1]!, (elements.get(open[1]!) ?? 0) + 1);
    if (open[3] !== '/') stack.push(open[1]!);
  }
  assert.deepEqual(stack, [], 'every element closed');
  return { root: root ?? '', elements, texts };
}

// Keeps the soak's code path working on a few seconds of traffic. It asserts what the run did
// (counts: intervals, arrivals, fates, errors, storage, the files), never how fast.
describe('soak code path', function () {
  this.timeout(180_000);

  /** A soak against the suite's services: its API with a short page lifetime, this process's metrics. */
  async function soak(plan: SoakPlan): Promise<{ report: SoakReport; merchantId: string; checkpoints: SoakReport[] }> {
    const h = await getHarness();
    const merchant = await newMerchant();
    const baseUrl = await apiWith({ PAYMENT_TTL_SECONDS: String(plan.paymentTtlSeconds) });
    // The suite's worker and API run in this process: one process watched, its metrics served here.
    observeWorkerThreadHeaps();
    const metrics = await serveMetrics('127.0.0.1', 0);
    const processes: WatchedProcess[] = [
      { name: 'worker', pid: process.pid, metricsUrl: `http://127.0.0.1:${metrics.port}/metrics` },
    ];
    const temporalFile = process.env.TEMPORAL_DEV_DB ?? '';
    const checkpoints: SoakReport[] = [];
    try {
      const report = await runSoak(
        {
          target: { baseUrl, key: merchant.key },
          sources: {
            processes,
            db: h.db,
            temporal: h.temporal.client,
            temporalBytes: () => (temporalFile === '' ? 0 : sqliteBytes(temporalFile)),
          },
          log: () => {},
          checkpoint: (r) => checkpoints.push(structuredClone(r)),
        },
        plan,
      );
      return { report, merchantId: merchant.merchantId, checkpoints };
    } finally {
      metrics.server.close();
    }
  }

  const statuses = async (merchantId: string) => {
    const h = await getHarness();
    const rows = await h.db
      .selectFrom('payments')
      .select(['status', sql<number>`count(*)`.as('n')])
      .where('merchant_id', '=', merchantId)
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  };

  it('sends every arrival at a fixed rate through its fate, samples each interval, measures storage per payment and draws the curve', async () => {
    const plan: SoakPlan = {
      ...DEFAULT_SOAK_PLAN,
      minutes: 0.1,
      intervalSeconds: 2,
      rate: 4,
      mix: DEFAULT_DAY_MIX,
      verifyDelayMs: 50,
      // Short, so the abandoned pages expire within the test; longer than a busy 2-core machine's bank
      // step (seen at 3.5-5 s under a second suite's load), or a paying customer's page expires first
      // and the walk's verify never finds it paid.
      paymentTtlSeconds: 8,
    };
    const { report, merchantId, checkpoints } = await soak(plan);

    // 4 payments a second for 6 s, sampled every 2 s.
    assert.equal(report.rate_source, 'configured');
    assert.equal(report.totals.arrivals, 24);
    assert.equal(report.intervals.length, 3);
    assert.equal(
      report.intervals.reduce((sum, i) => sum + i.arrivals, 0),
      24,
    );
    assert.equal(report.intervals.at(-1)!.arrivals_total, 24);
    // After the traffic, samples every interval while the last pages expire (TTL + 5 s): the last is the final one.
    assert.ok(
      report.after.length >= 2 && report.after.at(-1) === report.final,
      `${report.after.length} samples after the traffic`,
    );
    // The report so far after every sample but the last (a run cut short leaves its curve), then the complete one.
    assert.equal(checkpoints.length, report.intervals.length + report.after.length - 1);
    assert.deepEqual(
      checkpoints.map((c) => c.complete),
      checkpoints.map(() => false),
    );
    assert.deepEqual(checkpoints.map((c) => c.intervals.length).slice(0, 3), [1, 2, 3]);
    assert.equal(report.complete, true);
    assert.deepEqual(report.totals.by_fate, { verified: 16, refunded: 1, declined: 2, canceled: 1, expired: 4 });
    assert.equal(report.totals.errors, 0);
    assert.equal(report.totals.completed, 24);
    for (const interval of report.intervals) assert.equal(interval.errors, 0, JSON.stringify(interval.operations));
    // Every operation of the mix was answered, in some interval or after the last one (the refund ends the
    // longest walk: when a late arrival draws it, it is answered after the traffic's last sample).
    assert.ok(report.after_traffic_operations !== undefined);
    for (const op of OPERATIONS)
      assert.ok(
        report.intervals.some((i) => i.operations[op].count > 0) || report.after_traffic_operations[op].count > 0,
        `${op} answered`,
      );

    // Each fate ended where it should: the abandoned pages expired by their own timers before the last sample.
    // The warm-up's payments (one, on a ready gateway) walk to verified before the soak.
    assert.ok(report.warm_up_payments >= 1);
    assert.deepEqual(await statuses(merchantId), {
      verified: 16 + report.warm_up_payments,
      refunded: 1,
      failed: 2,
      canceled: 1,
      expired: 4,
    });

    // Memory of the watched process, from /proc and its metrics; the workflow thread's heap from the diagnostic report.
    for (const sample of [report.baseline, ...report.intervals, report.final]) {
      const worker = sample.processes.find((p) => p.name === 'worker')!;
      assert.ok(
        worker.rss_mb! > 0 && worker.heap_used_mb! > 0 && worker.heap_total_mb! >= worker.heap_used_mb!,
        JSON.stringify(worker),
      );
      assert.ok(worker.threads_heap_used_mb! > 0, JSON.stringify(worker));
      assert.ok(worker.eventloop_p99_ms !== undefined, JSON.stringify(worker));
    }

    // Storage: MySQL's tables and Temporal's file grew, and so does the payments table, one row a payment.
    assert.ok(
      report.baseline.storage.mysql_bytes > 0 && report.final.storage.mysql_rows > report.baseline.storage.mysql_rows,
    );
    assert.ok(report.storage_per_payment.mysql_rows > 1, JSON.stringify(report.storage_per_payment));
    assert.equal(report.storage_per_payment.tables.payments?.rows, 1);
    // CPU per payment: the watched process (this one, which runs the suite's worker) spent some on each.
    assert.ok(
      report.baseline.processes[0]!.cpu_ms! > 0 && report.cpu_ms_per_payment.worker! > 0,
      JSON.stringify(report.cpu_ms_per_payment),
    );
    if (process.env.TEMPORAL_DEV_DB !== undefined) assert.ok(report.final.storage.temporal_bytes > 0);

    // The files: the JSON report and an SVG that parses, with every panel.
    const dir = mkdtempSync(join(tmpdir(), 'dargah-soak-'));
    const files = writeSoakOutputs(report, dir);
    assert.equal((JSON.parse(readFileSync(files.json, 'utf8')) as SoakReport).totals.arrivals, 24);
    const svg = parseXml(readFileSync(files.svg, 'utf8'));
    assert.equal(svg.root, 'svg');
    for (const panel of ['Memory per process', 'p99 per operation', 'Errors', 'Open workflows', 'Storage'])
      assert.ok(
        svg.texts.some((t) => t.startsWith(panel)),
        `panel ${panel}`,
      );
    assert.ok((svg.elements.get('polyline') ?? 0) >= 5);
    assert.match(formatSoakReport(report), /\| payments \| 1 \|/);
  });

  it('calibrates first when no rate is given, and runs at the stated fraction of the capacity it measured', async () => {
    const plan: SoakPlan = {
      ...DEFAULT_SOAK_PLAN,
      minutes: 0.05,
      intervalSeconds: 3,
      capacityFraction: 0.5,
      calibrationSeconds: 1.5,
      calibrationConcurrency: 2,
      mix: DEFAULT_DAY_MIX,
      verifyDelayMs: 50,
      // As above: the abandoned pages expire within the test, a paying customer's never first.
      paymentTtlSeconds: 8,
    };
    const { report, merchantId } = await soak(plan);
    assert.equal(report.rate_source, 'calibrated');
    const calibration = report.calibration!;
    assert.ok(calibration.payments > 0 && calibration.capacity_payments_per_s > 0, JSON.stringify(calibration));
    assert.equal(report.rate, Math.max(0.1, Math.round(calibration.capacity_payments_per_s * 0.5 * 10) / 10));
    assert.equal(report.totals.arrivals, Math.round(report.rate * 3));
    assert.equal(report.intervals.length, 1);
    assert.equal(report.totals.errors, 0);
    const counts = await statuses(merchantId);
    assert.equal(
      Object.values(counts).reduce((a, b) => a + b, 0),
      report.warm_up_payments + calibration.payments + report.totals.arrivals,
    );
    assert.equal(counts.created ?? 0, 0, 'every abandoned page expired');
  });
});
