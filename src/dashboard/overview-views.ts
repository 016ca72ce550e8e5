/**
 * The overview page and its chart: daily volume as an SVG drawn here, on the
 * server (no script), with a title and a description for screen readers and
 * the same numbers in a table. On a Persian page time runs right to left, so
 * today is the leftmost bar.
 */
import type { KeyMode } from '../domain/merchant.ts';
import type { DayTotal } from '../payments/overview.ts';
import { TEHRAN_TIME_ZONE } from '../domain/calendar.ts';
import { LOCALE } from '../http/words.ts';
import { formatRials, strings, type Lang } from './i18n.ts';
import { modeSwitch } from './kit.ts';
import { render, type ViewContext } from './views.ts';

/** The chart's drawing box (SVG user units); CSS scales it to the column's width. */
const CHART = { width: 600, height: 260, top: 30, bottom: 34, side: 10 } as const;

export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  label: string;
}

export function dayLabel(day: DayTotal, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALE[lang], { timeZone: TEHRAN_TIME_ZONE, month: 'short', day: 'numeric' }).format(
    day.start,
  );
}

/** One bar per day, oldest first; mirrored on right-to-left pages. Heights are proportional to the day's volume. */
export function chartBars(days: readonly DayTotal[], lang: Lang): ChartBar[] {
  const plotWidth = CHART.width - 2 * CHART.side;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const slot = plotWidth / days.length;
  const max = Math.max(0, ...days.map((d) => d.volume));
  return days.map((d, i) => {
    const height = max === 0 ? 0 : Math.round((d.volume / max) * plotHeight * 10) / 10;
    const offset = CHART.side + (lang === 'fa' ? days.length - 1 - i : i) * slot;
    return {
      x: Math.round((offset + slot * 0.15) * 10) / 10,
      y: Math.round((CHART.top + plotHeight - height) * 10) / 10,
      width: Math.round(slot * 0.7 * 10) / 10,
      height,
      label: `${dayLabel(d, lang)}: ${formatRials(d.volume, lang)}`,
    };
  });
}

export function overviewPage(context: ViewContext, data: { mode: KeyMode; days: DayTotal[] }): string {
  const { lang } = context;
  const t = strings(lang);
  const today = data.days.at(-1)!;
  const count = data.days.reduce((sum, d) => sum + d.count, 0);
  const volume = data.days.reduce((sum, d) => sum + d.volume, 0);
  const max = Math.max(0, ...data.days.map((d) => d.volume));
  const first = dayLabel(data.days[0]!, lang);
  const last = dayLabel(today, lang);
  const number = (n: number) => new Intl.NumberFormat(LOCALE[lang]).format(n);
  const baseline = CHART.height - CHART.bottom;
  const rtl = lang === 'fa';
  return render('overview', context, {
    title: t.overviewTitle,
    testMode: data.mode === 'test',
    modes: modeSwitch(lang, data.mode, '/dashboard/overview'),
    today: { count: number(today.count), volume: formatRials(today.volume, lang) },
    period: { count: number(count), volume: formatRials(volume, lang) },
    chart: {
      ...CHART,
      baseline,
      bars: chartBars(data.days, lang),
      desc: `${t.chartDescFrom} ${first} ${t.chartDescTo} ${last}; ${t.chartDescMax}: ${formatRials(max, lang)}; ${t.chartDescTotal}: ${formatRials(volume, lang)}.`,
      maxLabel: formatRials(max, lang),
      // Oldest day at the start of the reading direction, today at its end.
      startLabel: { text: first, x: rtl ? CHART.width - CHART.side : CHART.side },
      endLabel: { text: last, x: rtl ? CHART.side : CHART.width - CHART.side },
      maxX: rtl ? CHART.width - CHART.side : CHART.side,
      textDirection: rtl ? 'rtl' : 'ltr',
    },
    rows: data.days.map((d) => ({
      day: dayLabel(d, lang),
      iso: d.day,
      count: number(d.count),
      volume: formatRials(d.volume, lang),
    })),
  });
}
