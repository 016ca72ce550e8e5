/**
 * The operator's files in deploy/: every PromQL expression of the alert rules
 * and of the Grafana dashboard parses with Prometheus's own PromQL grammar
 * (@prometheus-io/lezer-promql, the parser of Prometheus's web UI), the rule
 * file and the Prometheus configuration have the shape Prometheus loads, the
 * dashboard parses, and every metric either queries is one the gateway
 * defines (src/observability/metrics.ts) or a Temporal SDK metric it lists.
 * (`promtool check rules` would be the reference check, but promtool cannot
 * be built from the module proxy here: docs/OPERATIONS.md#checking-the-files.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parser as promql } from '@prometheus-io/lezer-promql';
import { parse } from 'yaml';
import { definedMetricNames, TEMPORAL_SDK_METRICS } from '../../src/observability/metrics.ts';

const ALERTS = 'deploy/prometheus/alerts.yml';
const PROMETHEUS = 'deploy/prometheus/prometheus.yml';
const DASHBOARD = 'deploy/grafana/dashboards/dargah.json';

interface Rules {
  groups: {
    name: string;
    rules: {
      alert: string;
      expr: string;
      for?: string;
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    }[];
  }[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: { title: string; type: string; targets: { expr: string }[] }[];
}

/** The metric names a PromQL expression reads (functions, label names and keywords left out). */
function metricsIn(expr: string): string[] {
  const withoutStrings = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...withoutStrings.matchAll(/\b((?:dargah|temporal)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);
}

/** A series name resolved to the metric that makes it (a histogram's _bucket, _sum and _count). */
function knownMetric(series: string, known: Set<string>): boolean {
  return known.has(series) || known.has(series.replace(/_(bucket|sum|count)$/, ''));
}

const known = new Set<string>([...definedMetricNames(), ...TEMPORAL_SDK_METRICS]);

/** Where the PromQL grammar finds an error in `expr` (character offsets); none for a valid expression. */
function promqlErrors(expr: string): number[] {
  const errors: number[] = [];
  promql.parse(expr).iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(node.from);
    },
  });
  return errors;
}

/** Prometheus's duration syntax (`5m`, `1h30m`, `15s`). */
const DURATION = /^([0-9]+(ms|s|m|h|d|w|y))+$/;

describe('deploy/: alert rules, Prometheus configuration and Grafana dashboard', function () {
  it('the alert rules have the shape Prometheus loads and every expression parses as PromQL, and a broken one would not', () => {
    const rules = parse(readFileSync(ALERTS, 'utf8')) as Rules;
    assert.ok(rules.groups.length > 0);
    for (const group of rules.groups) {
      assert.ok(group.name !== '' && group.rules.length > 0, 'a named group with rules');
      for (const rule of group.rules) {
        assert.match(rule.alert, /^[A-Za-z_][A-Za-z0-9_]*$/, 'an alert name Prometheus accepts');
        assert.deepEqual(promqlErrors(rule.expr), [], `${rule.alert}: ${rule.expr}`);
        if (rule.for !== undefined) assert.match(rule.for, DURATION, `${rule.alert}: for`);
      }
    }
    // The check can fail: an expression broken the way a typo breaks it.
    assert.notDeepEqual(promqlErrors('sum(rate(dargah_http_requests_total[5m]) >'), []);
  });

  it('names the alerts the operator guide explains: error rate, verify p99, reversal share, webhook backlog age, no worker polling, MySQL pool exhaustion, records stuck, a workflow that differs from its record, a PSP confirmation refused, a PSP down, a bank reconciliation difference', () => {
    const rules = parse(readFileSync(ALERTS, 'utf8')) as Rules;
    const alerts = rules.groups.flatMap((g) => g.rules);
    assert.deepEqual(alerts.map((r) => r.alert).sort(), [
      'DargahBankReconciliationDifference',
      'DargahHighErrorRate',
      'DargahMysqlPoolExhausted',
      'DargahNoWorkerPolling',
      'DargahPspConfirmationRefused',
      'DargahPspDown',
      'DargahRecordMismatch',
      'DargahRecordsStuck',
      'DargahReversalShareHigh',
      'DargahVerifyLatencyHigh',
      'DargahWebhookBacklogOld',
    ]);
    const guide = readFileSync('docs/OPERATIONS.md', 'utf8');
    for (const rule of alerts) {
      assert.ok(
        rule.labels?.severity !== undefined && rule.for !== undefined,
        `${rule.alert} has a severity and a for`,
      );
      assert.equal(rule.annotations?.runbook, `docs/OPERATIONS.md#${rule.alert.toLowerCase()}`);
      assert.match(guide, new RegExp(`^### ${rule.alert}$`, 'm'), `docs/OPERATIONS.md explains ${rule.alert}`);
      const metrics = metricsIn(rule.expr);
      assert.ok(metrics.length > 0, `${rule.alert} reads a metric`);
      for (const m of metrics)
        assert.ok(
          knownMetric(m, known),
          `${rule.alert} reads ${m}, which src/observability/metrics.ts does not define`,
        );
    }
  });

  it('the Prometheus configuration loads the rule file where the container mounts it and scrapes at valid intervals', () => {
    const config = parse(readFileSync(PROMETHEUS, 'utf8')) as {
      global: Record<string, string>;
      rule_files: string[];
      scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; type: string; port: number }[] }[];
    };
    assert.deepEqual(config.rule_files, ['/etc/prometheus/alerts.yml']);
    for (const interval of Object.values(config.global)) assert.match(interval, DURATION);
    const jobs = config.scrape_configs.map((j) => j.job_name);
    assert.equal(new Set(jobs).size, jobs.length, 'job names are unique');
    for (const job of config.scrape_configs) {
      for (const sd of job.dns_sd_configs) {
        assert.equal(sd.type, 'A');
        assert.ok(sd.names.length > 0 && Number.isInteger(sd.port) && sd.port > 0 && sd.port < 65_536, job.job_name);
      }
    }
  });

  it('the dashboard parses, shows traffic, errors, latency, payments, reversals, webhooks, MySQL and worker slots, and queries only defined metrics', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
    assert.equal(dashboard.uid, 'dargah-gateway');
    const titles = dashboard.panels.map((p) => p.title.toLowerCase()).join('\n');
    for (const topic of [
      'traffic',
      'errors',
      'latency',
      'payments by outcome',
      'reversals',
      'webhook backlog',
      'worker slots',
      'mysql',
    ]) {
      assert.ok(titles.includes(topic), `a panel about ${topic}`);
    }
    const queried = new Set<string>();
    for (const panel of dashboard.panels) {
      assert.ok(panel.targets.length > 0, `${panel.title} has a query`);
      for (const target of panel.targets) {
        // Grafana's interval variables stand for a range, as Grafana substitutes them.
        assert.deepEqual(promqlErrors(target.expr.replace(/\$__[a-z_]+/g, '5m')), [], `${panel.title}: ${target.expr}`);
        const metrics = metricsIn(target.expr);
        assert.ok(metrics.length > 0, `${panel.title}: ${target.expr} reads a metric`);
        for (const m of metrics) {
          assert.ok(
            knownMetric(m, known),
            `${panel.title} queries ${m}, which src/observability/metrics.ts does not define`,
          );
          queried.add(m);
        }
      }
    }
    // The SDK metrics the dashboard needs are among those listed (and a live worker serves them: test/observability).
    assert.ok([...queried].some((m) => m.startsWith('temporal_worker_task_slots')));
  });

  it('the name check itself catches a metric nobody defines', () => {
    assert.deepEqual(
      metricsIn('sum by (route) (rate(dargah_http_requests_total{route="/x"}[5m])) / dargah_no_such_metric'),
      ['dargah_http_requests_total', 'dargah_no_such_metric'],
    );
    assert.equal(knownMetric('dargah_no_such_metric', known), false);
    assert.equal(knownMetric('dargah_http_request_duration_seconds_bucket', known), true);
  });
});
