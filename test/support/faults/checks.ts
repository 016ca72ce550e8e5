/** What every fault scenario checks afterwards: records equal workflows, and money moved once. */
import { setTimeout as sleep } from 'node:timers/promises';
import { bankAdmin, bankOperations } from '../bank.ts';
import { WorkflowNotFoundError } from '@temporalio/client';
import { paymentQuery, paymentWorkflowId, refundsWorkflowId } from '../../../src/domain/payment-workflow.ts';
import type { Payment } from '../../../src/domain/payment-schemas.ts';
import type { BankOutcome } from '../../../src/domain/payment.ts';
import { client, type TestResponse } from '../http.ts';
import { chooseOutcome } from '../payments.ts';
import { inParallel, type FaultStack } from './fault-stack.ts';

/**
 * The payment as the workflow that wrote it last holds it: its refunds workflow's latest run once
 * a refund was asked for, else its own workflow (which, of the first type, also takes its refunds).
 */
async function lastWritten(s: Pick<FaultStack, 'temporal'>, id: string): Promise<Payment> {
  try {
    return await s.temporal.workflow.getHandle(refundsWorkflowId(id)).query(paymentQuery);
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    return s.temporal.workflow.getHandle(paymentWorkflowId(id)).query(paymentQuery);
  }
}

/** Payments whose MySQL record differs from their workflow's state (status, version-bearing fields). */
export async function recordsDifferingFromWorkflows(
  s: Pick<FaultStack, 'db' | 'temporal'>,
  ids: string[],
): Promise<string[]> {
  const rows = await s.db
    .selectFrom('payments')
    .select(['id', 'status', 'refunded_amount', 'paid_at', 'verified_at'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const differing: string[] = [];
  await inParallel(ids, 8, async (id) => {
    const row = byId.get(id);
    let live: Payment;
    try {
      live = await lastWritten(s, id);
    } catch {
      differing.push(id);
      return;
    }
    if (
      row === undefined ||
      row.status !== live.status ||
      Number(row.refunded_amount) !== live.refunded_amount ||
      (row.paid_at === null) !== (live.paid_at === null)
    ) {
      differing.push(id);
    }
  });
  return differing;
}

export interface MoneyCheck {
  /** Payments whose money went back more than once, or both reversed and refunded. */
  paid_back_twice: number;
  /** Reversed payments without exactly one reversal at the bank. */
  reversals_missing: number;
  /** Payments whose recorded refunded_amount differs from the bank's refunds and reversal. */
  ledger_mismatches: number;
  reversal_operations: number;
  refund_operations: number;
}

/** Compares every payment with the bank's own ledger (the bank simulator's). */
export async function moneyCheck(s: Pick<FaultStack, 'db'>, ids: string[]): Promise<MoneyCheck> {
  const payments = await s.db
    .selectFrom('payments')
    .select(['id', 'status', 'amount', 'refunded_amount'])
    .where('id', 'in', ids)
    .execute();
  const ops: { payment_id: string; kind: string; amount: number }[] = [];
  for (const id of ids)
    ops.push(...(await bankOperations(id)).map((o) => ({ payment_id: id, kind: o.kind, amount: o.amount })));
  // A refund of a SEP payment (no refund operation) that is not its reversal is a transfer to the IBAN given: a refund too.
  const { transfers } = await bankAdmin<{ transfers: { transfer_id: string; amount: number; description: string }[] }>(
    '/admin/transfers',
  );
  for (const t of transfers.filter((x) => x.transfer_id.startsWith('refund-payout:'))) {
    const id = ids.find((i) => t.description.endsWith(`of payment ${i}`));
    if (id !== undefined) ops.push({ payment_id: id, kind: 'refund', amount: Number(t.amount) });
  }
  const result: MoneyCheck = {
    paid_back_twice: 0,
    reversals_missing: 0,
    ledger_mismatches: 0,
    reversal_operations: 0,
    refund_operations: 0,
  };
  for (const p of payments) {
    const mine = ops.filter((o) => o.payment_id === p.id);
    const reversals = mine.filter((o) => o.kind === 'reverse');
    const refunds = mine.filter((o) => o.kind === 'refund');
    result.reversal_operations += reversals.length;
    result.refund_operations += refunds.length;
    const paidBack = [...reversals, ...refunds].reduce((sum, o) => sum + Number(o.amount), 0);
    if (reversals.length > 1 || (reversals.length === 1 && refunds.length > 0) || paidBack > Number(p.amount))
      result.paid_back_twice += 1;
    if (p.status === 'reversed' && reversals.length !== 1) result.reversals_missing += 1;
    // A pending refund is counted in refunded_amount before the bank pays it out; after convergence none is pending.
    if (paidBack !== Number(p.refunded_amount)) result.ledger_mismatches += 1;
  }
  return result;
}

/** Calls until the gateway answers something other than "unavailable, retry": what a well-behaved client does. */
export async function untilAnswered<T>(
  call: () => Promise<TestResponse<T>>,
  retryable: (res: TestResponse<T>) => boolean = () => false,
  timeoutMs = 240_000,
): Promise<{ res: TestResponse<T>; retries: number }> {
  const deadline = Date.now() + timeoutMs;
  for (let retries = 0; ; retries++) {
    let res: TestResponse<T> | undefined;
    try {
      res = await call();
    } catch {
      res = undefined; // connection-level failure: retry too
    }
    if (res !== undefined && res.status !== 503 && !retryable(res)) return { res, retries };
    if (Date.now() > deadline)
      throw new Error(`no answer within ${timeoutMs} ms (last: ${res?.status ?? 'no response'} ${res?.text ?? ''})`);
    const after = Number(res?.headers.get('retry-after') ?? '1');
    await sleep(Math.min(Number.isFinite(after) ? after : 1, 2) * 500);
  }
}

/**
 * The customer's Pay and the bank's return, tried again through an outage as a customer tries again
 * (no answer, a 5xx, or Pay refused with 403 because the page could not issue its form token while
 * a dependency was down). A try whose answer was lost may still have reached the workflow durably:
 * the next try then finds the payment out of `created`, with no Pay button on its page and its Pay
 * refused with 403. So a 403 ends the tries only once the payment is seen out of `created`
 * (`wentThrough`), and is tried again while it is still payable.
 */
export async function payThroughFaults(
  api: string,
  key: string,
  paymentId: string,
  outcome: BankOutcome,
  timeoutMs = 240_000,
): Promise<{ res: TestResponse<unknown>; retries: number; wentThrough: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (let retries = 0; ; retries++) {
    const res = await chooseOutcome(api, paymentId, outcome).catch(() => undefined);
    if (res !== undefined && res.status < 500 && res.status !== 403) return { res, retries, wentThrough: false };
    if (res?.status === 403) {
      const now = await client(api, key)
        .get<{ payment: Payment }>(`/payments/${paymentId}`)
        .catch(() => undefined);
      if (now?.status === 200 && now.body.payment.status !== 'created') return { res, retries, wentThrough: true };
    }
    if (Date.now() > deadline)
      throw new Error(`no answer within ${timeoutMs} ms (last: ${res?.status ?? 'no response'} ${res?.text ?? ''})`);
    await sleep(500);
  }
}

export function codeOf(res: TestResponse<unknown>): string | undefined {
  return (res.body as { code?: string } | undefined)?.code;
}

/** Verify, retried through outages, until the workflow answers. */
export async function verifyThroughFaults(baseUrl: string, key: string, payment: Pick<Payment, 'id' | 'amount'>) {
  return untilAnswered(
    () => client(baseUrl, key).post<{ payment: Payment }>(`/payments/${payment.id}/verify`, { amount: payment.amount }),
    (res) => codeOf(res) === 'payment_not_paid' || codeOf(res) === 'payment_pending',
  );
}
