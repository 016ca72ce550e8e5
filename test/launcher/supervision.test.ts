/**
 * `npm start` supervises its processes (issue #21): the real launcher, on its
 * own database, ports and data directory, loses its worker, its API and its
 * Temporal dev server to SIGKILL in turn and restarts each while the API keeps
 * answering; every payment still ends exactly once; Ctrl-C leaves no process
 * behind; and a worker that crashes at every start makes the launcher give up
 * with one sentence.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { loadConfig } from '../../src/config.ts';
import { createDatabase, databaseName, mysqlPoolOptions, serverUrl, type Db } from '../../src/db/database.ts';
import { bankAdmin } from '../support/bank.ts';
import { client, waitFor } from '../support/http.ts';
import { paidPayment } from '../support/payments.ts';
import { alive, Launcher, processesWithEnv } from '../support/launcher.ts';
import { freePort } from '../../src/main/ports.ts';
import { PSP_NAMES } from '../../src/psps/profiles.ts';
import { simulatorPortSetting } from '../../tools/launcher/psp-simulators.ts';
import { REFUND_IBAN } from '../support/refunds.ts';

/** A database of this run only, next to the suite's own (never the default `dargah`); dropped afterwards. */
function ownDatabaseUrl(): string {
  const url = new URL(process.env.DATABASE_URL ?? loadConfig().DATABASE_URL);
  url.pathname = `/${databaseName(url.toString())}_supervision_${process.pid}`;
  assert.notEqual(databaseName(url.toString()), 'dargah');
  return url.toString();
}

/** The launcher's environment: ours without the suite's Temporal server (it starts its own), plus `extra`. */
function launcherEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...extra };
  delete env.TEMPORAL_ADDRESS;
  delete env.PAGES_CSRF_SECRET;
  return env;
}

/** A free port for every PSP's simulator (BANK_SIM_<PSP>_PORT), never those of a developer's npm start. */
async function simulatorPorts(): Promise<Record<string, string>> {
  const ports: Record<string, string> = {};
  for (const psp of PSP_NAMES) ports[simulatorPortSetting(psp)] = String(await freePort());
  return ports;
}

const VERIFY_WINDOW_SECONDS = 40;

/** Asks one URL every 200 ms until stopped; counts what came back. Never a refused connection, never a 503 without Retry-After. */
class Prober {
  readonly statuses: Record<number, number> = {};
  readonly unanswered: string[] = [];
  unavailableWithoutRetryAfter = 0;
  private running = true;
  private readonly loop: Promise<void>;
  readonly url: string;

  constructor(url: string, headers: Record<string, string>) {
    this.url = url;
    this.loop = (async () => {
      while (this.running) {
        try {
          const res = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
          await res.arrayBuffer();
          this.statuses[res.status] = (this.statuses[res.status] ?? 0) + 1;
          if (res.status === 503 && res.headers.get('retry-after') === null) this.unavailableWithoutRetryAfter += 1;
          if (res.status !== 200 && res.status !== 503) this.unanswered.push(String(res.status));
        } catch (error) {
          this.unanswered.push(String((error as Error).cause ?? error));
        }
        await sleep(200);
      }
    })();
  }

  async stop(): Promise<this> {
    this.running = false;
    await this.loop;
    return this;
  }

  summary(): string {
    return `${new URL(this.url).pathname.replace(/[0-9a-f-]{36}/, '{id}')} ${JSON.stringify(this.statuses)}`;
  }
}

describe('npm start supervises its processes', function () {
  this.timeout(180_000);
  const databaseUrl = ownDatabaseUrl();
  const dataDirs: string[] = [];
  let db: Db | undefined;

  const newDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'dargah-supervision-'));
    dataDirs.push(dir);
    return dir;
  };

  after(async () => {
    // Whatever a failed test left running: only processes of our own data directories.
    for (const dir of dataDirs) {
      for (const pid of processesWithEnv('DARGAH_DATA_DIR', dir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    await sleep(200);
    await db?.destroy();
    const server = await createConnection(mysqlPoolOptions(serverUrl(databaseUrl)));
    await server.query(`DROP DATABASE IF EXISTS \`${databaseName(databaseUrl)}\``);
    await server.end();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('SIGKILL of the worker, the API, the Temporal dev server: each comes back, the API answers throughout, every payment ends once, Ctrl-C leaves nothing', async () => {
    const dataDir = newDataDir();
    const bankPorts = await simulatorPorts();
    const bankPort = bankPorts[simulatorPortSetting('sep')]!;
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const launcher = Launcher.start(
      launcherEnv({
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_BASE_URL: baseUrl,
        TEMPORAL_DEV_PORT: String(await freePort()),
        TEMPORAL_UI_PORT: String(await freePort()),
        DARGAH_DATA_DIR: dataDir,
        ...bankPorts,
        // Free metrics ports (0), never those of a developer's running npm start.
        API_METRICS_PORT: '0',
        WORKER_METRICS_PORT: '0',
        TEMPORAL_SDK_METRICS_PORT: '0',
        VERIFY_WINDOW_SECONDS: String(VERIFY_WINDOW_SECONDS),
      }),
      'supervision-launcher',
    );
    const startedAt = Date.now();
    const key = (
      await launcher.waitForLine(
        /^ {2}Demo test key \(merchant "Demo Shop", domain localhost\): (sk_test_\S+)$/,
        0,
        150_000,
      )
    ).match[1]!;
    const readyMs = Date.now() - startedAt;
    db = createDatabase(databaseUrl, { poolSize: 2 }).db;
    const [workerPid] = launcher.pidsOf('worker');
    const [apiPid] = launcher.pidsOf('api');
    const [temporalPid] = launcher.pidsOf('Temporal dev server');
    assert.ok(workerPid !== undefined && apiPid !== undefined && temporalPid !== undefined, launcher.tail(20));
    const api = client(baseUrl, key);

    // Paid payments awaiting verify: one verified now (refunded during the outage), two verified
    // during the outage, three left to reach their verify deadline and be reversed.
    const payments = await Promise.all(Array.from({ length: 6 }, () => paidPayment(baseUrl, key)));
    const [refunded, ...rest] = payments as [Payment, ...Payment[]];
    const verifiedLater = rest.slice(0, 2);
    const reversed = rest.slice(2);
    assert.equal((await api.post(`/payments/${refunded.id}/verify`, { amount: refunded.amount })).status, 200);

    // Probes of the API while the worker is away: every one must be answered.
    const probe = (path: string, headers: Record<string, string> = {}) => new Prober(`${baseUrl}${path}`, headers);
    let probes = [probe('/readyz'), probe(`/api/v1/payments/${reversed[0]!.id}`, { authorization: `Bearer ${key}` })];

    // kill -9 of the worker.
    const killIndex = launcher.lines.length;
    process.kill(workerPid, 'SIGKILL');
    const workerKilledAt = Date.now();

    // Verify and refund during the outage: 503 with Retry-After until the worker is back, then done.
    const unavailable = { verify: 0, refund: 0, withoutRetryAfter: 0 };
    const untilDone = async (what: 'verify' | 'refund', call: () => ReturnType<typeof api.post>, done: number) => {
      for (;;) {
        const res = await call();
        if (res.status === done) return res;
        assert.equal(res.status, 503, `${what}: ${res.status} ${res.text}`);
        unavailable[what] += 1;
        const retryAfter = Number(res.headers.get('retry-after'));
        if (!(retryAfter > 0)) unavailable.withoutRetryAfter += 1;
        await sleep(Math.min(retryAfter, 1) * 1000);
      }
    };
    const duringOutage = Promise.all([
      ...verifiedLater.map((p) =>
        untilDone('verify', () => api.post(`/payments/${p.id}/verify`, { amount: p.amount }), 200),
      ),
      untilDone(
        'refund',
        () =>
          api.post(
            `/payments/${refunded.id}/refunds`,
            { destination_iban: REFUND_IBAN },
            { idempotencyKey: `supervision-refund-${refunded.id}` },
          ),
        201,
      ),
    ]);

    const exitLine = await launcher.waitForLine(
      /^worker exited \(signal SIGKILL\) after running .+; restarting it in 1 s\.$/,
      killIndex,
      10_000,
    );
    const restarted = await launcher.waitForLine(/^worker started \(pid (\d+)\)\.$/, exitLine.index, 10_000);
    const running = await launcher.waitForLine(/"name":"worker".*"msg":"worker running"/, restarted.index, 60_000);
    const workerDownMs = running.line.at - workerKilledAt;
    await duringOutage;
    const workerOutage = await Promise.all(probes.map((p) => p.stop()));
    for (const p of workerOutage) {
      assert.deepEqual(p.unanswered, [], `every probe of ${p.url} during the worker outage was answered (200 or 503)`);
      assert.equal(p.unavailableWithoutRetryAfter, 0);
    }
    assert.equal(unavailable.withoutRetryAfter, 0);
    assert.equal(exitLine.line.stream, 'stderr');
    const newWorkerPid = Number(restarted.match[1]);
    assert.ok(alive(newWorkerPid) && !alive(workerPid));

    // kill -9 of the API while the reversals are still pending: it is back and answers.
    const apiKillIndex = launcher.lines.length;
    process.kill(apiPid, 'SIGKILL');
    const apiKilledAt = Date.now();
    let refusedWhileApiDown = 0;
    await waitFor(
      'the API to answer /readyz again',
      async () => {
        try {
          const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
          return res.status === 200 ? true : undefined;
        } catch {
          refusedWhileApiDown += 1;
          return undefined;
        }
      },
      60_000,
      100,
    );
    const apiDownMs = Date.now() - apiKilledAt;
    await launcher.waitForLine(
      /^api exited \(signal SIGKILL\) after running .+; restarting it in 1 s\.$/,
      apiKillIndex,
      1_000,
    );
    const newApiPid = Number(
      (await launcher.waitForLine(/^api started \(pid (\d+)\)\.$/, apiKillIndex, 1_000)).match[1],
    );
    assert.equal(
      (await api.get<{ payment: Payment }>(`/payments/${verifiedLater[0]!.id}`)).body.payment.status,
      'verified',
    );

    // kill -9 of the Temporal dev server, timers pending: restarted on the same port and
    // SQLite file, the API says 503 meanwhile and is ready again afterwards.
    const temporalKillIndex = launcher.lines.length;
    probes = [probe('/readyz'), probe(`/api/v1/payments/${reversed[0]!.id}`, { authorization: `Bearer ${key}` })];
    process.kill(temporalPid, 'SIGKILL');
    const temporalKilledAt = Date.now();
    await launcher.waitForLine(
      /^Temporal dev server exited \(signal SIGKILL\) after running .+; restarting it in 1 s\.$/,
      temporalKillIndex,
      10_000,
    );
    const newTemporalPid = Number(
      (await launcher.waitForLine(/^Temporal dev server started \(pid (\d+)\)\.$/, temporalKillIndex, 10_000)).match[1],
    );
    await waitFor(
      'the API to be ready again after the Temporal restart',
      async () => {
        const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) });
        return res.status === 200 ? true : undefined;
      },
      60_000,
      200,
    );
    const temporalDownMs = Date.now() - temporalKilledAt;
    const temporalOutage = await Promise.all(probes.map((p) => p.stop()));
    for (const p of temporalOutage) {
      assert.deepEqual(
        p.unanswered,
        [],
        `every probe of ${p.url} during the Temporal outage was answered (200 or 503)`,
      );
      assert.equal(p.unavailableWithoutRetryAfter, 0);
    }

    // The others reach their verify deadline with the restarted worker: reversed, once.
    const ids = payments.map((p) => p.id);
    const expected = new Map<string, Payment['status']>([
      [refunded.id, 'refunded'],
      ...verifiedLater.map((p) => [p.id, 'verified'] as const),
      ...reversed.map((p) => [p.id, 'reversed'] as const),
    ]);
    await waitFor(
      'every payment to be final in MySQL',
      async () => {
        const rows = await db!.selectFrom('payments').select(['id', 'status']).where('id', 'in', ids).execute();
        const refunds = await db!
          .selectFrom('refunds')
          .select('status')
          .where('payment_id', '=', refunded.id)
          .execute();
        const final =
          rows.every((r) => r.status === expected.get(r.id)) &&
          refunds.length === 1 &&
          refunds[0]!.status === 'succeeded';
        return final ? true : undefined;
      },
      (VERIFY_WINDOW_SECONDS + 60) * 1000,
      500,
    );
    // The bank's own ledger: the launched stack's bank simulator.
    const operations: { payment_id: string; kind: string }[] = [];
    for (const id of ids) {
      const body = await bankAdmin<{ operations: { kind: string }[] }>(
        `/admin/transactions?res_num=${id}`,
        `http://127.0.0.1:${bankPort}`,
      );
      operations.push(...body.operations.map((o) => ({ payment_id: id, kind: o.kind })));
    }
    const count = (id: string, kind: string) => operations.filter((o) => o.payment_id === id && o.kind === kind).length;
    // A refund of a SEP payment (no refund operation) is its reversal, or a transfer to the IBAN given (docs/PAYMENTS.md#how-a-refund-is-paid-out).
    const { transfers } = await bankAdmin<{ transfers: { transfer_id: string; description: string }[] }>(
      '/admin/transfers',
      `http://127.0.0.1:${bankPort}`,
    );
    const transferred = (id: string) =>
      transfers.filter((t) => t.transfer_id.startsWith('refund-payout:') && t.description.endsWith(`of payment ${id}`))
        .length;
    for (const p of payments) {
      const status = expected.get(p.id);
      assert.equal(count(p.id, 'confirm'), 1, `${p.id} confirmed once`);
      if (status === 'refunded') {
        assert.equal(
          count(p.id, 'refund') + count(p.id, 'reverse') + transferred(p.id),
          1,
          `${p.id} (${status}) paid back once`,
        );
      } else {
        assert.equal(count(p.id, 'reverse'), status === 'reversed' ? 1 : 0, `${p.id} (${status}) reversals`);
        assert.equal(count(p.id, 'refund') + transferred(p.id), 0, `${p.id} (${status}) refunds`);
      }
    }

    // Ctrl-C: a lone SIGINT to launch.mjs stops everything it started.
    const before = processesWithEnv('DARGAH_DATA_DIR', dataDir);
    const temporalPids = launcher.pidsOf('Temporal dev server');
    for (const pid of [...launcher.pidsOf('worker').slice(-1), newApiPid, newTemporalPid])
      assert.ok(before.includes(pid), `pid ${pid} is one of the launcher's processes`);
    const sigintAt = Date.now();
    process.kill(launcher.child.pid!, 'SIGINT');
    const exit = await launcher.exited;
    const stopMs = exit.at - sigintAt;
    assert.equal(exit.code, 130, launcher.tail(10));
    const everyPid = [
      ...new Set([...before, ...launcher.pidsOf('worker'), ...launcher.pidsOf('api'), ...temporalPids]),
    ];
    assert.deepEqual(everyPid.filter(alive), [], 'no process of the launcher is left');
    assert.deepEqual(processesWithEnv('DARGAH_DATA_DIR', dataDir), []);
    assert.equal(launcher.ownLines('stderr').filter((l) => /keeps crashing|stopping everything/.test(l)).length, 0);

    console.log(
      `      figures: ready after ${readyMs} ms; worker down ${workerDownMs} ms (kill → "worker running" of pid ${newWorkerPid}), ` +
        `probes meanwhile ${workerOutage.map((p) => p.summary()).join(', ')}; 503s: ${unavailable.verify} verify, ${unavailable.refund} refund; ` +
        `API down ${apiDownMs} ms (${refusedWhileApiDown} refused probes); Temporal down ${temporalDownMs} ms (kill → /readyz 200), ` +
        `probes meanwhile ${temporalOutage.map((p) => p.summary()).join(', ')}; worker restarts ${launcher.pidsOf('worker').length - 1}; ` +
        `Ctrl-C → exit in ${stopMs} ms, ${before.length} processes stopped`,
    );
  });

  it('a worker that crashes at every start: the launcher gives up with one sentence and a non-zero exit, leaving nothing', async () => {
    const dataDir = newDataDir();
    // The crash: a module preloaded into every Node process of the launcher (NODE_OPTIONS)
    // that makes the worker, and only the worker, exit with code 1 before it does anything.
    const crash = join(dataDir, 'crash-worker.mjs');
    writeFileSync(
      crash,
      "if (process.argv[1]?.endsWith('/src/main/worker.ts')) { process.stderr.write('worker: simulated crash at start\\n'); process.exit(1); }\n",
    );
    const port = await freePort();
    const bankPorts = await simulatorPorts();
    const launcher = Launcher.start(
      launcherEnv({
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        TEMPORAL_DEV_PORT: String(await freePort()),
        TEMPORAL_UI_PORT: '0',
        DARGAH_DATA_DIR: dataDir,
        ...bankPorts,
        // Free metrics ports (0), never those of a developer's running npm start.
        API_METRICS_PORT: '0',
        WORKER_METRICS_PORT: '0',
        TEMPORAL_SDK_METRICS_PORT: '0',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${crash}`.trim(),
        // Three exits instead of five, so the test need not sit through 1 + 2 + 4 + 8 s of backoff.
        SUPERVISOR_CRASH_LIMIT: '3',
      }),
      'supervision-crash-loop',
    );
    const exit = await Promise.race([launcher.exited, sleep(120_000).then(() => undefined)]);
    assert.ok(exit !== undefined, `the launcher did not give up within 120 s:\n${launcher.tail(20)}`);
    assert.equal(exit.code, 1, launcher.tail(20));

    const own = launcher.ownLines('stderr').filter((l) => !l.startsWith('worker: simulated crash'));
    const restarts = own.filter((l) => l.startsWith('worker exited'));
    assert.equal(restarts.length, 2, own.join('\n'));
    assert.match(restarts[0]!, /^worker exited \(code 1\) after running [0-9.]+ s; restarting it in 1 s\.$/);
    assert.match(restarts[1]!, /^worker exited \(code 1\) after running [0-9.]+ s; restarting it in 2 s\.$/);
    const giveUp = own.filter((l) => /keeps crashing/.test(l));
    assert.equal(giveUp.length, 1, own.join('\n'));
    assert.equal(giveUp[0], 'worker keeps crashing (3 exits within 120 s, the last with code 1): stopping everything.');
    assert.equal(own.at(-1), giveUp[0], 'the sentence is the last thing the launcher says');
    assert.equal(launcher.pidsOf('worker').length, 3);
    assert.deepEqual(processesWithEnv('DARGAH_DATA_DIR', dataDir), [], 'nothing left running');
  });
});
