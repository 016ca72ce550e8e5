/**
 * `ledger check`: proves the ledger's invariants (docs/LEDGER.md#invariants)
 * over the whole of it, page by page (keyset paging on primary keys), so its
 * memory does not grow with the ledger:
 * 1. every posting's entries sum to zero, and all entries together do;
 * 2. each payment's postings agree with its status and amounts;
 * 3. each merchant's accounts in each mode agree with its records: the balance
 *    is what was verified less fees, beneficiaries' shares, refunds and payouts;
 *    the beneficiaries account is the shares no settlement has paid out yet.
 */
import type { Db } from '../db/database.ts';
import { expectedPaymentBalances, LEDGER_ACCOUNTS, type LedgerAccount } from '../domain/ledger.ts';
import { isVerified, recordedChargedAmount, type PaymentStatus } from '../domain/payment.ts';
import { shareOwed } from '../domain/splits.ts';
import {
  entriesTotal,
  merchantEntrySums,
  merchantPage,
  merchantPaymentSums,
  merchantPendingRefundSums,
  merchantSettlementSums,
  merchantShareSums,
  merchantUnpaidSharePayoutSums,
  paymentEntrySums,
  paymentPage,
  paymentRefundSums,
  paymentShareSums,
  postingPage,
} from '../db/ledger-check.ts';

const PAGE = 500;
/** Breaks listed in the report; the count covers them all. */
const LISTED = 50;

export interface LedgerBreak {
  invariant: 'posting_balanced' | 'ledger_balanced' | 'payment_entries' | 'merchant_accounts';
  subject: string;
  detail: string;
}

export interface LedgerReport {
  ok: boolean;
  postings: number;
  /** The newest posting checked: a later check can go on from it (`postingsAfter`). */
  last_posting_id: number;
  entries_total: number;
  payments: number;
  accounts: number;
  break_count: number;
  breaks: LedgerBreak[];
}

type Balances = Record<LedgerAccount, number>;
const zero = (): Balances => ({ clearing: 0, held: 0, balance: 0, fees: 0, refunds: 0, payouts: 0, beneficiaries: 0 });

function differences(actual: Balances, expected: Balances): string | undefined {
  const off = LEDGER_ACCOUNTS.filter((a) => actual[a] !== expected[a]).map(
    (a) => `${a} ${actual[a]} (expected ${expected[a]})`,
  );
  return off.length === 0 ? undefined : off.join(', ');
}

export interface CheckScope {
  /** Check invariants 2 and 3 for these merchants only. */
  merchantIds?: string[];
  /** Check invariant 1 for the postings after this one only (an earlier report's last_posting_id); the sum of all entries is always checked. */
  postingsAfter?: number;
}

export function checkLedger(db: Db, scope: CheckScope = {}): Promise<LedgerReport> {
  // One consistent snapshot for every query (REPEATABLE READ: InnoDB's reads in one transaction see the same
  // moment): otherwise a refund that moves from pending to succeeded between reading the entries and reading the
  // records looks like a break while the gateway is busy, though each write keeps both in one transaction.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((snapshot) => checkLedgerAt(snapshot, scope));
}

async function checkLedgerAt(db: Db, scope: CheckScope): Promise<LedgerReport> {
  const report: LedgerReport = {
    ok: true,
    postings: 0,
    last_posting_id: scope.postingsAfter ?? 0,
    entries_total: 0,
    payments: 0,
    accounts: 0,
    break_count: 0,
    breaks: [],
  };
  const fault = (b: LedgerBreak) => {
    report.break_count += 1;
    if (report.breaks.length < LISTED) report.breaks.push(b);
  };
  const run: CheckRun = { db, only: scope.merchantIds, report, fault };
  await checkPostings(run, scope.postingsAfter ?? 0);
  await checkPaymentEntries(run);
  await checkMerchantAccounts(run);
  report.ok = report.break_count === 0;
  return report;
}

/** One check's reading: the snapshot, the merchants it is limited to (undefined: all), the report it fills and how it records a break. */
interface CheckRun {
  db: Db;
  only: CheckScope['merchantIds'];
  report: LedgerReport;
  fault: (b: LedgerBreak) => void;
}

/** 1. Each posting (after id `postingsAfter`) balances, and its entries are on its own merchant and mode; then the whole ledger. */
async function checkPostings({ db, report, fault }: CheckRun, postingsAfter: number): Promise<void> {
  for (let after = postingsAfter; ;) {
    const postings = await postingPage(db, after, PAGE);
    if (postings.length === 0) break;
    for (const p of postings) {
      report.postings += 1;
      if (Number(p.total) !== 0)
        fault({ invariant: 'posting_balanced', subject: p.cause, detail: `entries sum to ${p.total}` });
      if (Number(p.foreign_entries) > 0)
        fault({ invariant: 'posting_balanced', subject: p.cause, detail: 'an entry is on another merchant or mode' });
    }
    after = Number(postings.at(-1)!.id);
    report.last_posting_id = after;
  }
  const total = await entriesTotal(db);
  report.entries_total = Number(total.total);
  if (report.entries_total !== 0)
    fault({ invariant: 'ledger_balanced', subject: 'all entries', detail: `sum to ${report.entries_total}` });
}

/** 2. Each payment's own postings (capture, verify, reversal, its refunds) against its record. */
async function checkPaymentEntries({ db, only, report, fault }: CheckRun): Promise<void> {
  for (let after = ''; ;) {
    const payments = await paymentPage(db, after, only, PAGE);
    if (payments.length === 0) break;
    const ids = payments.map((p) => p.id);
    const entries = await paymentEntrySums(db, ids);
    const refunds = await paymentRefundSums(db, ids);
    const shares = await paymentShareSums(db, ids);
    const actual = new Map<string, Balances>();
    for (const e of entries) {
      const b = actual.get(e.payment_id!) ?? zero();
      b[e.account as LedgerAccount] = Number(e.total);
      actual.set(e.payment_id!, b);
    }
    const refundTotal = (id: string, status: string) =>
      Number(refunds.find((r) => r.payment_id === id && r.status === status)?.total ?? 0);
    for (const p of payments) {
      report.payments += 1;
      const expected = expectedPaymentBalances({
        status: p.status as PaymentStatus,
        amount: Number(p.amount),
        charged_amount: recordedChargedAmount(p),
        fee: Number(p.fee),
        // A refund waiting for the operator is reserved on the payment but has not left the balance.
        refunded_amount: Number(p.refunded_amount) - refundTotal(p.id, 'awaiting_approval'),
        // One waiting for its payer has: its amount waits in `refunds` as a pending one's does.
        pending_refunds: refundTotal(p.id, 'pending') + refundTotal(p.id, 'awaiting_payer'),
        succeeded_refunds: refundTotal(p.id, 'succeeded'),
        split_amount: Number(shares.find((s) => s.payment_id === p.id)?.total ?? 0),
        split_refunded: Number(shares.find((s) => s.payment_id === p.id)?.refunded ?? 0),
      });
      const off = differences(actual.get(p.id) ?? zero(), expected);
      if (off !== undefined)
        fault({ invariant: 'payment_entries', subject: `payment ${p.id} (${p.status})`, detail: off });
    }
    after = payments.at(-1)!.id;
  }
}

/** 3. Each merchant's accounts, per mode, against its payments, refunds and settlements. */
async function checkMerchantAccounts({ db, only, report, fault }: CheckRun): Promise<void> {
  for (let after = ''; ;) {
    const merchants = await merchantPage(db, after, only, PAGE);
    if (merchants.length === 0) break;
    const ids = merchants.map((m) => m.id);
    const entries = await merchantEntrySums(db, ids);
    const payments = await merchantPaymentSums(db, ids);
    const refunds = await merchantPendingRefundSums(db, ids);
    const settlements = await merchantSettlementSums(db, ids);
    // The beneficiaries' shares of verified payments: all of them, and those no settlement has paid out yet.
    const shares = await merchantShareSums(db, ids);
    const sharePayouts = await merchantUnpaidSharePayoutSums(db, ids);
    for (const merchant of ids) {
      for (const mode of ['test', 'live'] as const) {
        const mine = <T extends { merchant_id: string; mode: string }>(rows: T[]) =>
          rows.filter((r) => r.merchant_id === merchant && r.mode === mode);
        const actual = zero();
        for (const e of mine(entries)) actual[e.account as LedgerAccount] = Number(e.total);
        const expected = zero();
        for (const p of mine(payments)) {
          const status = p.status as PaymentStatus;
          // What the customers were charged: the amounts, and the fees of customer-pays payments.
          if (status === 'paid') expected.held += Number(p.charged);
          if (isVerified(status)) {
            expected.fees += Number(p.fee);
            expected.balance += Number(p.charged) - Number(p.fee) - Number(p.refunded);
          }
        }
        expected.refunds = mine(refunds)
          .filter((r) => r.status !== 'awaiting_approval')
          .reduce((sum, r) => sum + Number(r.total), 0);
        // Refunds waiting for the operator are counted in the payments' refunded amounts but left no balance yet.
        expected.balance += mine(refunds)
          .filter((r) => r.status === 'awaiting_approval')
          .reduce((sum, r) => sum + Number(r.total), 0);
        for (const s of mine(settlements)) {
          expected.balance -= Number(s.net);
          if (s.status !== 'paid') expected.payouts += Number(s.net);
        }
        // A split payment's shares are its beneficiaries' from verify on, until a settlement reserves them for their transfers.
        for (const s of mine(shares)) {
          expected.balance -= shareOwed({ amount: Number(s.total), refunded: Number(s.refunded) });
          expected.beneficiaries += s.unpaid;
        }
        for (const b of mine(sharePayouts)) expected.payouts += Number(b.total);
        // The outside world's account is whatever balances the others (checked by invariant 1).
        expected.clearing = actual.clearing;
        report.accounts += 1;
        const off = differences(actual, expected);
        if (off !== undefined)
          fault({ invariant: 'merchant_accounts', subject: `merchant ${merchant} (${mode})`, detail: off });
      }
    }
    after = merchants.at(-1)!.id;
  }
}
