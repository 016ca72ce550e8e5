/**
 * The bare durable work of one create, without HTTP, auth, validation or
 * idempotency: the MySQL insert of the payment row and the start of its
 * Temporal workflow, exactly as the create path does them. Its rate is the
 * ceiling the machine allows the gateway's create.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import { rowFromNewPayment } from '../../src/db/payments.ts';
import { newPayment, paymentWorkflowInput, startPaymentWorkflow } from '../../src/payments/service.ts';
import type { Merchant } from '../../src/domain/merchant.ts';
import { PAYMENT_AMOUNT } from './load.ts';

export interface DurableCreateDeps {
  db: Db;
  temporal: Client;
  config: Config;
  merchant: Pick<Merchant, 'id' | 'fee_plan'>;
}

export interface BaselineResult {
  rps: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  operations: number;
  duration_s: number;
}

let sequence = 0;

/** One payment row and its workflow, nothing else. */
export async function durableCreate({ db, temporal, config, merchant }: DurableCreateDeps): Promise<string> {
  sequence += 1;
  const request = {
    amount: PAYMENT_AMOUNT,
    callback_url: 'http://localhost:8000/return',
    merchant_reference: `durable-${process.pid}-${sequence}`,
    description: 'Benchmark order',
  };
  const payment = newPayment(randomUUID(), 'test', request, config, Date.now());
  await db
    .insertInto('payments')
    .values(rowFromNewPayment(payment, merchant.id, null))
    .execute();
  await startPaymentWorkflow(temporal, paymentWorkflowInput(payment, merchant, config), config.TEMPORAL_TASK_QUEUE);
  return payment.id;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[index]! * 100) / 100;
}

/**
 * Runs `operation` `count` times with `concurrency` in flight (a closed loop,
 * like autocannon's connections), stopping early after `maxSeconds`.
 */
export async function closedLoop(
  operation: () => Promise<unknown>,
  count: number,
  concurrency: number,
  maxSeconds: number,
): Promise<BaselineResult> {
  return (await timedClosedLoop(operation, count, concurrency, maxSeconds)).result;
}

/** closedLoop, with every operation's latency in ms (sorted), so that two runs can be summed exactly (mergeBaselines). */
export async function timedClosedLoop(
  operation: () => Promise<unknown>,
  count: number,
  concurrency: number,
  maxSeconds: number,
): Promise<{ result: BaselineResult; latencies: number[] }> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  let issued = 0;
  const lane = async () => {
    while (issued < count && performance.now() < deadline) {
      issued += 1;
      const t0 = performance.now();
      await operation();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { result: baselineOf(latencies, seconds), latencies };
}

function baselineOf(sortedLatencies: number[], seconds: number): BaselineResult {
  return {
    rps: seconds === 0 ? 0 : Math.round((sortedLatencies.length / seconds) * 100) / 100,
    p50_ms: percentile(sortedLatencies, 50),
    p90_ms: percentile(sortedLatencies, 90),
    p99_ms: percentile(sortedLatencies, 99),
    operations: sortedLatencies.length,
    duration_s: Math.round(seconds * 100) / 100,
  };
}

/** Runs of the same closed loop as one: operations over the seconds they took together, percentiles of every latency. */
export function mergeBaselines(runs: { result: BaselineResult; latencies: number[] }[]): BaselineResult {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return baselineOf(
    latencies,
    runs.reduce((sum, r) => sum + r.result.duration_s, 0),
  );
}
