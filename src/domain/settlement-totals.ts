/**
 * What a merchant's settlement covers and pays (docs/LEDGER.md#settlement): its lines, its totals, its
 * net and whether it is made now or carried to the next run. Pure code: the database layer reads the
 * items (src/db/settlements.ts draftSettlement) and this rule sums them, so the money is decided in
 * one place, unit-tested without MySQL.
 */

/** A live payment a settlement may cover: what the customer paid (amount + a customer-pays fee) and its fee. */
export interface SettleablePayment {
  id: string;
  charged: number;
  fee: number;
}

/** A refund not yet deducted (pending or succeeded), or a refused one a settlement deducted (failed): given back once. */
export interface SettleableRefund {
  id: string;
  payment_id: string;
  amount: number;
  /** Any status but `awaiting_approval` (its amount has not left the balance): awaiting_payer, pending, succeeded, failed. */
  status: 'awaiting_approval' | 'awaiting_payer' | 'pending' | 'succeeded' | 'failed';
  /** Whether its payment was covered by an earlier settlement. */
  payment_settled: boolean;
}

/** A beneficiary's share of a covered payment, less what refunds took back from it. */
export interface SettleableShare {
  id: string;
  payment_id: string;
  beneficiary_id: string;
  iban: string;
  owed: number;
}

export interface SettlementLineDraft {
  kind: 'payment' | 'refund' | 'refund_return' | 'split';
  object_id: string;
  payment_id: string;
  amount: number;
  fee: number;
  iban: string | null;
}

/** A merchant's settlement as it would be made now: its lines, totals, net, and each beneficiary's transfer. */
export interface SettlementDraft {
  lines: SettlementLineDraft[];
  gross: number;
  fees: number;
  refunds: number;
  splits: number;
  /** gross − fees − splits − refunds: the merchant's transfer. */
  net: number;
  payment_count: number;
  refund_count: number;
  /** Each beneficiary's shares in it, summed: one transfer each. */
  beneficiaries: Map<string, { iban: string; amount: number }>;
}

/**
 * The settlement of `payments` (the covered ones), the refunds (a refund of a payment neither covered now
 * nor settled before waits for its payment) and the covered payments' shares.
 */
export function settlementDraft(
  payments: readonly SettleablePayment[],
  refunds: readonly SettleableRefund[],
  shares: readonly SettleableShare[],
): SettlementDraft {
  const draft: SettlementDraft = {
    lines: [],
    gross: 0,
    fees: 0,
    refunds: 0,
    splits: 0,
    net: 0,
    payment_count: 0,
    refund_count: 0,
    beneficiaries: new Map(),
  };
  const covered = new Set(payments.map((p) => p.id));
  for (const p of payments) {
    draft.lines.push({ kind: 'payment', object_id: p.id, payment_id: p.id, amount: p.charged, fee: p.fee, iban: null });
    draft.gross += p.charged;
    draft.fees += p.fee;
    draft.payment_count += 1;
  }
  for (const r of refunds) {
    if (r.status === 'failed') {
      draft.lines.push({
        kind: 'refund_return',
        object_id: r.id,
        payment_id: r.payment_id,
        amount: r.amount,
        fee: 0,
        iban: null,
      });
      draft.refunds -= r.amount;
    } else {
      // A refund of a payment still within the hold waits for its payment.
      if (!r.payment_settled && !covered.has(r.payment_id)) continue;
      draft.lines.push({
        kind: 'refund',
        object_id: r.id,
        payment_id: r.payment_id,
        amount: -r.amount,
        fee: 0,
        iban: null,
      });
      draft.refunds += r.amount;
    }
    draft.refund_count += 1;
  }
  for (const share of shares) {
    if (share.owed === 0) continue;
    draft.lines.push({
      kind: 'split',
      object_id: share.id,
      payment_id: share.payment_id,
      amount: -share.owed,
      fee: 0,
      iban: share.iban,
    });
    draft.splits += share.owed;
    const payout = draft.beneficiaries.get(share.beneficiary_id) ?? { iban: share.iban, amount: 0 };
    payout.amount += share.owed;
    draft.beneficiaries.set(share.beneficiary_id, payout);
  }
  draft.net = draft.gross - draft.fees - draft.splits - draft.refunds;
  return draft;
}

/**
 * Whether a draft is carried to the next run instead of made: a negative net (refunds beyond the day's
 * money) carries everything, the beneficiaries' shares too; a net of 0 is made only when it pays
 * beneficiaries.
 */
export function isCarried(draft: Pick<SettlementDraft, 'net' | 'splits'>): boolean {
  return draft.net < 0 || draft.net + draft.splits <= 0;
}
