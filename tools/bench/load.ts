/**
 * The HTTP load of the benchmark, driven by autocannon over 127.0.0.1: every
 * scenario is bounded both in requests (or payments) and in seconds.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

export interface ScenarioResult {
  name: string;
  /** Requests per second; for full_flow, verified payments per second. */
  rps: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  /** Answers other than the scenario's expected ones, plus connection errors and timeouts. */
  errors: number;
  requests: number;
  /** full_flow: payments taken from create to verified. */
  payments?: number;
  duration_s: number;
}

export interface Target {
  /** http://127.0.0.1:<port> of one API process. */
  baseUrl: string;
  /** A test key of the benchmark's merchant (domain localhost). */
  key: string;
}

export interface LoadBounds {
  connections: number;
  /** At most this many requests (create, verify) or payments (full_flow). */
  amount: number;
  /** And at most this long. */
  maxSeconds: number;
}

export const PAYMENT_AMOUNT = 150_000;

let sequence = 0;
/** A valid create body: a merchant_reference of its own, a localhost callback (allowed in test mode). */
export function createBody(): string {
  sequence += 1;
  return JSON.stringify({
    amount: PAYMENT_AMOUNT,
    callback_url: 'http://localhost:8000/return',
    merchant_reference: `bench-${process.pid}-${sequence}`,
    description: 'Benchmark order',
  });
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Runs one autocannon instance, stopped at `maxSeconds` at the latest. */
async function runBounded(
  options: autocannon.Options,
  maxSeconds: number,
  onInstance?: (stop: () => void) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, result) => {
      clearTimeout(timer);
      if (error !== null && error !== undefined)
        reject(error instanceof Error ? error : new Error('autocannon failed'));
      else resolve(result);
    });
    const timer = setTimeout(() => instance.stop(), maxSeconds * 1000);
    onInstance?.(() => instance.stop());
  });
}

function summary(name: string, result: autocannon.Result, errors: number, completed: number): ScenarioResult {
  return {
    name,
    rps: round(completed / result.duration),
    p50_ms: result.latency.p50,
    p90_ms: result.latency.p90,
    p99_ms: result.latency.p99,
    errors: errors + result.errors + result.timeouts,
    requests: result.requests.total,
    duration_s: round(result.duration),
  };
}

/**
 * Runs of one scenario as one: what completed over the seconds they took together. Autocannon answers
 * percentiles, not latencies, so p50 and p90 are the runs' weighted by requests, and p99 the largest.
 */
export function mergeScenarios(runs: ScenarioResult[]): ScenarioResult {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const seconds = runs.reduce((sum, r) => sum + r.duration_s, 0);
  const completed = runs.reduce((sum, r) => sum + r.rps * r.duration_s, 0);
  const weighted = (pick: (r: ScenarioResult) => number) =>
    requests === 0 ? 0 : round(runs.reduce((sum, r) => sum + pick(r) * r.requests, 0) / requests);
  return {
    name: runs[0]?.name ?? 'create',
    rps: seconds === 0 ? 0 : round(completed / seconds),
    p50_ms: weighted((r) => r.p50_ms),
    p90_ms: weighted((r) => r.p90_ms),
    p99_ms: Math.max(0, ...runs.map((r) => r.p99_ms)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    requests,
    duration_s: round(seconds),
  };
}

export const apiHeaders = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One API call of a scenario's preparation (not measured): a 503 (a busy
 * machine past the gateway's bound on a Temporal call) is retried after
 * Retry-After, as any client would, and so is a verify that finds the payment
 * not yet paid; any other answer but `expected` stops the run.
 */
export async function prepareCall(
  target: Target,
  path: string,
  body: unknown,
  expected: number,
  headers: Record<string, string> = {},
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${target.baseUrl}/api/v1${path}`, {
      method: 'POST',
      headers: { ...apiHeaders(target.key), ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === expected) return;
    const early = res.status === 409 && text.includes('"payment_not_paid"');
    if ((res.status !== 503 && !early) || attempt === 60)
      throw new Error(`POST ${path} answered ${res.status}: ${text}`);
    await pause(early ? 200 : Number(res.headers.get('retry-after') ?? '1') * 1000);
  }
}

/** POST /api/v1/payments, each with its own Idempotency-Key as a careful merchant sends it. */
export async function createScenario(target: Target, bounds: LoadBounds, name = 'create'): Promise<ScenarioResult> {
  let errors = 0;
  let created = 0;
  const result = await runBounded(
    {
      url: target.baseUrl,
      connections: bounds.connections,
      amount: bounds.amount,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/payments',
          setupRequest: (request) => ({
            ...request,
            headers: { ...apiHeaders(target.key), 'idempotency-key': randomUUID() },
            body: createBody(),
          }),
          onResponse: (status) => {
            if (status === 201) created += 1;
            else errors += 1;
          },
        },
      ],
    },
    bounds.maxSeconds,
  );
  return summary(name, result, errors, created);
}

/** POST /api/v1/payments/{id}/verify once for each paid payment given (the workflow's verify update). */
export async function verifyScenario(target: Target, paidIds: string[], bounds: LoadBounds): Promise<ScenarioResult> {
  const queue = [...paidIds];
  const amount = Math.min(bounds.amount, queue.length - bounds.connections);
  if (amount < 1)
    throw new Error(`verify needs more paid payments than connections (${paidIds.length} for ${bounds.connections})`);
  let errors = 0;
  let verified = 0;
  const body = JSON.stringify({ amount: PAYMENT_AMOUNT });
  const result = await runBounded(
    {
      url: target.baseUrl,
      connections: bounds.connections,
      amount,
      requests: [
        {
          method: 'POST',
          // Each connection builds its next request before sending it, so the queue holds `connections` spares.
          setupRequest: (request) => ({
            ...request,
            path: `/api/v1/payments/${queue.shift() ?? 'none'}/verify`,
            headers: apiHeaders(target.key),
            body,
          }),
          onResponse: (status) => {
            if (status === 200) verified += 1;
            else errors += 1;
          },
        },
      ],
    },
    bounds.maxSeconds,
  );
  return summary('verify', result, errors, verified);
}

interface FlowContext {
  id?: string;
  cookie?: string;
  token?: string;
}

/**
 * The whole journey per payment: the merchant creates it, the customer opens
 * the payment page and pays success at the bank simulator, and the merchant
 * verifies. The merchant verifies after the customer came back, so verify
 * takes the oldest payment the bank answered at least `returnDelayMs` ago
 * (the redirect through the result page); until one is due, a connection
 * starts another payment instead. A verify that still finds the payment
 * unpaid is retried later, as a merchant would (counted in `early_verifies`).
 */
export async function fullFlowScenario(
  target: Target,
  bounds: LoadBounds,
  returnDelayMs = 200,
): Promise<{ scenario: ScenarioResult & { early_verifies: number }; verifiedIds: string[] }> {
  const banked: { id: string; at: number }[] = [];
  const verifiedIds: string[] = [];
  let errors = 0;
  let verified = 0;
  let early = 0;
  let stopLoad = () => {};
  const verifyBody = JSON.stringify({ amount: PAYMENT_AMOUNT });
  const fail = (what: string) => (status: number, expected: number) => {
    if (status !== expected) {
      errors += 1;
      if (errors <= 3) process.stderr.write(`full_flow: ${what} answered ${status}\n`);
    }
  };
  const failCreate = fail('create');
  const failPage = fail('payment page');
  const failBank = fail('bank form');
  const result = await runBounded(
    {
      url: target.baseUrl,
      connections: bounds.connections,
      // Bounded by payments (stopLoad) and seconds; this only caps the requests.
      amount: bounds.amount * 40 + bounds.connections * 40,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/payments',
          setupRequest: (request) => ({
            ...request,
            headers: { ...apiHeaders(target.key), 'idempotency-key': randomUUID() },
            body: createBody(),
          }),
          onResponse: (status, body, context: FlowContext) => {
            failCreate(status, 201);
            context.id = status === 201 ? (JSON.parse(body) as { payment: { id: string } }).payment.id : 'none';
          },
        },
        {
          method: 'GET',
          setupRequest: (request, context: FlowContext) => ({
            ...request,
            path: `/pay/${context.id ?? 'none'}?lang=en`,
            headers: {},
            body: '',
          }),
          onResponse: (status, body, context: FlowContext, headers) => {
            failPage(status, 200);
            // Raw header names keep their case.
            const setCookie = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'set-cookie')?.[1];
            context.cookie = String(Array.isArray(setCookie) ? setCookie[0] : (setCookie ?? '')).split(';')[0];
            context.token = /name="csrf_token" value="([^"]+)"/.exec(body)?.[1] ?? '';
          },
        },
        {
          method: 'POST',
          // The customer's trip through the bank simulator (token, its page, the callback), as the test helper takes it.
          setupRequest: (request, context: FlowContext) => ({
            ...request,
            path: `/api/v1/test_helpers/payments/${context.id ?? 'none'}/bank_outcome`,
            headers: apiHeaders(target.key),
            body: JSON.stringify({ outcome: 'success' }),
          }),
          onResponse: (status, _body, context: FlowContext) => {
            failBank(status, 200);
            if (status === 200 && context.id !== undefined) banked.push({ id: context.id, at: Date.now() });
          },
        },
        {
          method: 'POST',
          setupRequest: (request, context: FlowContext) => {
            const due = banked[0];
            if (due === undefined || Date.now() - due.at < returnDelayMs)
              return undefined as unknown as autocannon.Request; // start another payment
            banked.shift();
            context.id = due.id;
            return {
              ...request,
              path: `/api/v1/payments/${due.id}/verify`,
              headers: apiHeaders(target.key),
              body: verifyBody,
            };
          },
          onResponse: (status, body, context: FlowContext) => {
            if (status === 200) {
              verified += 1;
              if (context.id !== undefined) verifiedIds.push(context.id);
              if (verified >= bounds.amount) stopLoad();
            } else if (status === 409 && body.includes('"payment_not_paid"') && context.id !== undefined) {
              early += 1;
              banked.push({ id: context.id, at: Date.now() });
            } else {
              errors += 1;
              if (errors <= 3) process.stderr.write(`full_flow: verify answered ${status} ${body.slice(0, 200)}\n`);
            }
          },
        },
      ],
    },
    bounds.maxSeconds,
    (stop) => {
      stopLoad = stop;
    },
  );
  return {
    scenario: { ...summary('full_flow', result, errors, verified), payments: verified, early_verifies: early },
    verifiedIds,
  };
}
