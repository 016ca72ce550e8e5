/**
 * The soak's command line and its outputs: `npm run bench -- --soak <minutes>
 * [--interval <minutes>] [--rate <payments/s> | --fraction <0–1>] [--ttl <seconds>]
 * [--out <dir>]`, and the files it writes there (soak.json, soak.svg) with a
 * table of the intervals on stdout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_DAY_MIX } from './day.ts';
import { soakSvg } from './plot.ts';
import type { SystemSample } from './sample.ts';
import { DEFAULT_SOAK_PLAN, type Operation, type SoakInterval, type SoakPlan, type SoakReport } from './soak.ts';

export interface SoakCommand {
  plan: SoakPlan;
  outDir: string;
}

function numberAfter(args: string[], flag: string, check: (n: number) => boolean, what: string): number | undefined {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const raw = args[at + 1];
  const n = Number(raw);
  if (raw === undefined || raw === '' || !Number.isFinite(n) || !check(n))
    throw new Error(`${flag} takes ${what}, got ${raw ?? 'nothing'}`);
  return n;
}

/** The soak asked for on the command line, or undefined when it was not (`--soak` absent). */
export function parseSoakArgs(args: string[], dataDir: string): SoakCommand | undefined {
  const minutes = numberAfter(args, '--soak', (n) => n > 0, 'the minutes of traffic (a number above 0)');
  if (minutes === undefined) return undefined;
  // About twelve samples, every 30 s at least and every 5 min at most.
  const interval =
    numberAfter(args, '--interval', (n) => n > 0, 'the minutes between samples') ??
    Math.min(5, Math.max(0.5, minutes / 12));
  const rate = numberAfter(args, '--rate', (n) => n > 0, 'payments per second');
  const fraction = numberAfter(args, '--fraction', (n) => n > 0 && n <= 1, 'a fraction of the measured capacity (0–1)');
  const ttl = numberAfter(
    args,
    '--ttl',
    (n) => Number.isInteger(n) && n >= 1,
    "the payment page's lifetime in seconds",
  );
  const outAt = args.indexOf('--out');
  const outDir = outAt < 0 ? join(dataDir, 'soak') : resolve(args[outAt + 1] ?? '.');
  return {
    outDir,
    plan: {
      ...DEFAULT_SOAK_PLAN,
      minutes,
      intervalSeconds: Math.round(interval * 60 * 10) / 10,
      ...(rate === undefined ? {} : { rate }),
      ...(fraction === undefined ? {} : { capacityFraction: fraction }),
      ...(ttl === undefined ? {} : { paymentTtlSeconds: ttl }),
      mix: DEFAULT_DAY_MIX,
    },
  };
}

const mbOf = (bytes: number) => Math.round(bytes / 1_048_576);

/** The intervals as a Markdown table (as docs/BENCHMARKS.md shows them), and the storage per payment. */
export function formatSoakReport(report: SoakReport): string {
  const names = [...new Set(report.intervals.flatMap((i) => i.processes.map((p) => p.name)))];
  const minute = (t: number) => String(Math.round(t / 6) / 10);
  const rows: { label: string; sample: SystemSample; interval?: SoakInterval }[] = [
    { label: '0', sample: report.baseline },
    ...report.intervals.map((i) => ({ label: minute(i.t_s), sample: i, interval: i })),
    ...report.after.map((sample) => ({ label: `${minute(sample.t_s)} (after)`, sample })),
  ];
  const memory = (sample: SystemSample, name: string) => {
    const p = sample.processes.find((q) => q.name === name);
    if (p === undefined) return '';
    const heaps = [p.heap_used_mb, p.threads_heap_used_mb].filter((h) => h !== undefined).join(' + ');
    return `${p.rss_mb ?? '-'}${heaps === '' ? '' : ` (${heaps})`}`;
  };
  const op = (interval: SoakInterval | undefined, name: Operation) => {
    const stats = interval?.operations[name];
    return stats === undefined || stats.count === 0 ? '' : `${stats.p50_ms} / ${stats.p99_ms}`;
  };
  const per = report.storage_per_payment;
  const lines = [
    `Soak: ${report.totals.arrivals} payments at ${report.rate}/s (${report.rate_source}${report.calibration === undefined ? '' : `: ${report.calibration.fraction} of ${report.calibration.capacity_payments_per_s}/s`}) for ${report.plan.minutes} min; fates ${JSON.stringify(report.totals.by_fate)}; ${report.totals.errors} errors, ${report.totals.early_verifies} early verifies`,
    '',
    'Memory in MB: RSS, and for the Node processes (main-thread heap used + workflow-thread heap used).',
    '',
    `| minute | payments | errors | create p50 / p99 ms | verify p50 / p99 ms | ${names.map((n) => `${n} MB`).join(' | ')} | worker cache | open workflows | MySQL MB | Temporal MB |`,
    `|${'---|'.repeat(9 + names.length)}`,
    ...rows.map(
      ({ label, sample, interval }) =>
        `| ${label} | ${interval?.arrivals_total ?? ''} | ${interval?.errors ?? ''} | ${op(interval, 'create')} | ${op(interval, 'verify')} | ${names.map((n) => memory(sample, n)).join(' | ')} | ${sample.processes.find((p) => p.name === 'worker')?.cached_workflows ?? ''} | ${sample.open_workflows} | ${mbOf(sample.storage.mysql_bytes)} | ${mbOf(sample.storage.temporal_bytes)} |`,
    ),
    '',
    `Per payment: MySQL ${per.mysql_rows} rows, ${Math.round(per.mysql_bytes)} bytes (data + indexes); Temporal ${Math.round(per.temporal_bytes)} bytes`,
    '',
    `CPU ms per payment (the sample before the traffic to its last): ${Object.entries(report.cpu_ms_per_payment)
      .map(([name, ms]) => `${name} ${ms}`)
      .join(', ')}`,
    '',
    '| table | rows per payment | bytes per payment |',
    '|---|---|---|',
    ...Object.entries(per.tables)
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .map(([table, t]) => `| ${table} | ${t.rows} | ${Math.round(t.bytes)} |`),
  ];
  return lines.join('\n');
}

/** Writes soak.json and soak.svg into `dir`; answers their paths. */
export function writeSoakOutputs(report: SoakReport, dir: string): { json: string; svg: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'soak.json');
  const svg = join(dir, 'soak.svg');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(svg, soakSvg(report));
  return { json, svg };
}
