/**
 * The operator's files in deploy/: the alert rules pass `promtool check
 * rules` (the real promtool, built once into the cache by
 * src/bootstrap/promtool.ts), the Prometheus configuration passes `promtool
 * check config`, the Grafana dashboard parses, and every metric either
 * queries is one the gateway defines (src/observability/metrics.ts) or a
 * Temporal SDK metric it lists.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { providePromtool } from '../../src/bootstrap/promtool.ts';
import { definedMetricNames, TEMPORAL_SDK_METRICS } from '../../src/observability/metrics.ts';

const ALERTS = 'deploy/prometheus/alerts.yml';
const PROMETHEUS = 'deploy/prometheus/prometheus.yml';
const DASHBOARD = 'deploy/grafana/dashboards/dargah.json';

interface Rules {
  groups: { name: string; rules: { alert: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> }[] }[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: { title: string; type: string; targets: { expr: string }[] }[];
}

/** The metric names a PromQL expression reads (functions, label names and keywords left out). */
function metricsIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\{[^}]*\}/g, '').replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...withoutStrings.matchAll(/\b((?:dargah|temporal)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);
}

/** A series name resolved to the metric that makes it (a histogram's _bucket, _sum and _count). */
function knownMetric(series: string, known: Set<string>): boolean {
  return known.has(series) || known.has(series.replace(/_(bucket|sum|count)$/, ''));
}

const known = new Set<string>([...definedMetricNames(), ...TEMPORAL_SDK_METRICS]);

describe('deploy/: alert rules, Prometheus configuration and Grafana dashboard', function () {
  // The first run builds promtool with Go (minutes); later runs find it in the cache.
  this.timeout(1_800_000);
  let promtool: string;
  before(() => {
    promtool = providePromtool((line) => process.stdout.write(`${line}\n`));
  });

  it('the alert rules pass promtool check rules, and a broken rule would not', () => {
    const checked = spawnSync(promtool, ['check', 'rules', ALERTS], { encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    const rules = parse(readFileSync(ALERTS, 'utf8')) as Rules;
    const count = rules.groups.reduce((n, g) => n + g.rules.length, 0);
    assert.match(checked.stdout, new RegExp(`SUCCESS: ${count} rules found`));
    // The check can fail: the same file with one expression broken.
    const broken = structuredClone(rules);
    broken.groups[0]!.rules[0]!.expr = 'sum(rate(dargah_http_requests_total[5m]) >';
    const dir = mkdtempSync(join(tmpdir(), 'dargah-rules-'));
    writeFileSync(join(dir, 'alerts.yml'), stringify(broken));
    assert.notEqual(spawnSync(promtool, ['check', 'rules', join(dir, 'alerts.yml')], { encoding: 'utf8' }).status, 0);
  });

  it('names the alerts the operator guide explains: error rate, verify p99, reversal share, webhook backlog age, no worker polling, MySQL pool exhaustion', () => {
    const rules = parse(readFileSync(ALERTS, 'utf8')) as Rules;
    const alerts = rules.groups.flatMap((g) => g.rules);
    assert.deepEqual(alerts.map((r) => r.alert).sort(), [
      'DargahHighErrorRate',
      'DargahMysqlPoolExhausted',
      'DargahNoWorkerPolling',
      'DargahReversalShareHigh',
      'DargahVerifyLatencyHigh',
      'DargahWebhookBacklogOld',
    ]);
    const guide = readFileSync('docs/OBSERVABILITY.md', 'utf8');
    for (const rule of alerts) {
      assert.ok(rule.labels?.severity !== undefined && rule.for !== undefined, `${rule.alert} has a severity and a for`);
      assert.equal(rule.annotations?.runbook, `docs/OBSERVABILITY.md#${rule.alert.toLowerCase()}`);
      assert.match(guide, new RegExp(`^### ${rule.alert}$`, 'm'), `docs/OBSERVABILITY.md explains ${rule.alert}`);
      const metrics = metricsIn(rule.expr);
      assert.ok(metrics.length > 0, `${rule.alert} reads a metric`);
      for (const m of metrics) assert.ok(knownMetric(m, known), `${rule.alert} reads ${m}, which src/observability/metrics.ts does not define`);
    }
  });

  it('the Prometheus configuration passes promtool check config (with its rule file where the container mounts it)', () => {
    const config = parse(readFileSync(PROMETHEUS, 'utf8')) as { rule_files: string[] };
    assert.deepEqual(config.rule_files, ['/etc/prometheus/alerts.yml']);
    const dir = mkdtempSync(join(tmpdir(), 'dargah-prometheus-'));
    writeFileSync(join(dir, 'prometheus.yml'), stringify({ ...config, rule_files: [resolve(ALERTS)] }));
    const checked = spawnSync(promtool, ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  });

  it('the dashboard parses, shows traffic, errors, latency, payments, reversals, webhooks, MySQL and worker slots, and queries only defined metrics', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
    assert.equal(dashboard.uid, 'dargah-gateway');
    const titles = dashboard.panels.map((p) => p.title.toLowerCase()).join('\n');
    for (const topic of ['traffic', 'errors', 'latency', 'payments by outcome', 'reversals', 'webhook backlog', 'worker slots', 'mysql']) {
      assert.ok(titles.includes(topic), `a panel about ${topic}`);
    }
    const queried = new Set<string>();
    for (const panel of dashboard.panels) {
      assert.ok(panel.targets.length > 0, `${panel.title} has a query`);
      for (const target of panel.targets) {
        const metrics = metricsIn(target.expr);
        assert.ok(metrics.length > 0, `${panel.title}: ${target.expr} reads a metric`);
        for (const m of metrics) {
          assert.ok(knownMetric(m, known), `${panel.title} queries ${m}, which src/observability/metrics.ts does not define`);
          queried.add(m);
        }
      }
    }
    // The SDK metrics the dashboard needs are among those listed (and a live worker serves them: test/observability).
    assert.ok([...queried].some((m) => m.startsWith('temporal_worker_task_slots')));
  });

  it('the name check itself catches a metric nobody defines', () => {
    assert.deepEqual(metricsIn('sum by (route) (rate(dargah_http_requests_total{route="/x"}[5m])) / dargah_no_such_metric'), ['dargah_http_requests_total', 'dargah_no_such_metric']);
    assert.equal(knownMetric('dargah_no_such_metric', known), false);
    assert.equal(knownMetric('dargah_http_request_duration_seconds_bucket', known), true);
  });
});
