/**
 * The double-entry ledger's rules (docs/LEDGER.md): its accounts, and the
 * entries each money movement posts. Pure code: the record writers post
 * these in the same transaction as the change that causes them, and
 * `ledger check` recomputes them from the records.
 */
import { chargedAmount, isVerified, type PaymentStatus } from './payment.ts';
import { merchantShareLeft, shareOwed } from './splits.ts';

/**
 * Every merchant has each account once per mode. `clearing` is the outside
 * world (customers' cards and the merchant's own bank account, reached
 * through the bank): money enters the ledger from it and leaves to it, so it
 * is the counterpart that lets every posting sum to zero. `beneficiaries` is
 * what the merchant's split payments owe its beneficiaries until a settlement
 * pays their shares out (docs/LEDGER.md#split-settlement).
 */
export const LEDGER_ACCOUNTS = ['clearing', 'held', 'balance', 'fees', 'refunds', 'payouts', 'beneficiaries'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

export const MOVEMENTS = [
  'capture',
  'verify',
  'reversal',
  'refund',
  'refund_succeeded',
  'refund_failed',
  'payout',
  'payout_paid',
  'beneficiary_payout',
] as const;
export type Movement = (typeof MOVEMENTS)[number];

export interface LedgerLine {
  account: LedgerAccount;
  /** Signed rials; never 0. */
  amount: number;
}

/**
 * The lines of a movement of `amount` (and `fee`, for verify), without zero lines. `splits` is the
 * beneficiaries' part: their shares at verify, what a refund takes from them or a refused one gives back. A payment's
 * capture, verify and reversal move what the customer was charged: its amount, plus the fee when the
 * customer paid it (docs/LEDGER.md#who-pays-the-fee), so verify leaves the merchant the amount and
 * the fee is ours either way.
 */
export function movementLines(movement: Movement, amount: number, fee = 0, splits = 0): LedgerLine[] {
  const lines: LedgerLine[] = (() => {
    switch (movement) {
      case 'capture': // the bank confirmed the customer's payment: held for the merchant until verify
        return [line('clearing', -amount), line('held', amount)];
      case 'verify': // the merchant verified: what the customer paid less our fee is theirs, less what its beneficiaries are owed
        return [
          line('held', -amount),
          line('balance', amount - fee - splits),
          line('fees', fee),
          line('beneficiaries', splits),
        ];
      case 'reversal': // an unverified payment goes back to the customer whole
        return [line('held', -amount), line('clearing', amount)];
      case 'refund': // a refund counts from the moment it is asked for; a split payment's takes `splits` of it from its beneficiaries' shares
        return [line('balance', -(amount - splits)), line('beneficiaries', -splits), line('refunds', amount)];
      case 'refund_succeeded': // the bank returned it to the customer
        return [line('refunds', -amount), line('clearing', amount)];
      case 'refund_failed': // the bank refused: the amount is the merchant's again (and `splits` of it the beneficiaries')
        return [line('refunds', -amount), line('balance', amount - splits), line('beneficiaries', splits)];
      case 'payout': // a settlement reserves its net for the transfer
        return [line('balance', -amount), line('payouts', amount)];
      case 'payout_paid': // the bank transferred it to the merchant's (or a beneficiary's) IBAN
        return [line('payouts', -amount), line('clearing', amount)];
      case 'beneficiary_payout': // a settlement reserves a beneficiary's shares for its own transfer
        return [line('beneficiaries', -amount), line('payouts', amount)];
    }
  })();
  const kept = lines.filter((l) => l.amount !== 0);
  if (kept.reduce((sum, l) => sum + l.amount, 0) !== 0) throw new Error(`unbalanced ${movement} posting`);
  return kept;
}

function line(account: LedgerAccount, amount: number): LedgerLine {
  if (!Number.isSafeInteger(amount)) throw new Error(`ledger amount ${amount} is not a whole number of rials`);
  return { account, amount };
}

/** The movement a payment's recorded transition to `status` posts, if any. */
export function transitionMovement(status: PaymentStatus): Movement | undefined {
  if (status === 'paid') return 'capture';
  if (status === 'verified') return 'verify';
  if (status === 'reversed') return 'reversal';
  return undefined;
}

/** A payment's final statuses without money: a live one of these is never settled. */
export function endsWithoutMoney(status: PaymentStatus): boolean {
  return status === 'failed' || status === 'canceled' || status === 'expired' || status === 'reversed';
}

/**
 * What a payment's own postings (capture, verify, reversal and its refunds')
 * must add up to on each account, from its record alone: the invariant
 * `ledger check` holds every payment to.
 */
export function expectedPaymentBalances(payment: {
  status: PaymentStatus;
  amount: number;
  /** What the customer was charged (amount + a customer-pays fee); absent: the amount. */
  charged_amount?: number;
  fee: number;
  refunded_amount: number;
  /** Its refunds still waiting for the bank, and those the bank paid. */
  pending_refunds: number;
  succeeded_refunds: number;
  /** Its beneficiaries' shares (docs/LEDGER.md#split-settlement), and what refunds took from them; absent: none. */
  split_amount?: number;
  split_refunded?: number;
}): Record<LedgerAccount, number> {
  const zero: Record<LedgerAccount, number> = {
    clearing: 0,
    held: 0,
    balance: 0,
    fees: 0,
    refunds: 0,
    payouts: 0,
    beneficiaries: 0,
  };
  const splits = payment.split_amount ?? 0;
  const splitsRefunded = payment.split_refunded ?? 0;
  const { status } = payment;
  const amount = chargedAmount(payment);
  if (status === 'paid') return { ...zero, clearing: -amount, held: amount };
  if (status === 'reversed') return zero;
  if (!isVerified(status)) return zero;
  return {
    ...zero,
    clearing: -amount + payment.succeeded_refunds,
    // Refunds come from the merchant's share but for what they took from the beneficiaries' shares.
    balance: merchantShareLeft(
      { charged: amount, fee: payment.fee },
      { total: splits, refunded: splitsRefunded },
      payment.refunded_amount,
    ),
    fees: payment.fee,
    beneficiaries: shareOwed({ amount: splits, refunded: splitsRefunded }),
    refunds: payment.pending_refunds,
  };
}
