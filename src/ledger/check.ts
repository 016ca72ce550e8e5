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
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { expectedPaymentBalances, LEDGER_ACCOUNTS, type LedgerAccount } from '../domain/ledger.ts';
import { isVerified, recordedChargedAmount, VERIFIED_STATUSES, type PaymentStatus } from '../domain/payment.ts';
import { CHARGED_AMOUNT_SQL } from '../db/payments.ts';

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
  const off = LEDGER_ACCOUNTS.filter((a) => actual[a] !== expected[a]).map((a) => `${a} ${actual[a]} (expected ${expected[a]})`);
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
  const report: LedgerReport = { ok: true, postings: 0, last_posting_id: scope.postingsAfter ?? 0, entries_total: 0, payments: 0, accounts: 0, break_count: 0, breaks: [] };
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
  for (let after = postingsAfter; ; ) {
    const postings = await postingPage(db, after);
    if (postings.length === 0) break;
    for (const p of postings) {
      report.postings += 1;
      if (Number(p.total) !== 0) fault({ invariant: 'posting_balanced', subject: p.cause, detail: `entries sum to ${p.total}` });
      if (Number(p.foreign_entries) > 0) fault({ invariant: 'posting_balanced', subject: p.cause, detail: 'an entry is on another merchant or mode' });
    }
    after = Number(postings.at(-1)!.id);
    report.last_posting_id = after;
  }
  const total = await db.selectFrom('ledger_entries').select(sql<string>`coalesce(sum(amount), 0)`.as('total')).executeTakeFirstOrThrow();
  report.entries_total = Number(total.total);
  if (report.entries_total !== 0) fault({ invariant: 'ledger_balanced', subject: 'all entries', detail: `sum to ${report.entries_total}` });
}

/** 2. Each payment's own postings (capture, verify, reversal, its refunds) against its record. */
async function checkPaymentEntries({ db, only, report, fault }: CheckRun): Promise<void> {
  for (let after = ''; ; ) {
    let pageQuery = db.selectFrom('payments').select(['id', 'merchant_id', 'mode', 'status', 'amount', 'customer_fee', 'fee', 'refunded_amount']).where('id', '>', after);
    if (only !== undefined) pageQuery = pageQuery.where('merchant_id', 'in', only.length === 0 ? [''] : only);
    const payments = await pageQuery
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (payments.length === 0) break;
    const ids = payments.map((p) => p.id);
    const entries = await db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_postings as p', 'p.id', 'e.posting_id')
      .select(['p.payment_id', 'e.account', sql<string>`sum(e.amount)`.as('total')])
      .where('p.payment_id', 'in', ids)
      .groupBy(['p.payment_id', 'e.account'])
      .execute();
    const refunds = await db
      .selectFrom('refunds')
      .select(['payment_id', 'status', sql<string>`sum(amount)`.as('total')])
      .where('payment_id', 'in', ids)
      .groupBy(['payment_id', 'status'])
      .execute();
    const shares = await db
      .selectFrom('payment_splits')
      .select(['payment_id', sql<string>`sum(amount)`.as('total'), sql<string>`sum(refunded)`.as('refunded')])
      .where('payment_id', 'in', ids)
      .groupBy('payment_id')
      .execute();
    const actual = new Map<string, Balances>();
    for (const e of entries) {
      const b = actual.get(e.payment_id!) ?? zero();
      b[e.account as LedgerAccount] = Number(e.total);
      actual.set(e.payment_id!, b);
    }
    const refundTotal = (id: string, status: string) => Number(refunds.find((r) => r.payment_id === id && r.status === status)?.total ?? 0);
    for (const p of payments) {
      report.payments += 1;
      const expected = expectedPaymentBalances({
        status: p.status as PaymentStatus,
        amount: Number(p.amount),
        charged_amount: recordedChargedAmount(p),
        fee: Number(p.fee),
        refunded_amount: Number(p.refunded_amount),
        pending_refunds: refundTotal(p.id, 'pending'),
        succeeded_refunds: refundTotal(p.id, 'succeeded'),
        split_amount: Number(shares.find((s) => s.payment_id === p.id)?.total ?? 0),
        split_refunded: Number(shares.find((s) => s.payment_id === p.id)?.refunded ?? 0),
      });
      const off = differences(actual.get(p.id) ?? zero(), expected);
      if (off !== undefined) fault({ invariant: 'payment_entries', subject: `payment ${p.id} (${p.status})`, detail: off });
    }
    after = payments.at(-1)!.id;
  }
}

/** 3. Each merchant's accounts, per mode, against its payments, refunds and settlements. */
async function checkMerchantAccounts({ db, only, report, fault }: CheckRun): Promise<void> {
  for (let after = ''; ; ) {
    let merchantQuery = db.selectFrom('merchants').select('id').where('id', '>', after);
    if (only !== undefined) merchantQuery = merchantQuery.where('id', 'in', only.length === 0 ? [''] : only);
    const merchants = await merchantQuery.orderBy('id').limit(PAGE).execute();
    if (merchants.length === 0) break;
    const ids = merchants.map((m) => m.id);
    const entries = await db
      .selectFrom('ledger_entries')
      .select(['merchant_id', 'mode', 'account', sql<string>`sum(amount)`.as('total')])
      .where('merchant_id', 'in', ids)
      .groupBy(['merchant_id', 'mode', 'account'])
      .execute();
    const payments = await db
      .selectFrom('payments')
      .select(['merchant_id', 'mode', 'status', sql<string>`sum(${CHARGED_AMOUNT_SQL})`.as('charged'), sql<string>`sum(fee)`.as('fee'), sql<string>`sum(refunded_amount)`.as('refunded')])
      .where('merchant_id', 'in', ids)
      .groupBy(['merchant_id', 'mode', 'status'])
      .execute();
    const refunds = await db
      .selectFrom('refunds')
      .select(['merchant_id', 'mode', sql<string>`sum(amount)`.as('total')])
      .where('merchant_id', 'in', ids)
      .where('status', '=', 'pending')
      .groupBy(['merchant_id', 'mode'])
      .execute();
    const settlements = await db
      .selectFrom('settlements')
      .select(['merchant_id', 'mode', 'status', sql<string>`sum(net)`.as('net')])
      .where('merchant_id', 'in', ids)
      .groupBy(['merchant_id', 'mode', 'status'])
      .execute();
    // The beneficiaries' shares of verified payments: all of them, and those no settlement has paid out yet.
    const shares = await db
      .selectFrom('payment_splits as s')
      .innerJoin('payments as p', 'p.id', 's.payment_id')
      .select([
        'p.merchant_id',
        'p.mode',
        sql<string>`sum(s.amount)`.as('total'),
        sql<string>`sum(s.refunded)`.as('refunded'),
        sql<string>`coalesce(sum(case when s.settled_in is null then s.amount - s.refunded else 0 end), 0)`.as('unpaid'),
      ])
      .where('p.merchant_id', 'in', ids)
      .where('p.status', 'in', VERIFIED_STATUSES)
      .groupBy(['p.merchant_id', 'p.mode'])
      .execute();
    const sharePayouts = await db
      .selectFrom('beneficiary_payouts')
      .select(['merchant_id', 'mode', sql<string>`sum(amount)`.as('total')])
      .where('merchant_id', 'in', ids)
      .where('status', '<>', 'paid')
      .groupBy(['merchant_id', 'mode'])
      .execute();
    for (const merchant of ids) {
      for (const mode of ['test', 'live'] as const) {
        const mine = <T extends { merchant_id: string; mode: string }>(rows: T[]) => rows.filter((r) => r.merchant_id === merchant && r.mode === mode);
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
        expected.refunds = mine(refunds).reduce((sum, r) => sum + Number(r.total), 0);
        for (const s of mine(settlements)) {
          expected.balance -= Number(s.net);
          if (s.status !== 'paid') expected.payouts += Number(s.net);
        }
        // A split payment's shares are its beneficiaries' from verify on, until a settlement reserves them for their transfers.
        for (const s of mine(shares)) {
          expected.balance -= Number(s.total) - Number(s.refunded);
          expected.beneficiaries += Number(s.unpaid);
        }
        for (const b of mine(sharePayouts)) expected.payouts += Number(b.total);
        // The outside world's account is whatever balances the others (checked by invariant 1).
        expected.clearing = actual.clearing;
        report.accounts += 1;
        const off = differences(actual, expected);
        if (off !== undefined) fault({ invariant: 'merchant_accounts', subject: `merchant ${merchant} (${mode})`, detail: off });
      }
    }
    after = merchants.at(-1)!.id;
  }
}

/** The next PAGE postings after id `after`, each with its entries' sum: a page is an id range, found by keyset. */
async function postingPage(db: Db, after: number) {
  const last = await db.selectFrom('ledger_postings').select('id').where('id', '>', after).orderBy('id').limit(1).offset(PAGE - 1).executeTakeFirst();
  let query = db
    .selectFrom('ledger_postings as p')
    .leftJoin('ledger_entries as e', 'e.posting_id', 'p.id')
    .select([
      'p.id',
      'p.cause',
      sql<string>`coalesce(sum(e.amount), 0)`.as('total'),
      sql<string>`coalesce(sum(e.merchant_id <> p.merchant_id or e.mode <> p.mode), 0)`.as('foreign_entries'),
    ])
    .where('p.id', '>', after);
  if (last !== undefined) query = query.where('p.id', '<=', last.id);
  return query.groupBy(['p.id', 'p.cause']).orderBy('p.id').execute();
}
