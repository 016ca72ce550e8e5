/**
 * The customer's pages of a direct debit mandate (docs/PAGES.md#the-mandate-pages): the bank page, where
 * the customer reads the mandate's limits and picks the bank to sign at, its states while the mandate is
 * being prepared, once it no longer waits, or when there is none, and the page of the return from the
 * bank that goes on to the merchant. Rendered like every hosted page (views.ts): Eta, escaped output
 * only, no script, the pages' layout and stylesheet; Persian (Persian digits) by default, English with
 * `?lang=en`.
 */
import { formatAmount, formatCount, formatTehranDay, langQuery, strings, type Lang } from './i18n.ts';
import { PROCESSING_REFRESH_SECONDS, render, type DetailRow } from './views.ts';

/** What the page shows of a mandate: its limits (the service's row has these fields, and more). */
export interface MandateOnPage {
  id: string;
  mode: 'test' | 'live';
  max_amount: number;
  max_daily_count: number;
  max_monthly_count: number;
  expires_at: Date;
}

export type MandatePageState =
  | { kind: 'choose'; mandate: MandateOnPage; merchantName: string; banks: readonly { code: string; name: string }[] }
  | { kind: 'preparing'; mandate?: MandateOnPage }
  | { kind: 'ended'; mandate?: MandateOnPage }
  | { kind: 'not_found' }
  /** Back from the bank: on to `next` (the merchant's return_url) at once by a meta refresh, with a link to it. */
  | { kind: 'return'; next: string };

/** The bank page's address in a language; `/mandates/<id>/bank` is Persian. */
export const bankPagePath = (id: string, lang: Lang) => `/mandates/${id}/bank${langQuery(lang)}`;

/** A bank's link: `/mandates/<id>/bank/<code>`, which records the choice and goes on to the provider's page. */
const bankChoicePath = (id: string, code: string, lang: Lang) =>
  `/mandates/${id}/bank/${encodeURIComponent(code)}${langQuery(lang)}`;

/** The mandate's limits as rows: the per-debit maximum (rials, toman), the daily and monthly counts, the last day. */
function limitRows(m: MandateOnPage, lang: Lang): DetailRow[] {
  const t = strings(lang);
  const amount = formatAmount(m.max_amount, lang);
  return [
    { label: t.mandateMaxAmount, value: amount.rials, note: amount.toman, id: 'max-amount' },
    { label: t.mandateDailyCount, value: t.mandateCount(formatCount(m.max_daily_count, lang)), id: 'daily-count' },
    {
      label: t.mandateMonthlyCount,
      value: t.mandateCount(formatCount(m.max_monthly_count, lang)),
      id: 'monthly-count',
    },
    { label: t.mandateExpires, value: formatTehranDay(m.expires_at, lang), id: 'expires' },
  ];
}

/**
 * One of the mandate's pages. `path`: the page's own path, for the language link (none on the return,
 * which goes on at once). The preparing page reloads itself each second, or goes on to `refreshTo` at
 * once (a bank chosen before the mandate was ready: back to the bank page).
 */
export function mandatePage(state: MandatePageState, lang: Lang, options: { path?: string; refreshTo?: string } = {}) {
  const t = strings(lang);
  const context = { lang, ...(options.path === undefined ? {} : { path: options.path }) };
  switch (state.kind) {
    case 'choose': {
      const m = state.mandate;
      return render('mandate', context, {
        title: t.mandateTitle,
        testMode: m.mode === 'test',
        merchantName: state.merchantName,
        details: limitRows(m, lang),
        banks: state.banks.map((b) => ({ code: b.code, name: b.name, href: bankChoicePath(m.id, b.code, lang) })),
      });
    }
    case 'preparing':
      return render('mandate', context, {
        title: t.mandateTitle,
        testMode: state.mandate?.mode === 'test',
        // Reloaded (or sent on to the bank page) until the workflow has registered the mandate at the provider.
        refresh: options.refreshTo === undefined ? String(PROCESSING_REFRESH_SECONDS) : `0;url=${options.refreshTo}`,
        notice: { kind: 'processing', heading: t.mandatePreparingHeadline, text: t.mandatePreparingText },
      });
    case 'ended':
      return render('mandate', context, {
        title: t.mandateTitle,
        testMode: state.mandate?.mode === 'test',
        notice: { kind: 'info', heading: t.mandateEndedHeadline, text: t.mandateEndedText, why: 'ended' },
      });
    case 'not_found':
      return render('mandate', context, {
        title: t.mandateNotFoundTitle,
        notice: { kind: 'info', heading: t.mandateNotFoundTitle, text: t.mandateNotFoundText, why: 'not_found' },
      });
    case 'return':
      return render('mandate', context, {
        title: t.mandateReturnTitle,
        refresh: `0;url=${state.next}`,
        notice: { kind: 'info', heading: t.mandateReturnHeadline, text: t.mandateReturnText },
        back: state.next,
      });
  }
}
