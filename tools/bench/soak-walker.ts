/**
 * The soak's traffic (tools/bench/soak.ts): one payment's walk through the API as a customer and a
 * merchant would, and the latencies and errors each interval records of it.
 */
import { randomUUID } from 'node:crypto';
import { percentile } from './durable.ts';
import type { DayMix } from './day.ts';
import { apiHeaders, createBody, PAYMENT_AMOUNT, type Target } from './load.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const OPERATIONS = ['create', 'page', 'bank', 'verify', 'refund', 'cancel'] as const;
export type Operation = (typeof OPERATIONS)[number];
export type Fate = keyof DayMix;

export interface OperationStats {
  count: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
}

/** The latencies and errors of one interval, by operation. */
export class Recorder {
  latencies = new Map<Operation, number[]>();
  errors = new Map<Operation, number>();
  arrivals = 0;
  completed = 0;
  maxLag = 0;
  earlyVerifies = 0;
  record(op: Operation, ms: number) {
    const list = this.latencies.get(op) ?? [];
    list.push(ms);
    this.latencies.set(op, list);
  }
  error(op: Operation) {
    this.errors.set(op, (this.errors.get(op) ?? 0) + 1);
  }
  operations(): Record<Operation, OperationStats> {
    return Object.fromEntries(
      OPERATIONS.map((op) => {
        const sorted = (this.latencies.get(op) ?? []).sort((a, b) => a - b);
        return [
          op,
          {
            count: sorted.length,
            p50_ms: percentile(sorted, 50),
            p99_ms: percentile(sorted, 99),
            errors: this.errors.get(op) ?? 0,
          },
        ];
      }),
    ) as Record<Operation, OperationStats>;
  }
}

/** One payment's walk through the API. `recorder()` is read at each answer, so a step lands in the interval it ended in. */
export class Walker {
  errorsShown = 0;
  private readonly target: Target;
  private readonly recorder: () => Recorder;
  private readonly plan: { verifyDelayMs: number };
  private readonly log: (line: string) => void;
  constructor(target: Target, recorder: () => Recorder, plan: { verifyDelayMs: number }, log: (line: string) => void) {
    this.target = target;
    this.recorder = recorder;
    this.plan = plan;
    this.log = log;
  }

  /** One request; true when it answered `expected`. `from`: when it was due (create), else now. */
  async call(
    op: Operation,
    path: string,
    init: RequestInit,
    expected: number,
    from = performance.now(),
  ): Promise<{ ok: boolean; body: string; status: number }> {
    try {
      const res = await fetch(`${this.target.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
      const body = await res.text();
      if (res.status === expected) {
        this.recorder().record(op, performance.now() - from);
        return { ok: true, body, status: res.status };
      }
      if (!(op === 'verify' && res.status === 409 && body.includes('"payment_not_paid"')))
        this.fail(op, `answered ${res.status} ${body.slice(0, 160)}`);
      return { ok: false, body, status: res.status };
    } catch (error) {
      this.fail(op, error instanceof Error ? error.message : String(error));
      return { ok: false, body: '', status: 0 };
    }
  }

  private fail(op: Operation, what: string) {
    this.recorder().error(op);
    this.errorsShown += 1;
    if (this.errorsShown <= 5) this.log(`soak: ${op} ${what}`);
  }

  private post(op: Operation, path: string, body: unknown, expected: number, headers: Record<string, string> = {}) {
    return this.call(
      op,
      `/api/v1${path}`,
      { method: 'POST', headers: { ...apiHeaders(this.target.key), ...headers }, body: JSON.stringify(body) },
      expected,
    );
  }

  /** Walks one payment to its fate; `due` is its arrival time (performance.now()). */
  async walk(fate: Fate, due: number): Promise<void> {
    const key = this.target.key;
    const created = await this.call(
      'create',
      '/api/v1/payments',
      { method: 'POST', headers: { ...apiHeaders(key), 'idempotency-key': randomUUID() }, body: createBody() },
      201,
      due,
    );
    if (!created.ok) return;
    const id = (JSON.parse(created.body) as { payment: { id: string } }).payment.id;
    // The customer opens the payment page (every fate: the merchant sent them there).
    if (!(await this.call('page', `/pay/${id}?lang=en`, { method: 'GET' }, 200)).ok) return;
    if (fate === 'expired') return; // abandoned: the page expires by its own timer
    if (fate === 'canceled') {
      await this.post('cancel', `/payments/${id}/cancel`, {}, 200);
      return;
    }
    const bank = await this.post(
      'bank',
      `/test_helpers/payments/${id}/bank_outcome`,
      { outcome: fate === 'declined' ? 'failure' : 'success' },
      200,
    );
    if (!bank.ok || fate === 'declined') return;
    await pause(this.plan.verifyDelayMs);
    // A verify that still finds the payment unpaid (the bank's answer not yet recorded) is sent again, as a merchant would.
    for (let attempt = 1; ; attempt++) {
      const verify = await this.post('verify', `/payments/${id}/verify`, { amount: PAYMENT_AMOUNT }, 200);
      if (verify.ok) break;
      if (verify.status !== 409 || attempt === 50) {
        if (verify.status === 409) this.fail('verify', 'still payment_not_paid after 50 attempts');
        return;
      }
      this.recorder().earlyVerifies += 1;
      await pause(200);
    }
    if (fate === 'refunded')
      await this.post('refund', `/payments/${id}/refunds`, {}, 201, { 'idempotency-key': randomUUID() });
  }
}
