/**
 * Bank reconciliation (docs/psps/README.md#bank-reconciliation): a PSP's
 * report of one terminal's Tehran day set against the payments the gateway
 * recorded as confirmed by that terminal on that day. Pure rules: the
 * comparison, the kinds of its items and what a report line may carry. Not
 * the merchant's payments report (src/payments/report.ts), which lists a
 * merchant's own payments and compares them with nothing.
 */
import { maskCardPan } from './payment.ts';

/** What became of one transaction: the same at the bank and with us, or one of the three differences. */
export type BankReconciliationKind = 'matched' | 'bank_only' | 'gateway_only' | 'amount_mismatch';
/** In the order a report lists them: the differences first, the matched last. */
export const BANK_RECONCILIATION_KINDS: readonly BankReconciliationKind[] = [
  'bank_only',
  'gateway_only',
  'amount_mismatch',
  'matched',
];
export const BANK_RECONCILIATION_DIFFERENCES: readonly BankReconciliationKind[] = [
  'bank_only',
  'gateway_only',
  'amount_mismatch',
];

/** One successful transaction of a PSP's daily report, as its connector reads it. */
export interface BankReportLine {
  /** The PSP's reference of the transaction (SEP's RefNum, Mellat's SaleReferenceId). */
  ref_num: string;
  /** Our id of the payment as the PSP knows it (SEP's ResNum: the payment id; Mellat's SaleOrderId: its numeric order id). */
  order_id: string;
  /** Rials. */
  amount: number;
  /** The masked card, or '' when the report gives none. */
  card_pan: string;
}

/** One of our payments the bank confirmed at the terminal on the day, with the order id its PSP knows it by. */
export interface ReconciledPayment {
  payment_id: string;
  order_id: string;
  /** The PSP's reference the payment was confirmed with (payments.reference_id). */
  ref_num: string | null;
  amount: number;
  card_pan: string | null;
}

/** One item of a reconciliation: a transaction of either side, or of both, and what it is. */
export interface BankReconciliationItem {
  kind: BankReconciliationKind;
  payment_id: string | null;
  order_id: string;
  ref_num: string | null;
  /** What the bank reports, in rials; null when the bank does not have it. */
  bank_amount: number | null;
  /** What we recorded, in rials; null when we do not have it. */
  gateway_amount: number | null;
  /** Masked only; null when neither side gave one. */
  card_pan: string | null;
}

/**
 * A card number as a report may carry it, fit to keep: a masked one (`603799******1234`) as it is,
 * a full one masked, anything else dropped ('').
 */
export function reportCardPan(pan: string): string {
  const text = pan.trim();
  if (/^[0-9]{6}[*Xx]{2,9}[0-9]{4}$/.test(text)) return text.replace(/[Xx]/g, '*');
  if (/^[0-9]{12,19}$/.test(text)) return maskCardPan(text);
  return '';
}

/**
 * Sets the bank's lines against our payments. A line is ours by the PSP's reference first, then by
 * the order id (a payment we recorded without the reference is still found); each payment answers
 * one line, so a second line for it is `bank_only` (the bank counted it twice). A line we have with
 * another amount is `amount_mismatch`; a payment no line names is `gateway_only`. Items come in the
 * order of BANK_RECONCILIATION_KINDS, then by order id and reference, so two runs over the same
 * inputs give the same list.
 */
export function compareBankReport(
  lines: readonly BankReportLine[],
  payments: readonly ReconciledPayment[],
): BankReconciliationItem[] {
  const byRef = new Map<string, ReconciledPayment>();
  const byOrder = new Map<string, ReconciledPayment>();
  for (const p of payments) {
    if (p.ref_num !== null && p.ref_num !== '') byRef.set(p.ref_num, p);
    byOrder.set(p.order_id, p);
  }
  const answered = new Set<string>();
  const items: BankReconciliationItem[] = [];
  for (const line of lines) {
    const candidate = (line.ref_num === '' ? undefined : byRef.get(line.ref_num)) ?? byOrder.get(line.order_id);
    const payment = candidate === undefined || answered.has(candidate.payment_id) ? undefined : candidate;
    const card_pan = line.card_pan === '' ? (payment?.card_pan ?? null) : line.card_pan;
    if (payment === undefined) {
      items.push({
        kind: 'bank_only',
        payment_id: null,
        order_id: line.order_id,
        ref_num: line.ref_num || null,
        bank_amount: line.amount,
        gateway_amount: null,
        card_pan,
      });
      continue;
    }
    answered.add(payment.payment_id);
    items.push({
      kind: payment.amount === line.amount ? 'matched' : 'amount_mismatch',
      payment_id: payment.payment_id,
      order_id: payment.order_id,
      ref_num: line.ref_num || payment.ref_num,
      bank_amount: line.amount,
      gateway_amount: payment.amount,
      card_pan,
    });
  }
  for (const p of payments) {
    if (answered.has(p.payment_id)) continue;
    items.push({
      kind: 'gateway_only',
      payment_id: p.payment_id,
      order_id: p.order_id,
      ref_num: p.ref_num,
      bank_amount: null,
      gateway_amount: p.amount,
      card_pan: p.card_pan,
    });
  }
  const rank = (kind: BankReconciliationKind) => BANK_RECONCILIATION_KINDS.indexOf(kind);
  return items.sort(
    (a, b) =>
      rank(a.kind) - rank(b.kind) ||
      compareText(a.order_id, b.order_id) ||
      compareText(a.ref_num ?? '', b.ref_num ?? ''),
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** How many items of each kind, every kind present (0 when none). */
export function countByKind(
  items: readonly Pick<BankReconciliationItem, 'kind'>[],
): Record<BankReconciliationKind, number> {
  const counts: Record<BankReconciliationKind, number> = {
    matched: 0,
    bank_only: 0,
    gateway_only: 0,
    amount_mismatch: 0,
  };
  for (const item of items) counts[item.kind] += 1;
  return counts;
}

/** How many days back the settlement run and the worker's gauge look for a terminal's days (awaiting a report, or with open differences). */
export const RECONCILE_LOOKBACK_DAYS = 7;

/** The earliest moment of that look back from `at`: RECONCILE_LOOKBACK_DAYS whole days before it. */
export const reconcileLookbackStart = (at: Date): Date => new Date(at.getTime() - RECONCILE_LOOKBACK_DAYS * 86_400_000);
