/**
 * Split settlement, تسهیم (docs/PAYMENTS.md#split-settlement): a payment's
 * shares for the merchant's beneficiaries, the rules a create's `splits` must
 * keep, and how a refund of a split payment is taken from the shares. Pure
 * code: the services and the ledger check apply these.
 */
import { isValidSheba, normalizeSheba } from './business-documents.ts';
import { feeQuote, type FeePayer, type FeePlan } from './payment.ts';

/** At most this many beneficiaries share one payment. */
export const MAX_SPLITS = 10;

/** A beneficiary is `pending` until the operator reviews it; only an `approved` one may be split to. */
/** `revoked`: approved once, then withdrawn by the operator; no split may name it again. */
export const BENEFICIARY_STATUSES = ['pending', 'approved', 'rejected', 'revoked'] as const;
export type BeneficiaryStatus = (typeof BENEFICIARY_STATUSES)[number];

export interface SplitRequest {
  iban: string;
  amount: number;
  description?: string;
}

/** What the schema cannot judge of `splits`: an IBAN whose mod-97 check fails, the same IBAN twice. */
export function splitProblems(splits: readonly SplitRequest[]): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (splits.length > MAX_SPLITS) problems.push({ path: 'splits', message: `must have at most ${MAX_SPLITS} items` });
  const seen = new Set<string>();
  splits.forEach((split, i) => {
    const iban = normalizeSheba(split.iban);
    if (!isValidSheba(iban))
      problems.push({
        path: `splits/${i}/iban`,
        message: 'must be a Sheba IBAN (IR and 24 digits whose check digits hold)',
      });
    else if (seen.has(iban))
      problems.push({ path: `splits/${i}/iban`, message: 'names the same IBAN as an earlier split' });
    seen.add(iban);
    if (!Number.isSafeInteger(split.amount) || split.amount <= 0)
      problems.push({ path: `splits/${i}/amount`, message: 'must be a positive integer' });
  });
  return problems;
}

/**
 * What the merchant receives of a payment before any share: the amount less the fee when the
 * merchant pays it, the amount when the customer does. The fee is the one verify will record
 * (feeAtVerify): the merchant's plan on the amount, known at create.
 */
export function splittableAmount(amount: number, plan: FeePlan, payer: FeePayer): number {
  return feeQuote(amount, plan, payer).merchant_receives;
}

export const splitTotal = (splits: readonly { amount: number }[]): number =>
  splits.reduce((sum, s) => sum + s.amount, 0);

/**
 * What is still owed of a beneficiary's share, or of a sum of shares: its amount less what refunds took
 * back from it (docs/LEDGER.md#refunds-of-a-split-payment). The one place this is computed: the
 * settlement's transfers, the refund's allocation and the ledger check all ask it.
 */
export const shareOwed = (share: { amount: number; refunded: number }): number => share.amount - share.refunded;

/**
 * The merchant's own share of a payment before refunds: what the customer was charged, less the fee
 * and the beneficiaries' shares (`sharesTotal`, their sum; 0 for a payment without shares).
 */
export const merchantShare = (payment: { charged: number; fee: number }, sharesTotal: number): number =>
  payment.charged - payment.fee - sharesTotal;

/**
 * What is left of the merchant's own share after refunds (merchantShare less `refunded`, the refunds
 * taken so far, of which `sharesRefunded` came from the beneficiaries' shares, not from the merchant's).
 */
export function merchantShareLeft(
  payment: { charged: number; fee: number },
  shares: { total: number; refunded: number },
  refunded: number,
): number {
  return merchantShare(payment, shares.total) - (refunded - shares.refunded);
}

/** One share as a refund sees it: what is left of it, and whether a settlement already paid it out. */
export interface ShareForRefund {
  id: string;
  amount: number;
  refunded: number;
  settled: boolean;
}

export interface RefundAllocation {
  /** Taken from the merchant's balance. */
  merchant: number;
  /** Taken from each unsettled share's payable, by share id (only those above 0). */
  shares: Record<string, number>;
}

/**
 * How a refund of `refund` rials of a split payment is taken (docs/LEDGER.md#refunds-of-a-split-payment):
 * the merchant's own share first, up to what is left of it (`merchantLeft`); the rest from the
 * beneficiaries' unsettled shares, pro rata to what is left of each, in whole rials by the largest
 * remainder (ties to the earlier share, so the same inputs always give the same answer). A share a
 * settlement already paid out is not clawed back: its part comes from the merchant's balance too.
 */
export function allocateSplitRefund(
  refund: number,
  merchantLeft: number,
  shares: readonly ShareForRefund[],
): RefundAllocation {
  if (!Number.isSafeInteger(refund) || refund <= 0)
    throw new Error(`refund ${refund} is not a positive whole number of rials`);
  const fromMerchant = Math.min(refund, Math.max(0, merchantLeft));
  let rest = refund - fromMerchant;
  const open = shares
    .map((s, index) => ({ id: s.id, index, left: s.settled ? 0 : s.amount - s.refunded }))
    .filter((s) => s.left > 0);
  const openTotal = open.reduce((sum, s) => sum + s.left, 0);
  const fromShares = Math.min(rest, openTotal);
  rest -= fromShares;
  const taken = open.map((s) => ({
    ...s,
    take: Math.floor((fromShares * s.left) / openTotal),
    remainder: (fromShares * s.left) % openTotal,
  }));
  let short = fromShares - taken.reduce((sum, s) => sum + s.take, 0);
  for (const s of [...taken].sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (short === 0) break;
    s.take += 1;
    short -= 1;
  }
  const result: Record<string, number> = {};
  for (const s of taken) if (s.take > 0) result[s.id] = s.take;
  // What the settled shares would have given back, and anything beyond every share, is the merchant's to return.
  return { merchant: fromMerchant + rest, shares: result };
}
