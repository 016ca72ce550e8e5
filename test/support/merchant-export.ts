/**
 * What the merchant export tests share (test/payments/merchant-export-*.test.ts):
 * payments and refunds written straight into MySQL (a workflow per row would
 * take minutes and tell nothing more about a query), what a refused request
 * must leave untouched, the lists' order, the CSV report's address, and a
 * database that fails like a MySQL gone away.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { TableNode, type KyselyPlugin } from 'kysely';
import type { Db, NewPaymentRow } from '../../src/db/database.ts';
import type { PaymentStatus } from '../../src/domain/payment.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { markSeeded } from './ledger.ts';

export interface ErrorBody {
  code: string;
  message: string;
  details?: { path: string; message: string }[];
}

const PAID_LIKE: readonly PaymentStatus[] = ['paid', 'verified', 'reversed', 'partially_refunded', 'refunded'];
let trackingBase = 100_000_000_000 + randomInt(0, 800_000_000_000);
const nextTrackingCode = () => String(trackingBase++);
const digits12 = () => String(randomInt(100_000_000_000, 1_000_000_000_000));

export interface Seed {
  mode?: 'test' | 'live';
  status?: PaymentStatus;
  amount?: number;
  merchant_reference?: string;
  rrn?: string | null;
  created_at: Date;
}

export function paymentRow(merchantId: string, seed: Seed): NewPaymentRow {
  const status = seed.status ?? 'created';
  const paid = PAID_LIKE.includes(status);
  const amount = seed.amount ?? 150_000;
  const at = seed.created_at;
  const later = (s: number) => new Date(at.getTime() + s * 1000);
  const mode = seed.mode ?? 'test';
  return {
    id: randomUUID(),
    merchant_id: merchantId,
    mode,
    status,
    amount,
    charged_amount: amount,
    fee: paid && status !== 'paid' && status !== 'reversed' ? Math.round(amount / 100) : 0,
    refunded_amount: status === 'refunded' ? amount : status === 'partially_refunded' ? Math.floor(amount / 2) : 0,
    currency: 'IRR',
    merchant_reference: seed.merchant_reference ?? `order-${randomUUID().slice(0, 8)}`,
    tracking_code: nextTrackingCode(),
    reference_id: paid ? String(randomInt(100_000_000, 999_999_999)) : null,
    rrn: seed.rrn !== undefined ? seed.rrn : paid ? digits12() : null,
    card_pan: paid ? '603799******1234' : null,
    description: 'seeded for reconciliation tests',
    mobile: null,
    callback_url: 'http://localhost:8000/return',
    failure_code: status === 'failed' ? 'card_declined' : null,
    failure_message: status === 'failed' ? 'The card was declined.' : null,
    created_at: at,
    paid_at: paid ? later(30) : null,
    verified_at: paid && status !== 'paid' && status !== 'reversed' ? later(60) : null,
    verify_deadline_at: paid ? later(930) : null,
    expires_at: later(900),
    settlement_status: mode === 'test' ? 'not_applicable' : 'pending',
    version: 1,
    updated_at: at,
  };
}

/** Seeds payments straight into the table (no workflow, no movements): their merchants are left out of the ledger check. */
export async function insertPayments(db: Db, rows: NewPaymentRow[], batch = 2_000): Promise<void> {
  for (const row of rows) markSeeded(row.merchant_id);
  for (let i = 0; i < rows.length; i += batch)
    await db
      .insertInto('payments')
      .values(rows.slice(i, i + batch))
      .execute();
}

export interface RefundSeed {
  payment: NewPaymentRow;
  status: Refund['status'];
  amount?: number;
  created_at: Date;
}

export async function insertRefunds(db: Db, seeds: RefundSeed[]): Promise<string[]> {
  for (const seed of seeds) markSeeded(seed.payment.merchant_id);
  const rows = seeds.map((s) => ({
    id: randomUUID(),
    payment_id: s.payment.id,
    merchant_id: s.payment.merchant_id,
    mode: s.payment.mode,
    amount: s.amount ?? 10_000,
    status: s.status,
    reason: null,
    failure_code: s.status === 'failed' ? 'bank_refused' : null,
    failure_message: s.status === 'failed' ? 'The bank refused the refund.' : null,
    created_at: s.created_at,
    succeeded_at: s.status === 'succeeded' ? new Date(s.created_at.getTime() + 5_000) : null,
    updated_at: s.created_at,
  }));
  await db.insertInto('refunds').values(rows).execute();
  return rows.map((r) => r.id);
}

/** What a refused request must leave untouched: the merchant's rows in every table a request could write. */
export async function writtenBy(db: Db, merchantId: string): Promise<string> {
  const counts = await Promise.all(
    (['payments', 'refunds', 'idempotency_keys', 'events', 'webhook_endpoints'] as const).map(async (table) => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('merchant_id', '=', merchantId)
        .executeTakeFirstOrThrow();
      return `${table}=${Number(row.n)}`;
    }),
  );
  return counts.join(' ');
}

/** Newest first by (created_at, id), as the lists order. */
export const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1;

export const reportPath = (from: string, to: string) =>
  `/reports/payments.csv?created_gte=${encodeURIComponent(from)}&created_lt=${encodeURIComponent(to)}`;

/** A Kysely over the same database whose selects from `payments` fail, after the first `okSelects`, as if MySQL had gone away. */
export function failingPaymentsDb(db: Db, okSelects: number): Db {
  let selects = 0;
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      const froms = node.kind === 'SelectQueryNode' ? (node.from?.froms ?? []) : [];
      const onPayments = froms.some((f) => TableNode.is(f) && f.table.identifier.name === 'payments');
      if (onPayments && ++selects > okSelects)
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return db.withPlugin(plugin);
}
