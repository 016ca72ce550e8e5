/**
 * Open-loop load at a fixed rate, with latency taken from each request's
 * intended send time, so coordinated omission is accounted for: request i of
 * a stream at `rate`/s is due at start + i/rate and is sent then whether or
 * not earlier ones have been answered; a stall of the server (or of this
 * process) shows in every request that was due during it, as a merchant
 * sending at that rate would feel it.
 *
 * autocannon's `overallRate` is not used: each connection keeps one request
 * in flight and spends a per-second budget at the start of each second (bursts,
 * not a schedule), and its correction (`recordValueWithExpectedInterval` with
 * an interval of ceil(1/rate), i.e. 1 ms) back-fills a sample for every
 * millisecond of each response time, whatever the schedule was.
 */
import { randomUUID } from 'node:crypto';
import { percentile } from './durable.ts';
import { apiHeaders, createBody, PAYMENT_AMOUNT, type Target } from './load.ts';

/** One request of a stream: what to send, and the status that counts as success. */
export interface FixedRateRequest {
  url: string;
  init: RequestInit;
  expectedStatus: number;
}

export interface FixedRateStream {
  name: string;
  /** Requests per second. */
  rate: number;
  /** The i-th request (from 0); called at its send time. */
  request: (i: number) => FixedRateRequest;
}

export interface FixedRateResult {
  name: string;
  rate: number;
  /** Latency from intended send time to the whole answer read, of the answers with the expected status. */
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Answers other than the expected status, connection errors and requests unanswered after `timeoutMs`. */
  errors: number;
  requests: number;
  /** How far behind its schedule the sender was at worst (this process's own lag; included in the latencies). */
  max_send_lag_ms: number;
}

const round = (n: number) => Math.round(n * 100) / 100;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runStream(
  stream: FixedRateStream,
  seconds: number,
  timeoutMs: number,
  start: number,
  log: (line: string) => void,
): Promise<FixedRateResult> {
  const count = Math.round(stream.rate * seconds);
  const interval = 1000 / stream.rate;
  const latencies: number[] = [];
  const inFlight: Promise<void>[] = [];
  let errors = 0;
  let maxLag = 0;
  const send = async (i: number, due: number) => {
    const { url, init, expectedStatus } = stream.request(i);
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      const body = await res.text();
      if (res.status === expectedStatus) latencies.push(performance.now() - due);
      else {
        errors += 1;
        if (errors <= 3) log(`fixed_rate ${stream.name}: answered ${res.status} ${body.slice(0, 200)}`);
      }
    } catch (error) {
      errors += 1;
      if (errors <= 3) log(`fixed_rate ${stream.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await pause(wait);
    // A late timer sends at once; the lateness stays in the latency, measured from `due`.
    maxLag = Math.max(maxLag, performance.now() - due);
    inFlight.push(send(i, due));
  }
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  return {
    name: stream.name,
    rate: stream.rate,
    p50_ms: percentile(latencies, 50),
    p90_ms: percentile(latencies, 90),
    p99_ms: percentile(latencies, 99),
    max_ms: round(latencies.at(-1) ?? 0),
    errors,
    requests: count,
    max_send_lag_ms: round(maxLag),
  };
}

/** Runs the streams side by side for `seconds`, then waits for every answer (each bounded by `timeoutMs`). */
export async function fixedRate(
  streams: FixedRateStream[],
  seconds: number,
  log: (line: string) => void,
  timeoutMs = 30_000,
): Promise<FixedRateResult[]> {
  const start = performance.now();
  return Promise.all(
    streams.filter((s) => s.rate > 0).map((stream) => runStream(stream, seconds, timeoutMs, start, log)),
  );
}

export interface FixedRates {
  /** POST /api/v1/payments per second (0: none). */
  create: number;
  /** POST /api/v1/payments/{id}/verify per second, each on a paid payment of its own (0: none). */
  verify: number;
}

/** Creates and verifies side by side at fixed rates, as merchants send them; `paidIds` holds one paid payment per verify. */
export function fixedRateScenario(
  target: Target,
  paidIds: readonly string[],
  rates: FixedRates,
  seconds: number,
  log: (line: string) => void,
): Promise<FixedRateResult[]> {
  const verifyBody = JSON.stringify({ amount: PAYMENT_AMOUNT });
  return fixedRate(
    [
      {
        name: 'create',
        rate: rates.create,
        request: () => ({
          url: `${target.baseUrl}/api/v1/payments`,
          init: {
            method: 'POST',
            headers: { ...apiHeaders(target.key), 'idempotency-key': randomUUID() },
            body: createBody(),
          },
          expectedStatus: 201,
        }),
      },
      {
        name: 'verify',
        rate: rates.verify,
        request: (i) => ({
          url: `${target.baseUrl}/api/v1/payments/${paidIds[i] ?? 'none'}/verify`,
          init: { method: 'POST', headers: apiHeaders(target.key), body: verifyBody },
          expectedStatus: 200,
        }),
      },
    ],
    seconds,
    log,
  );
}
