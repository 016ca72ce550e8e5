/**
 * The soak's curve as one SVG image (no browser, no dependency): panels of
 * line charts over the soak's minutes — memory per process, p99 per
 * operation, errors, open workflows, storage. Hand-written because it is
 * small: axes with round ticks, one polyline per series, a legend.
 */
import type { SystemSample } from './sample.ts';
import { OPERATIONS, type SoakReport } from './soak.ts';

export interface Series {
  name: string;
  /** [x, y] points; a missing y (undefined) breaks the line. */
  points: [number, number | undefined][];
  dashed?: boolean;
}

export interface Panel {
  title: string;
  unit: string;
  series: Series[];
}

const COLORS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#17becf',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
];
const WIDTH = 1000;
const PANEL_HEIGHT = 230;
const MARGIN = { left: 70, right: 250, top: 34, bottom: 36 };

const escape = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const fmt = (n: number) =>
  Math.abs(n) >= 100 || Number.isInteger(n) ? String(Math.round(n)) : n.toPrecision(3).replace(/\.?0+$/, '');

/** Round tick values covering [min, max]: steps of 1, 2 or 5 times a power of ten. */
export function ticks(min: number, max: number, target = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  // From the last step at or below min to the first at or above max.
  const first = Math.floor(min / step + 1e-9);
  const last = Math.ceil(max / step - 1e-9);
  return Array.from({ length: last - first + 1 }, (_, k) => Number(((first + k) * step).toPrecision(12)));
}

function panelSvg(panel: Panel, top: number, xMax: number): string {
  const width = WIDTH - MARGIN.left - MARGIN.right;
  const height = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const ys = panel.series.flatMap((s) =>
    s.points.map((p) => p[1]).filter((y): y is number => y !== undefined && Number.isFinite(y)),
  );
  const yTicks = ticks(0, Math.max(1, ...ys));
  const yMax = yTicks.at(-1)!;
  // The x axis ends at the last sample; its ticks stop before.
  const xEnd = Math.max(xMax, 1e-9);
  const xTicks = ticks(0, xEnd).filter((t) => t <= xEnd * (1 + 1e-9));
  const x = (v: number) => MARGIN.left + (v / xEnd) * width;
  const y = (v: number) => top + MARGIN.top + height - (v / yMax) * height;
  const parts: string[] = [
    `<text x="${MARGIN.left}" y="${top + 20}" class="title">${escape(panel.title)} (${escape(panel.unit)})</text>`,
  ];
  for (const t of yTicks) {
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + width}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" class="grid"/>`,
    );
    parts.push(
      `<text x="${MARGIN.left - 6}" y="${(y(t) + 4).toFixed(1)}" class="tick" text-anchor="end">${fmt(t)}</text>`,
    );
  }
  for (const t of xTicks) {
    parts.push(
      `<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${top + MARGIN.top}" y2="${top + MARGIN.top + height}" class="grid"/>`,
    );
    parts.push(
      `<text x="${x(t).toFixed(1)}" y="${top + MARGIN.top + height + 16}" class="tick" text-anchor="middle">${fmt(t)}</text>`,
    );
  }
  parts.push(`<rect x="${MARGIN.left}" y="${top + MARGIN.top}" width="${width}" height="${height}" class="frame"/>`);
  panel.series.forEach((series, i) => {
    const color = COLORS[i % COLORS.length]!;
    // A missing value breaks the line into runs; a run of one point is drawn as a dot.
    const runs: [number, number][][] = [[]];
    for (const [px, py] of series.points) {
      if (py === undefined || !Number.isFinite(py)) runs.push([]);
      else runs.at(-1)!.push([px, py]);
    }
    for (const run of runs.filter((r) => r.length > 0)) {
      if (run.length === 1)
        parts.push(
          `<circle cx="${x(run[0]![0]).toFixed(1)}" cy="${y(run[0]![1]).toFixed(1)}" r="2.5" fill="${color}"/>`,
        );
      else {
        const points = run.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(' ');
        parts.push(
          `<polyline points="${points}" fill="none" stroke="${color}" stroke-width="1.8"${series.dashed === true ? ' stroke-dasharray="5 3"' : ''}/>`,
        );
      }
    }
    const ly = top + MARGIN.top + 4 + i * 16;
    const lx = MARGIN.left + width + 14;
    parts.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${series.dashed === true ? ' stroke-dasharray="5 3"' : ''}/>`,
    );
    parts.push(`<text x="${lx + 28}" y="${ly + 4}" class="legend">${escape(series.name)}</text>`);
  });
  return parts.join('\n');
}

/** Panels stacked under a title, sharing the x axis (minutes). */
export function renderSvg(title: string, subtitle: string, panels: Panel[], xLabel: string): string {
  const xMax = Math.max(0, ...panels.flatMap((p) => p.series.flatMap((s) => s.points.map((pt) => pt[0]))));
  const height = 60 + panels.length * PANEL_HEIGHT + 10;
  const body = panels.map((panel, i) => panelSvg(panel, 60 + i * PANEL_HEIGHT, xMax)).join('\n');
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">`,
    '<style>.title{font-size:14px;font-weight:bold}.tick{font-size:11px;fill:#444}.legend{font-size:12px}.grid{stroke:#e4e4e4;stroke-width:1}.frame{fill:none;stroke:#888}</style>',
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="17" font-weight="bold">${escape(title)}</text>`,
    `<text x="${MARGIN.left}" y="44" font-size="12" fill="#444">${escape(subtitle)} — x: ${escape(xLabel)}</text>`,
    body,
    '</svg>',
    '',
  ].join('\n');
}

/** The soak report's panels: RSS and heaps per process, p99 per operation, errors, open workflows, storage. */
export function soakPanels(report: SoakReport): Panel[] {
  // The last sample, after the traffic, shows what stays once the abandoned pages have expired.
  const rows: (SystemSample & { t_s: number })[] = [
    { ...report.baseline, t_s: 0 },
    ...report.intervals,
    ...report.after,
  ];
  const minutes = (t: number) => Math.round((t / 60) * 100) / 100;
  const names = [...new Set(rows.flatMap((r) => r.processes.map((p) => p.name)))];
  const proc = (r: (typeof rows)[number], name: string) => r.processes.find((p) => p.name === name);
  const memory: Series[] = names.map((name) => ({
    name: `${name} RSS`,
    points: rows.map((r) => [minutes(r.t_s), proc(r, name)?.rss_mb]),
  }));
  for (const name of names) {
    if (rows.some((r) => proc(r, name)?.heap_used_mb !== undefined))
      memory.push({
        name: `${name} heap`,
        dashed: true,
        points: rows.map((r) => [minutes(r.t_s), proc(r, name)?.heap_used_mb]),
      });
    if (rows.some((r) => proc(r, name)?.threads_heap_used_mb !== undefined))
      memory.push({
        name: `${name} workflow heap`,
        dashed: true,
        points: rows.map((r) => [minutes(r.t_s), proc(r, name)?.threads_heap_used_mb]),
      });
  }
  const latency: Series[] = OPERATIONS.filter((op) => report.intervals.some((i) => i.operations[op].count > 0)).map(
    (op) => ({
      name: `${op} p99`,
      points: report.intervals.map((i) => [
        minutes(i.t_s),
        i.operations[op].count > 0 ? i.operations[op].p99_ms : undefined,
      ]),
    }),
  );
  const eventLoop: Series[] = names
    .filter((name) => rows.some((r) => proc(r, name)?.eventloop_p99_ms !== undefined))
    .map((name) => ({
      name: `${name}`,
      points: report.intervals.map((i) => [minutes(i.t_s), proc(i, name)?.eventloop_p99_ms]),
    }));
  const errors: Series[] = [
    {
      name: 'errors',
      points: report.intervals.map((i) => [minutes(i.t_s), i.arrivals === 0 ? 0 : (i.errors / i.arrivals) * 1000]),
    },
  ];
  const types = [...new Set(rows.flatMap((r) => Object.keys(r.open_workflows_by_type)))];
  const open: Series[] = [
    { name: 'open (all types)', points: rows.map((r) => [minutes(r.t_s), r.open_workflows]) },
    ...types.map((type) => ({
      name: type,
      dashed: true,
      points: rows.map((r): [number, number | undefined] => [minutes(r.t_s), r.open_workflows_by_type[type] ?? 0]),
    })),
    { name: 'worker cache', points: rows.map((r) => [minutes(r.t_s), proc(r, 'worker')?.cached_workflows]) },
  ];
  const storage: Series[] = [
    { name: 'MySQL (data + indexes)', points: rows.map((r) => [minutes(r.t_s), r.storage.mysql_bytes / 1_048_576]) },
    { name: 'Temporal', points: rows.map((r) => [minutes(r.t_s), r.storage.temporal_bytes / 1_048_576]) },
  ];
  return [
    { title: 'Memory per process', unit: 'MB', series: memory },
    { title: 'p99 per operation, per interval', unit: 'ms', series: latency },
    { title: 'Event-loop delay p99, per interval', unit: 'ms', series: eventLoop },
    { title: 'Errors', unit: 'per 1 000 payments', series: errors },
    { title: 'Open workflows', unit: 'count', series: open },
    { title: 'Storage', unit: 'MB', series: storage },
  ];
}

export function soakSvg(report: SoakReport): string {
  const subtitle = `${report.totals.arrivals} payments at ${report.rate}/s (${report.rate_source}), ${report.plan.minutes} min from ${report.started_at}, sampled every ${report.plan.intervalSeconds} s${report.complete === false ? ' (still running)' : ''}`;
  return renderSvg('Dargah soak', subtitle, soakPanels(report), 'minutes since the traffic began');
}
