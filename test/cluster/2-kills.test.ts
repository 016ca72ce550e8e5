/**
 * Under a steady load through the balancer (a create, the customer paying at
 * the bank simulator and a verify, started every LOAD_EVERY_MS), one node at a
 * time dies and comes back: an API replica, a payment worker, a Temporal
 * frontend, the history service, PostgreSQL. For each: every request through
 * the balancer is answered (no 5xx but 503 with Retry-After), no create is
 * lost or doubled, and every record ends equal to its workflow. The figures
 * go to docs/RELIABILITY.md (npm run docs:reliability, from test-artifacts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { cpus, totalmem } from 'node:os';
import { waitFor } from '../support/http.ts';
import { createPayment } from '../support/payments.ts';
import {
  codeOf,
  moneyCheck,
  payThroughFaults,
  recordsDifferingFromWorkflows,
  untilAnswered,
  verifyThroughFaults,
} from '../support/faults/checks.ts';
import {
  clusterMerchant,
  getClusterStack,
  killGateway,
  restartGateway,
  type ClusterStack,
} from '../support/cluster/cluster-stack.ts';
import {
  recordClusterFigures,
  renderKillTable,
  saveReliabilitySection,
  type KillFigures,
} from '../support/cluster/figures.ts';

/** One logical operation (create → pay → verify) starts this often: a modest constant rate. */
const LOAD_EVERY_MS = 700;
/** Load before the kill and after the restart. */
const LOAD_AROUND_MS = 8_000;

interface Phase {
  key: string;
  what: string;
  kill(s: ClusterStack): Promise<void>;
  restart(s: ClusterStack): Promise<void>;
  /** How long it stays down before the restart begins (0: restarted at once, as a process manager would). */
  downMs: number;
}

const PHASES: Phase[] = [
  {
    key: 'api',
    what: 'one API replica (api-a)',
    kill: (s) => killGateway(s, 'api-a'),
    restart: (s) => restartGateway(s, 'api-a'),
    downMs: 5_000,
  },
  {
    key: 'worker',
    what: 'one payment worker (worker-a)',
    kill: (s) => killGateway(s, 'worker-a'),
    restart: (s) => restartGateway(s, 'worker-a'),
    downMs: 5_000,
  },
  {
    key: 'frontend',
    what: 'one Temporal frontend (frontend-a)',
    kill: (s) => s.temporalCluster.kill('frontend-a'),
    restart: (s) => s.temporalCluster.start('frontend-a'),
    downMs: 5_000,
  },
  {
    key: 'history',
    what: 'the Temporal history service (all 4 shards), restarted at once',
    kill: (s) => s.temporalCluster.kill('history'),
    restart: (s) => s.temporalCluster.start('history'),
    downMs: 0,
  },
  {
    key: 'postgres',
    what: "Temporal's PostgreSQL (SIGQUIT, immediate shutdown), restarted at once",
    kill: (s) => s.pg.crash(),
    restart: (s) => s.pg.start(),
    downMs: 0,
  },
];

interface Answer {
  status: number;
  retryAfter: string | null;
  url: string;
}

/** Every answer the balancer gave while `work` ran (0: no HTTP answer at all). */
async function recordingAnswers<T>(base: string, answers: Answer[], work: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(base)) return original(input, init);
    try {
      const res = await original(input, init);
      answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), url });
      return res;
    } catch (error) {
      answers.push({ status: 0, retryAfter: null, url });
      throw error;
    }
  };
  try {
    return await work();
  } finally {
    globalThis.fetch = original;
  }
}

async function runPhase(
  s: ClusterStack,
  merchant: { merchantId: string; key: string },
  phase: Phase,
): Promise<KillFigures> {
  const answers: Answer[] = [];
  const prefix = `${phase.key}-${Date.now()}`;
  const operation = async (i: number): Promise<string> => {
    const reference = `${prefix}-${i}`;
    const created = await untilAnswered(
      () => createPayment(s.api, merchant.key, { merchant_reference: reference }, reference),
      (r) => codeOf(r) === 'idempotency_key_in_use' || r.status >= 500,
    );
    assert.equal(created.res.status, 201, created.res.text);
    const payment = created.res.body.payment;
    // Retried through the kill; a retry refused because an earlier try went through (its answer lost on
    // the way back) ends once the payment is seen out of `created`, as in the fault scenarios.
    const paid = await payThroughFaults(s.api, merchant.key, payment.id, 'success');
    if (!paid.wentThrough) assert.equal(paid.res.status, 303, paid.res.text);
    const verified = await verifyThroughFaults(s.api, merchant.key, payment);
    assert.equal(verified.res.status, 200, verified.res.text);
    return payment.id;
  };

  let restartedAt = 0;
  let killedAt = 0;
  const ids = await recordingAnswers(s.api, answers, async () => {
    let loading = true;
    const started: Promise<string>[] = [];
    const load = (async () => {
      for (let i = 0; loading; i++) {
        started.push(operation(i));
        await sleep(LOAD_EVERY_MS);
      }
    })();
    await sleep(LOAD_AROUND_MS);
    killedAt = Date.now();
    await phase.kill(s);
    await sleep(phase.downMs);
    await phase.restart(s);
    restartedAt = Date.now();
    await sleep(LOAD_AROUND_MS);
    loading = false;
    await load;
    return Promise.all(started);
  });

  await waitFor(
    `every record of the ${phase.key} phase to equal its workflow`,
    async () => ((await recordsDifferingFromWorkflows(s, ids)).length === 0 ? true : undefined),
    240_000,
    500,
  );
  const convergedAt = Date.now();
  const rows = await s.db
    .selectFrom('payments')
    .select(['id', 'merchant_reference', 'status'])
    .where('merchant_id', '=', merchant.merchantId)
    .where('merchant_reference', 'like', `${prefix}-%`)
    .execute();
  const references = new Set(rows.map((r) => r.merchant_reference));
  const money = await moneyCheck(s, ids);
  assert.equal(money.paid_back_twice, 0);
  assert.deepEqual(
    rows.filter((r) => r.status !== 'verified').map((r) => `${r.id} ${r.status}`),
    [],
    'every payment of the load verified',
  );
  const fine = (a: Answer) => a.status > 0 && (a.status < 500 || (a.status === 503 && Number(a.retryAfter) >= 1));
  return {
    what: phase.what,
    down_ms: restartedAt - killedAt,
    logical_operations: ids.length,
    requests: answers.length,
    answered_2xx_3xx_4xx: answers.filter((a) => a.status > 0 && a.status < 500).length,
    answered_503_with_retry_after: answers.filter((a) => a.status === 503 && Number(a.retryAfter) >= 1).length,
    other_5xx: answers.filter((a) => a.status >= 500 && !fine(a)).length,
    unanswered: answers.filter((a) => a.status === 0).length,
    lost: ids.length - references.size,
    doubled: rows.length - references.size,
    records_differing_from_workflows: (await recordsDifferingFromWorkflows(s, ids)).length,
    converged_after_restart_ms: convergedAt - restartedAt,
  };
}

describe('cluster: one node at a time killed and restarted under steady load', () => {
  const results: KillFigures[] = [];

  for (const phase of PHASES) {
    it(`${phase.what}: every request answered, nothing lost or doubled, records equal to workflows`, async () => {
      const s = await getClusterStack();
      const merchant = await clusterMerchant(s);
      const figures = await runPhase(s, merchant, phase);
      recordClusterFigures(`kill_${phase.key}`, figures);
      assert.equal(figures.other_5xx, 0, 'no 5xx but 503 with Retry-After');
      assert.equal(figures.unanswered, 0, 'the balancer answered every request');
      assert.equal(figures.lost, 0);
      assert.equal(figures.doubled, 0);
      assert.equal(figures.records_differing_from_workflows, 0);
      results.push(figures); // only a scenario that passed goes into the docs
    });
  }

  it('renders the figures for docs/RELIABILITY.md (npm run docs:reliability copies them in)', async () => {
    assert.equal(results.length, PHASES.length, 'every kill scenario passed');
    const s = await getClusterStack();
    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    saveReliabilitySection(
      renderKillTable(results, {
        runAt: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
        machine: `${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}`,
        bringUpMs: s.bringUp.total_ms ?? 0,
      }),
    );
  });
});
