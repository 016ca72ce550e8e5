/** The settlements area's pages: the balance and the list of settlements, and one settlement with its lines. */
import { groupSheba, maskSheba } from '../domain/business-documents.ts';
import { SETTLEMENT_STATUSES, type SettlementStatus } from '../domain/settlement.ts';
import type { Balance, BeneficiaryPayout, Settlement, SettlementLine } from '../domain/settlement-schemas.ts';
import { localDigits } from '../http/words.ts';
import { formatRials, formatTime, strings, type Lang } from './i18n.ts';
import { modeQuery, modeSwitch } from './kit.ts';
import { hrefWith, render, type ViewContext } from './views.ts';

/** The list's filters as the form has them: a status, and a range of Tehran days (`YYYY-MM-DD`, both ends included). */
export interface SettlementFilters {
  status?: SettlementStatus;
  from?: string;
  to?: string;
}

const LIST_PATH = '/dashboard/settlements';

/** The figures every settlement shows, in the merchant's language. */
function figures(s: Settlement, lang: Lang) {
  const t = strings(lang);
  return {
    id: s.id,
    href: `${LIST_PATH}/${s.id}`,
    created: formatTime(s.created_at, lang),
    gross: formatRials(s.gross, lang),
    fees: formatRials(s.fees, lang),
    refunds: formatRials(s.refunds, lang),
    net: formatRials(s.net, lang),
    status: s.status,
    statusLabel: t.settlementStatuses[s.status],
  };
}

/**
 * The live mode's balance and settlements; in test mode only why there are none (test payments are
 * never settled), with the way to the live ones.
 */
export function settlementsPage(
  context: ViewContext,
  data:
    | { mode: 'test' }
    | {
        mode: 'live';
        balance: Balance;
        holdHours: number;
        filters: SettlementFilters;
        settlements: Settlement[];
        nextCursor: string | null;
        paged: boolean;
      },
): string {
  const { lang } = context;
  const t = strings(lang);
  const common = {
    title: t.settlementsTitle,
    testMode: data.mode === 'test',
    modes: modeSwitch(lang, data.mode, LIST_PATH),
  };
  if (data.mode === 'test')
    return render('settlements', context, { ...common, liveHref: `${LIST_PATH}${modeQuery('live')}` });
  const { balance, filters } = data;
  const query = (cursor?: string) =>
    hrefWith(LIST_PATH, { mode: 'live', status: filters.status, from: filters.from, to: filters.to, cursor });
  const filtered = filters.status !== undefined || filters.from !== undefined || filters.to !== undefined;
  return render('settlements', context, {
    ...common,
    balance: [
      {
        id: 'available',
        label: t.balanceAvailable,
        value: formatRials(balance.available, lang),
        negative: balance.available < 0,
      },
      {
        id: 'pending',
        label: t.balancePending,
        value: formatRials(balance.pending, lang),
        negative: balance.pending < 0,
      },
      { id: 'held', label: t.balanceHeld, value: formatRials(balance.held, lang), negative: false },
      { id: 'in-payout', label: t.balanceInPayout, value: formatRials(balance.in_payout, lang), negative: false },
    ],
    carried: balance.available < 0,
    balanceNote: t.balanceNote.replace('{hours}', localDigits(String(data.holdHours), lang)),
    statuses: SETTLEMENT_STATUSES.map((s) => ({
      value: s,
      label: t.settlementStatuses[s],
      selected: s === filters.status,
    })),
    from: filters.from ?? '',
    to: filters.to ?? '',
    empty: filtered ? t.noMatchingSettlements : t.noSettlements,
    rows: data.settlements.map((s) => ({ ...figures(s, lang), paidTo: maskSheba(s.iban) })),
    nextHref: data.nextCursor === null ? undefined : query(data.nextCursor),
    firstHref: data.paged ? query() : undefined,
  });
}

/**
 * One settlement: its figures, the bank's answer, each beneficiary's transfer with its state and attempt (a
 * refused one is paid again by the operator's retry, a new attempt), and a page of its lines, each linking to its payment.
 */
export function settlementPage(
  context: ViewContext,
  found: {
    settlement: Settlement;
    lines: SettlementLine[];
    beneficiaryPayouts?: BeneficiaryPayout[];
    nextHref?: string;
    firstHref?: string;
    csvHref: string;
  },
): string {
  const { lang } = context;
  const t = strings(lang);
  const s = found.settlement;
  const number = (n: number) => localDigits(String(n), lang);
  const details: { label: string; value: string; id: string; ltr?: boolean }[] = [
    { id: 'gross', label: t.gross, value: formatRials(s.gross, lang) },
    { id: 'fees', label: t.fees, value: formatRials(s.fees, lang) },
    { id: 'refunds', label: t.settlementRefunds, value: formatRials(s.refunds, lang) },
    { id: 'payment-count', label: t.paymentCount, value: number(s.payment_count) },
    { id: 'refund-count', label: t.refundCount, value: number(s.refund_count) },
    { id: 'iban', label: t.paidTo, value: groupSheba(s.iban), ltr: true },
    { id: 'cutoff', label: t.cutoff, value: formatTime(s.cutoff_at, lang) },
    { id: 'created', label: t.created, value: formatTime(s.created_at, lang) },
  ];
  if (s.paid_at !== null) details.push({ id: 'paid-at', label: t.paidOutAt, value: formatTime(s.paid_at, lang) });
  return render('settlement', context, {
    title: `${t.settlementTitle} ${formatTime(s.created_at, lang)}`,
    backHref: `${LIST_PATH}${modeQuery('live')}`,
    ...figures(s, lang),
    details,
    note: s.status === 'failed' ? t.failedSettlementText : s.status === 'pending' ? t.pendingSettlementText : undefined,
    failure: s.failure?.message,
    csvHref: found.csvHref,
    beneficiaryPayouts: (found.beneficiaryPayouts ?? []).map((p) => ({
      beneficiaryId: p.beneficiary_id,
      iban: maskSheba(p.iban),
      amount: formatRials(p.amount, lang),
      status: p.status,
      statusLabel: t.beneficiaryPayoutStatuses[p.status],
      attempt: number(p.attempt),
      failure: p.failure?.message,
    })),
    lines: found.lines.map((l) => ({
      kind: l.kind,
      kindLabel: t.lineKinds[l.kind],
      objectId: l.object_id,
      // A refund's line leads to its payment's page, where the refund is listed.
      href: `/dashboard/payments/${l.payment_id}${modeQuery('live')}`,
      amount: formatRials(l.amount, lang),
      fee: formatRials(l.fee, lang),
      net: formatRials(l.net, lang),
    })),
    nextHref: found.nextHref,
    firstHref: found.firstHref,
  });
}
