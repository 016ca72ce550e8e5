/**
 * Load through a frozen dependency (scenarios 6 and 7): logical creates, one
 * every `everyMs`, each with its own Idempotency-Key and followed by the
 * customer paying, retried after Retry-After as a well-behaved client does;
 * readers list payments meanwhile. Every single request is timed: each must
 * be answered (a success or 503 with Retry-After) within the gateway's bound
 * on one request, and afterwards every create has exactly one payment, paid,
 * whose record equals its workflow.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { TEMPORAL_CALL_MS } from '../../../src/temporal/call.ts';
import { request, waitFor, type TestResponse } from '../http.ts';
import { chooseOnBankPage, paymentRequest, postBankReturn, type CreateResponse } from '../payments.ts';
import { recordsDifferingFromWorkflows, codeOf, untilAnswered } from './checks.ts';
import { faultApi, faultMerchant, getFaultStack, type FaultStack } from './fault-stack.ts';

interface Timed {
  kind: 'create' | 'page' | 'pay' | 'list';
  at: number;
  ms: number;
  /** 0: no HTTP answer at all. */
  status: number;
  code?: string;
  retryAfter: string | null;
  text: string;
}

/**
 * The longest one request may take while a dependency hangs: waiting for a
 * MySQL connection, one query, one Temporal call (each bounded), in the
 * worst order.
 */
export function requestBoundMs(s: FaultStack): number {
  return s.baseConfig.DATABASE_ACQUIRE_TIMEOUT_MS + s.baseConfig.DATABASE_QUERY_TIMEOUT_MS + TEMPORAL_CALL_MS + 500;
}

export interface FreezeOptions {
  /** Figures' name in reliability.json. */
  scenario: string;
  freeze(s: FaultStack): void;
  thaw(s: FaultStack): void;
  freezeMs: number;
  creates: number;
  everyMs: number;
  /** When the freeze begins, after the load began. */
  freezeAfterMs: number;
}

export async function loadThroughFreeze(o: FreezeOptions): Promise<Record<string, unknown>> {
  const s = await getFaultStack();
  const merchant = await faultMerchant();
  const api = await faultApi();
  const prefix = `${o.scenario}-${Date.now()}`;
  const timed: Timed[] = [];
  const timedCall = async <T>(kind: Timed['kind'], call: () => Promise<TestResponse<T>>): Promise<TestResponse<T>> => {
    const at = Date.now();
    try {
      const res = await call();
      timed.push({
        kind,
        at,
        ms: Date.now() - at,
        status: res.status,
        code: codeOf(res),
        retryAfter: res.headers.get('retry-after'),
        text: res.text.slice(0, 300),
      });
      return res;
    } catch (error) {
      timed.push({ kind, at, ms: Date.now() - at, status: 0, retryAfter: null, text: String(error) });
      throw error;
    }
  };
  const fetched = async (url: string, init: RequestInit): Promise<TestResponse<undefined>> => {
    const res = await fetch(url, { ...init, redirect: 'manual' });
    return { status: res.status, headers: res.headers, body: undefined, text: await res.text() };
  };
  /**
   * The customer's path: our payment page and its Pay button (both again while we answer 5xx), the
   * bank simulator's page, then the bank's form back to our return route, resubmitted while we answer
   * 5xx as a customer does (our payment page would by then show a payment already past its Pay
   * button). Our own requests are timed; the simulator's are the bank's, not ours.
   */
  const pay = async (paymentId: string): Promise<TestResponse<undefined>> => {
    const toBank = await untilAnswered(
      async () => {
        const page = await timedCall('page', () => fetched(`${api}/pay/${paymentId}`, {}));
        if (page.status !== 200) return page;
        const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
        const token = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
        return timedCall('pay', () =>
          fetched(`${api}/pay/${paymentId}`, {
            method: 'POST',
            body: new URLSearchParams({ action: 'pay', csrf_token: token }).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api, cookie },
          }),
        );
      },
      (r) => r.status >= 500,
    );
    const location = toBank.res.headers.get('location') ?? '';
    if (toBank.res.status !== 303 || !location.includes('/OnlinePG/SendToken')) return toBank.res;
    const form = await chooseOnBankPage(location, 'success');
    const back = await untilAnswered(
      () =>
        timedCall('pay', async () => {
          const res = await postBankReturn(form);
          return { status: res.status, headers: res.headers, body: undefined, text: await res.text() };
        }),
      (r) => r.status >= 500,
    );
    return back.res;
  };

  let loadDone = false;
  const readers = (async () => {
    while (!loadDone) {
      await timedCall('list', () => request(api, 'GET', '/api/v1/payments', { key: merchant.key })).catch(
        () => undefined,
      );
      await sleep(200);
    }
  })();
  const load = Promise.all(
    Array.from({ length: o.creates }, async (_, i) => {
      await sleep(i * o.everyMs);
      const body = paymentRequest({ merchant_reference: `${prefix}-${i}` });
      const created = await untilAnswered(
        () =>
          timedCall('create', () =>
            request<CreateResponse>(api, 'POST', '/api/v1/payments', {
              key: merchant.key,
              body,
              idempotencyKey: `${prefix}-${i}`,
            }),
          ),
        (r) => codeOf(r) === 'idempotency_key_in_use',
      );
      assert.equal(created.res.status, 201, created.res.text);
      const paid = await untilAnswered(
        () => pay(created.res.body.payment.id),
        (r) => r.status >= 500,
      );
      assert.equal(paid.res.status, 303, paid.res.text);
      return created.res.body.payment.id;
    }),
  );

  await sleep(o.freezeAfterMs);
  o.freeze(s);
  const frozenAt = Date.now();
  await sleep(o.freezeMs);
  o.thaw(s);
  const thawedAt = Date.now();
  const ids = await load;
  loadDone = true;
  await readers;

  await waitFor(
    'every payment to be recorded paid',
    async () => {
      const rows = await s.db
        .selectFrom('payments')
        .select('id')
        .where('merchant_id', '=', merchant.merchantId)
        .where('status', '=', 'paid')
        .execute();
      return rows.length >= o.creates ? true : undefined;
    },
    240_000,
    500,
  );
  const convergedAt = Date.now();
  const rows = await s.db
    .selectFrom('payments')
    .select(['id', 'merchant_reference'])
    .where('merchant_id', '=', merchant.merchantId)
    .execute();
  const references = rows.map((r) => r.merchant_reference);
  const differing = await recordsDifferingFromWorkflows(s, ids);
  const events = await s.db
    .selectFrom('events')
    .select(['object_id', 'type'])
    .where('merchant_id', '=', merchant.merchantId)
    .execute();
  const eventKeys = events.map((e) => `${e.object_id}:${e.type}`);

  const bound = requestBoundMs(s);
  const duringFreeze = timed.filter((t) => t.at + t.ms >= frozenAt && t.at <= thawedAt);
  const latencies = timed.map((t) => t.ms).sort((a, b) => a - b);
  const failures = timed.filter((t) => t.status >= 500 || t.status === 0);
  const figures = {
    freeze_ms: thawedAt - frozenAt,
    logical_creates: o.creates,
    requests: timed.length,
    requests_during_freeze: duringFreeze.length,
    answered_ok_during_freeze: duringFreeze.filter((t) => t.status > 0 && t.status < 500).length,
    answered_503: failures.filter((t) => t.status === 503).length,
    answered_other_5xx: failures.filter((t) => t.status >= 500 && t.status !== 503).length,
    unanswered: failures.filter((t) => t.status === 0).length,
    request_bound_ms: bound,
    max_request_ms: latencies[latencies.length - 1] ?? 0,
    p99_request_ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    median_request_ms: latencies[Math.floor(latencies.length / 2)] ?? 0,
    slowest: timed.filter((t) => t.ms > bound).map((t) => `${t.kind} ${t.status} ${t.ms} ms`),
    payments: rows.length,
    duplicates: references.length - new Set(references).size,
    lost: o.creates - new Set(references).size,
    records_differing_from_workflows: differing.length,
    duplicate_events: eventKeys.length - new Set(eventKeys).size,
    all_paid_after_thaw_ms: convergedAt - thawedAt,
  };

  for (const t of failures) {
    assert.equal(t.status, 503, `${t.kind}: ${t.status} ${t.text}`);
    if (t.kind !== 'page' && t.kind !== 'pay') assert.equal(t.code, 'service_unavailable', t.text);
    assert.ok(Number(t.retryAfter) >= 1, `${t.kind} 503 without Retry-After`);
    assert.doesNotMatch(t.text, /\n\s+at |node_modules|\.ts:\d|ECONN|PROTOCOL_|ER_/);
  }
  return figures;
}
