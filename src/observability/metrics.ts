/**
 * Every Prometheus metric the gateway exports, defined once here (the
 * Grafana dashboard and the alert rules in deploy/ may query only these
 * names and TEMPORAL_SDK_METRICS: a test checks it). Labels hold bounded
 * values only — route templates, statuses, modes, error codes, outcomes —
 * never an id, a URL or an amount.
 *
 * One registry per process: the API and the worker each serve theirs on a
 * port of its own (serveMetrics), never on the public API. Where the API
 * and the worker run in one process (the test harness), they share it.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const PREFIX = 'dargah_';

export const httpRequests = new Counter({
  name: `${PREFIX}http_requests_total`,
  help: 'HTTP requests answered, by route template (the matched path, never the raw URL), method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: `${PREFIX}http_request_duration_seconds`,
  help: 'Time from a request arriving to its answer, by route template and method',
  labelNames: ['route', 'method'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const paymentRequests = new Counter({
  name: `${PREFIX}payment_requests_total`,
  help: 'Payment creates and verifies answered, by operation (create, verify) and code (ok, or the error code answered)',
  labelNames: ['operation', 'code'] as const,
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: `${PREFIX}rate_limit_refusals_total`,
  help: 'Requests refused with 429 rate_limited, by route template',
  labelNames: ['route'] as const,
  registers: [registry],
});

export const paymentTransitions = new Counter({
  name: `${PREFIX}payment_transitions_total`,
  help: 'Payment transitions recorded (counted once, when the write changed the record), by from and to status and mode',
  labelNames: ['from', 'to', 'mode'] as const,
  registers: [registry],
});

export const recordMismatchRefusals = new Counter({
  name: `${PREFIX}record_mismatch_refusals_total`,
  help: "Activities refused because the workflow's mode, merchant or amount differ from the payment's record (a forged or wrongly started workflow), by activity",
  labelNames: ['activity'] as const,
  registers: [registry],
});

export const paidToVerified = new Histogram({
  name: `${PREFIX}payment_paid_to_verified_seconds`,
  help: "Time from a payment's paid_at to its verified_at, by mode",
  labelNames: ['mode'] as const,
  buckets: [1, 5, 15, 30, 60, 120, 300, 600, 900, 1200, 1800],
  registers: [registry],
});

export const webhookDeliveries = new Counter({
  name: `${PREFIX}webhook_delivery_attempts_total`,
  help: 'Webhook delivery attempts recorded, by outcome (succeeded, failed, endpoint_gone) and attempt number (10+ for the tenth and later)',
  labelNames: ['outcome', 'attempt'] as const,
  registers: [registry],
});

export const refunds = new Counter({
  name: `${PREFIX}refunds_total`,
  help: 'Refunds that reached an end (counted once, when the write changed the record), by outcome (succeeded, failed) and mode',
  labelNames: ['outcome', 'mode'] as const,
  registers: [registry],
});

export const retentionPrunedRows = new Counter({
  name: `${PREFIX}retention_pruned_rows_total`,
  help: 'Rows the retention workflow deleted because they were past their period, by table (docs/RETENTION.md)',
  labelNames: ['table'] as const,
  registers: [registry],
});

/** The label of an attempt number: 1–9 as themselves, then one bucket, so no schedule can grow the label set. */
export function attemptLabel(attempt: number): string {
  return attempt >= 10 ? '10+' : String(attempt);
}

/** A probe the worker registers (a query), run at most every `everyMs` whatever the scrape rate; in between, its last answer. */
interface ThrottledProbe<T> {
  probe: () => Promise<T>;
  everyMs: number;
  at: number;
  value: T;
}

async function readProbe<T>(probe: ThrottledProbe<T>): Promise<T> {
  if (Date.now() - probe.at >= probe.everyMs) {
    probe.value = await probe.probe();
    probe.at = Date.now();
  }
  return probe.value;
}

/** The pool observePool reports, and the webhook backlog probe the worker registers (observeWebhookBacklog). */
let pool: PoolCounts | undefined;
let backlog: ThrottledProbe<number> | undefined;

/**
 * The age of the oldest event whose webhook delivery is still being retried,
 * from a probe the worker registers (an indexed query), run at most every
 * `everyMs` whatever the scrape rate.
 */
export const webhookBacklogAge = new Gauge({
  name: `${PREFIX}webhook_oldest_undelivered_seconds`,
  help: 'Age of the oldest event whose webhook delivery is still being retried (0: none)',
  registers: [registry],
  async collect() {
    if (backlog === undefined) return;
    this.set(await readProbe(backlog));
  },
});

export function observeWebhookBacklog(probe: () => Promise<number>, everyMs = 15_000): void {
  backlog = { probe, everyMs, at: 0, value: 0 };
}

/** Records past the bound of their waiting state, by record and state (docs/RELIABILITY.md#waiting-states). */
export interface StuckCount {
  record: string;
  state: string;
  count: number;
  oldest_seconds: number;
}

let stuck: ThrottledProbe<StuckCount[]> | undefined;

/** The worker's stuck-records probe's answer (at most every `everyMs`); both gauges read it. */
async function stuckCounts(): Promise<StuckCount[]> {
  return stuck === undefined ? [] : readProbe(stuck);
}

export const stuckRecordsGauge = new Gauge({
  name: `${PREFIX}stuck_records`,
  help: 'Records past the bound of their waiting state, by record and state (0 for every waiting state when none)',
  labelNames: ['record', 'state'],
  registers: [registry],
  async collect() {
    for (const c of await stuckCounts()) this.set({ record: c.record, state: c.state }, c.count);
  },
});

export const stuckRecordOldest = new Gauge({
  name: `${PREFIX}stuck_record_oldest_seconds`,
  help: 'Age of the oldest record past the bound of its waiting state, by record and state (0: none)',
  labelNames: ['record', 'state'],
  registers: [registry],
  async collect() {
    for (const c of await stuckCounts()) this.set({ record: c.record, state: c.state }, c.oldest_seconds);
  },
});

export function observeStuckRecords(probe: () => Promise<StuckCount[]>, everyMs = 60_000): void {
  stuck = { probe, everyMs, at: 0, value: [] };
}

/** Differences of a PSP terminal's bank reconciliation, by kind (docs/psps/README.md#bank-reconciliation). */
export interface ReconciliationDifferenceCount {
  psp: string;
  terminal_id: string;
  kind: string;
  count: number;
}

let reconciliation: ThrottledProbe<ReconciliationDifferenceCount[]> | undefined;

/**
 * The differences (bank_only, gateway_only, amount_mismatch) of each PSP terminal's newest
 * reconciliation of every recent day, from a probe the worker registers, run at most every `everyMs`.
 */
export const bankReconciliationDifferences = new Gauge({
  name: `${PREFIX}bank_reconciliation_differences`,
  help: "Differences in the newest bank reconciliation of each PSP terminal's recent days, by kind (0: none)",
  labelNames: ['psp', 'terminal', 'kind'],
  registers: [registry],
  async collect() {
    if (reconciliation === undefined) return;
    const counts = await readProbe(reconciliation);
    this.reset();
    for (const c of counts) this.set({ psp: c.psp, terminal: c.terminal_id, kind: c.kind }, c.count);
  },
});

export function observeBankReconciliation(
  probe: () => Promise<ReconciliationDifferenceCount[]>,
  everyMs = 60_000,
): void {
  reconciliation = { probe, everyMs, at: 0, value: [] };
}

let threadHeaps = false;

/** What the diagnostic report says of one thread's V8 heap. */
interface ReportHeap {
  usedMemory: number;
  totalMemory: number;
  memoryLimit: number;
}

/**
 * The V8 heaps of this process's worker threads, summed: the Temporal SDK runs the workflows in
 * a thread of its own, and its cache of workflows lives in that thread's heap, which the main
 * thread's nodejs_heap_size_* do not count. Read from Node's diagnostic report at each scrape
 * (a few milliseconds; without the environment and network sections, so no secret is copied and
 * no address looked up), only in a process that asks for it (the worker: observeWorkerThreadHeaps).
 */
export const workerThreadsHeap = new Gauge({
  name: `${PREFIX}worker_threads_heap_bytes`,
  help: "V8 heap of this process's worker threads (the Temporal SDK's workflow thread, where its workflow cache lives), by kind (used, total, limit)",
  labelNames: ['kind'] as const,
  registers: [registry],
  collect() {
    if (!threadHeaps) return;
    const report = process.report as typeof process.report & { excludeEnv?: boolean; excludeNetwork?: boolean };
    report.excludeEnv = true;
    report.excludeNetwork = true;
    const workers = (report.getReport() as { workers?: { javascriptHeap?: ReportHeap }[] }).workers ?? [];
    const heaps = workers.map((w) => w.javascriptHeap).filter((h): h is ReportHeap => h !== undefined);
    const sum = (key: keyof ReportHeap) => heaps.reduce((total, h) => total + h[key], 0);
    this.set({ kind: 'used' }, sum('usedMemory'));
    this.set({ kind: 'total' }, sum('totalMemory'));
    this.set({ kind: 'limit' }, sum('memoryLimit'));
  },
});

export function observeWorkerThreadHeaps(): void {
  threadHeaps = true;
}

export const mysqlPoolConnections = new Gauge({
  name: `${PREFIX}mysql_pool_connections`,
  help: "This process's MySQL pool connections, by state (in_use, idle)",
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    if (pool === undefined) return;
    const all = pool._allConnections?.length ?? 0;
    const free = pool._freeConnections?.length ?? 0;
    this.set({ state: 'in_use' }, all - free);
    this.set({ state: 'idle' }, free);
  },
});

export const mysqlPoolWaiting = new Gauge({
  name: `${PREFIX}mysql_pool_waiting`,
  help: "Callers waiting for a connection of this process's MySQL pool",
  registers: [registry],
  collect() {
    if (pool !== undefined) this.set(pool._connectionQueue?.length ?? 0);
  },
});

export const mysqlPoolSize = new Gauge({
  name: `${PREFIX}mysql_pool_size`,
  help: "The most connections this process's MySQL pool opens",
  registers: [registry],
  collect() {
    if (pool !== undefined) this.set(pool.config.connectionLimit);
  },
});

/**
 * The Temporal SDK's own worker metrics that the dashboard and the alerts
 * use, served by the SDK runtime's Prometheus exporter and appended to the
 * worker's /metrics (src/main/worker.ts). Names as the SDK emits them
 * (temporal_ prefix, seconds, no unit suffix).
 */
export const TEMPORAL_SDK_METRICS = [
  'temporal_worker_task_slots_available',
  'temporal_worker_task_slots_used',
  'temporal_workflow_task_schedule_to_start_latency',
  'temporal_activity_schedule_to_start_latency',
  'temporal_long_request',
  'temporal_request',
  'temporal_num_pollers',
] as const;

/** Every metric name this process may export, for the checks of the dashboard and alert rules. */
export function definedMetricNames(): string[] {
  return registry.getMetricsAsArray().map((m) => m.name);
}

/** A MySQL pool's counts, read from mysql2's pool (its queues have a length). */
interface PoolCounts {
  config: { connectionLimit: number };
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/** Reports this process's MySQL pool at each scrape (read only when scraped). */
export function observePool(mysqlPool: unknown): void {
  pool = mysqlPool as PoolCounts;
}

/**
 * Serves GET /metrics (this registry's text, then whatever `extra` adds)
 * on its own port; nothing else. Port 0 picks a free one (the answer says which).
 */
export function serveMetrics(
  host: string,
  port: number,
  extra?: () => Promise<string>,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    Promise.all([registry.metrics(), extra?.() ?? Promise.resolve('')]).then(
      ([ours, theirs]) =>
        res.writeHead(200, { 'content-type': registry.contentType }).end(theirs === '' ? ours : `${ours}\n${theirs}`),
      (error: unknown) =>
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address !== null ? address.port : port });
    });
  });
}

/** One PSP terminal's breaker as the shared store holds it: 0 closed, 1 half-open, 2 open. */
export interface PspBreakerReading {
  psp: string;
  terminal: string;
  mode: string;
  value: number;
}
let pspBreakerSource: (() => Promise<PspBreakerReading[]>) | undefined;

/**
 * Where the breaker gauge reads at each scrape (the worker gives its health store): the breaker is
 * shared through MySQL, so a value this process set when it last saw the breaker may be stale after
 * another process closed it; reading the store at the scrape keeps DargahPspDown from firing on it.
 */
export function readPspBreakersWith(source: () => Promise<PspBreakerReading[]>): void {
  pspBreakerSource = source;
}

export const pspBreakerState = new Gauge({
  name: `${PREFIX}psp_breaker_state`,
  help: "Each PSP terminal's circuit breaker in the shared health store: 0 closed, 1 half-open, 2 open (docs/psps/routing.md)",
  labelNames: ['psp', 'terminal', 'mode'] as const,
  registers: [registry],
  async collect() {
    if (pspBreakerSource === undefined) return;
    try {
      const readings = await pspBreakerSource();
      this.reset();
      for (const { value, ...labels } of readings) this.set(labels, value);
    } catch {
      // MySQL did not answer: the scrape keeps the last values rather than failing.
    }
  },
});

export const pspTokenRequests = new Counter({
  name: `${PREFIX}psp_token_requests_total`,
  help: 'Token requests to PSPs, by PSP and outcome: ok, failed (no answer, a server error or a timeout), refused (the PSP answered no), skipped (its breaker was open: not sent)',
  labelNames: ['psp', 'outcome'] as const,
  registers: [registry],
});

export const pspConfirmationsRefused = new Counter({
  name: `${PREFIX}psp_confirmation_refused_total`,
  help: "PSP confirmations (the PSP's verify answered `confirmed`) the gateway refused for their payment, by PSP, reason (other_payment, terminal, amount, reference, malformed) and what became of the money: reversed (reversed at the PSP at once), reversal_refused (the PSP refused the reversal: money held there), not_reversed (it is another payment's: left to it)",
  labelNames: ['psp', 'reason', 'reversal'] as const,
  registers: [registry],
});

export const lateBankReturns = new Counter({
  name: `${PREFIX}late_bank_returns_total`,
  help: "paid returns that came for a payment already ended (canceled, expired, failed), by PSP and what became of the sale: reversed, reversal_refused (money held at the PSP), not_reversed (another payment's sale), not_confirmed, left_to_psp (a PSP that gives back by itself what nobody verifies)",
  labelNames: ['psp', 'outcome'] as const,
  registers: [registry],
});

export const pspFailovers = new Counter({
  name: `${PREFIX}psp_failovers_total`,
  help: 'Payments whose token came from a PSP terminal other than the first of their route (the first failed or its breaker was open)',
  registers: [registry],
});
