/**
 * Bank reconciliation's records (docs/psps/README.md#bank-reconciliation):
 * the gateway's side of a terminal's day, each run with its items (append
 * only: the newest run of a day stands), and the one rule settlement asks of
 * them, "reconciled as matched".
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import { ORIGINAL_PSP } from '../psps/profiles.ts';
import {
  countByKind,
  type BankReconciliationItem,
  type BankReconciliationKind,
} from '../domain/bank-reconciliation.ts';
import { CONFIRMED_STATUSES, VERIFIED_STATUSES } from '../domain/payment.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import { CHARGED_AMOUNT_SQL } from './payments.ts';

export interface TerminalDay {
  mode: 'test' | 'live';
  psp: string;
  terminal_id: string;
  /** Tehran's calendar day, YYYY-MM-DD. */
  day: string;
}

/**
 * The payments of the terminal: its PSP and terminal, and, for the SEP terminal this deployment
 * configures (`deployedTerminal`), the payments recorded before routing named one (see below).
 */
const atTerminal = (day: TerminalDay, deployedTerminal: boolean) => (eb: ExpressionBuilder<Database, 'payments'>) =>
  eb.or([
    eb.and([eb('psp', '=', day.psp), eb('psp_terminal_id', '=', day.terminal_id)]),
    ...(day.psp === ORIGINAL_PSP && deployedTerminal
      ? [eb.and([eb('psp', 'is', null), eb('psp_terminal_id', 'is', null)])]
      : []),
  ]);

/**
 * The terminal's payments the bank confirmed within [start, end) and that kept their money. A payment
 * recorded before PSP routing named no PSP or terminal: every one went to the SEP terminal the
 * deployment configured for its mode, so that terminal (`deployedTerminal`: the one configured here
 * now) counts them too, and no other SEP terminal does.
 */
export async function confirmedPayments(db: Db, day: TerminalDay, start: Date, end: Date, deployedTerminal: boolean) {
  return (
    db
      .selectFrom('payments')
      // The bank holds what it charged: the amount plus the fee of a customer-pays payment.
      .select(['id', CHARGED_AMOUNT_SQL.as('amount'), 'reference_id', 'card_pan'])
      .where('mode', '=', day.mode)
      .where('status', 'in', CONFIRMED_STATUSES)
      .where(atTerminal(day, deployedTerminal))
      .where('paid_at', '>=', start)
      .where('paid_at', '<', end)
      .orderBy('id')
      .execute()
  );
}

export interface BankReconciliationRun extends TerminalDay {
  id: string;
  source: 'psp' | 'file';
  counts: Record<BankReconciliationKind, number>;
  created_at: string;
}

/** The day's newest run: the one that stands (runs of one day are ordered by their time, then id). */
const newestRun = (db: Db, day: TerminalDay) =>
  db
    .selectFrom('bank_reconciliation_runs')
    .selectAll()
    .where('mode', '=', day.mode)
    .where('psp', '=', day.psp)
    .where('terminal_id', '=', day.terminal_id)
    .where('day', '=', day.day)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1);

/** SQL: no run of the same terminal's day is newer than the run `alias`, so it stands (the same order as newestRun). */
const standing = (alias: 'rr' | 'r') => sql`NOT EXISTS (
  SELECT 1 FROM bank_reconciliation_runs rn
    WHERE rn.mode = ${sql.ref(`${alias}.mode`)} AND rn.psp = ${sql.ref(`${alias}.psp`)} AND rn.terminal_id = ${sql.ref(`${alias}.terminal_id`)} AND rn.day = ${sql.ref(`${alias}.day`)}
      AND (rn.created_at > ${sql.ref(`${alias}.created_at`)} OR (rn.created_at = ${sql.ref(`${alias}.created_at`)} AND rn.id > ${sql.ref(`${alias}.id`)})))`;

/** The items as stored and compared: their order and every field, so a digest tells two results apart. */
const digestOf = (items: readonly BankReconciliationItem[]) =>
  createHash('sha256').update(JSON.stringify(items)).digest('hex');

const runOf = (
  row: {
    id: string;
    mode: 'test' | 'live';
    psp: string;
    terminal_id: string;
    day: string;
    source: 'psp' | 'file';
    created_at: Date;
  } & Record<BankReconciliationKind, number>,
) => ({
  id: row.id,
  mode: row.mode,
  psp: row.psp,
  terminal_id: row.terminal_id,
  day: row.day,
  source: row.source,
  counts: {
    matched: row.matched,
    bank_only: row.bank_only,
    gateway_only: row.gateway_only,
    amount_mismatch: row.amount_mismatch,
  },
  created_at: row.created_at.toISOString(),
});

/**
 * Records a run of the day with its items, unless the day's newest run has the very same items: a
 * run repeated (a retried activity, the operator's second `run`) is that run (`created` false); a
 * bank's corrected report, or records that moved since, makes a new run, and the old one stays.
 */
export async function recordBankReconciliation(
  db: Db,
  day: TerminalDay,
  result: { source: 'psp' | 'file'; items: readonly BankReconciliationItem[]; at: Date },
): Promise<{ run: BankReconciliationRun; created: boolean }> {
  const digest = digestOf(result.items);
  return db.transaction().execute(async (trx) => {
    // The day's runs locked: two runs of one day at once are made one after the other.
    const newest = await newestRun(trx, day).forUpdate().executeTakeFirst();
    if (newest !== undefined && newest.digest === digest) return { run: runOf(newest), created: false };
    const counts = countByKind(result.items);
    // A run after the newest, even within its millisecond: the order of runs is the order of their times.
    const at =
      newest !== undefined && newest.created_at.getTime() >= result.at.getTime()
        ? new Date(newest.created_at.getTime() + 1)
        : result.at;
    const row = { id: randomUUID(), ...day, source: result.source, digest, ...counts, created_at: at };
    await trx.insertInto('bank_reconciliation_runs').values(row).execute();
    for (let i = 0; i < result.items.length; i += 500) {
      const values = result.items
        .slice(i, i + 500)
        .map((item, j) => ({ run_id: row.id, position: i + j + 1, ...item }));
      await trx.insertInto('bank_reconciliation_items').values(values).execute();
    }
    return { run: runOf(row), created: true };
  });
}

/** The day's newest run and its items, in their order; undefined when the day was never reconciled. */
export async function newestBankReconciliation(
  db: Db,
  day: TerminalDay,
): Promise<{ run: BankReconciliationRun; items: BankReconciliationItem[] } | undefined> {
  const row = await newestRun(db, day).executeTakeFirst();
  if (row === undefined) return undefined;
  const items = await db
    .selectFrom('bank_reconciliation_items')
    .selectAll()
    .where('run_id', '=', row.id)
    .orderBy('position')
    .execute();
  const amount = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    run: runOf(row),
    items: items.map((i) => ({
      kind: i.kind,
      payment_id: i.payment_id,
      order_id: i.order_id,
      ref_num: i.ref_num,
      bank_amount: amount(i.bank_amount),
      gateway_amount: amount(i.gateway_amount),
      card_pan: i.card_pan,
    })),
  };
}

/**
 * Whether the payment of `paymentId` (a column or value) is `matched` in the newest run of its day:
 * the one rule settlement asks of reconciliation (src/db/settlements.ts). A payment whose day was not
 * reconciled yet, or whose newest run holds it as a difference, is not.
 */
export function reconciledAsMatched(paymentId: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (
    SELECT 1 FROM bank_reconciliation_items ri JOIN bank_reconciliation_runs rr ON rr.id = ri.run_id
      WHERE ri.payment_id = ${paymentId} AND ri.kind = 'matched' AND ${standing('rr')})`;
}

/**
 * Whether the row `payments` may be settled as far as bank reconciliation goes: its PSP has no
 * documented daily report (it is not one of `reportedPsps`), so the PSP's own verify and reverse
 * answers, recorded with the payment, are the bank's record and nothing is waited for; or its day's
 * newest run matched it. A payment recorded before routing named no PSP: SEP's.
 */
export function reconciledForSettlement(reportedPsps: readonly string[]): RawBuilder<boolean> {
  if (reportedPsps.length === 0) return sql<boolean>`TRUE`;
  return sql<boolean>`(COALESCE(payments.psp, ${ORIGINAL_PSP}) NOT IN (${sql.join([...reportedPsps])}) OR ${reconciledAsMatched(sql.ref('payments.id'))})`;
}

/**
 * A terminal's day as the PSP's own answers recorded it, for a PSP with no report: the payments its
 * verify confirmed that kept their money, and those it reversed (status `reversed`, paid that day),
 * with their charged amounts. The same payments confirmedPayments reads for a report.
 */
export async function recordedAnswers(db: Db, day: TerminalDay, start: Date, end: Date, deployedTerminal: boolean) {
  const rows = await db
    .selectFrom('payments')
    .select(['status', sql<string>`COUNT(*)`.as('n'), sql<string>`COALESCE(SUM(${CHARGED_AMOUNT_SQL}), 0)`.as('rials')])
    .where('mode', '=', day.mode)
    .where('status', 'in', [...CONFIRMED_STATUSES, 'reversed'])
    .where(atTerminal(day, deployedTerminal))
    .where('paid_at', '>=', start)
    .where('paid_at', '<', end)
    .groupBy('status')
    .execute();
  const sum = (kept: boolean) =>
    rows
      .filter((r) => (r.status !== 'reversed') === kept)
      .reduce((t, r) => ({ count: t.count + Number(r.n), amount: t.amount + Number(r.rials) }), {
        count: 0,
        amount: 0,
      });
  return { confirmed: sum(true), reversed: sum(false) };
}

/**
 * The live terminal days that hold payments a settlement at `cutoff` would cover but for their
 * reconciliation: of a PSP in `reportedPsps`, verified by the cutoff, not settled, not matched by their day's newest run, paid
 * since `since`. A payment that named no terminal (before routing) is SEP's, terminal unknown
 * (`terminal_id` null). The day is Tehran's by its fixed offset, +03:30 (Iran has kept no summer
 * time since 2022).
 */
export async function daysAwaitingReconciliation(
  db: Db,
  cutoff: Date,
  since: Date,
  reportedPsps: readonly string[],
): Promise<{ psp: string; terminal_id: string | null; day: string }[]> {
  if (reportedPsps.length === 0) return [];
  const rows = await sql<{ psp: string | null; terminal_id: string | null; day: string }>`
    SELECT psp, psp_terminal_id AS terminal_id, DATE_FORMAT(paid_at + INTERVAL 210 MINUTE, '%Y-%m-%d') AS day
      FROM payments
      WHERE mode = 'live' AND settlement_status = 'pending' AND status IN (${sql.join([...VERIFIED_STATUSES])})
        AND verified_at <= ${cutoff} AND paid_at >= ${since} AND COALESCE(psp, ${ORIGINAL_PSP}) IN (${sql.join([...reportedPsps])})
        AND NOT ${reconciledAsMatched(sql.ref('payments.id'))}
      GROUP BY psp, psp_terminal_id, day
      ORDER BY day, psp, terminal_id`.execute(db);
  return rows.rows.map((r) => ({ psp: r.psp ?? ORIGINAL_PSP, terminal_id: r.terminal_id, day: r.day }));
}

/** The differences of each terminal's newest run of every day since `sinceDay` (the metric's, and the alert's). */
export async function openDifferences(
  db: Db,
  sinceDay: string,
): Promise<{ psp: string; terminal_id: string; kind: BankReconciliationKind; count: number }[]> {
  const rows = await sql<{
    psp: string;
    terminal_id: string;
    bank_only: string;
    gateway_only: string;
    amount_mismatch: string;
  }>`
    SELECT r.psp, r.terminal_id, SUM(r.bank_only) AS bank_only, SUM(r.gateway_only) AS gateway_only, SUM(r.amount_mismatch) AS amount_mismatch
      FROM bank_reconciliation_runs r
      WHERE r.day >= ${sinceDay} AND ${standing('r')}
      GROUP BY r.psp, r.terminal_id
      ORDER BY r.psp, r.terminal_id`.execute(db);
  return rows.rows.flatMap((r) =>
    (['bank_only', 'gateway_only', 'amount_mismatch'] as const).map((kind) => ({
      psp: r.psp,
      terminal_id: r.terminal_id,
      kind,
      count: Number(r[kind]),
    })),
  );
}
