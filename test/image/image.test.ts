/**
 * The production image, built from the Dockerfile by buildah on bases made of
 * Debian's packages and the pinned Node 24 (tools/launcher/image.ts), run by
 * podman on the host network against the machine's MariaDB and the suite's
 * Temporal dev server: migrate, bank simulator, worker and API containers (a
 * read-only root file system each) take a payment through create, the bank
 * simulator, verify and a signed webhook; SIGTERM drains each of them. The
 * containers use a database and a Temporal namespace of their own.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { databaseName } from '../../src/db/database.ts';
import { recreateDatabase } from '../../src/db/migrate.ts';
import { freePort } from '../../src/main/ports.ts';
import { startMailbox, type Mailbox } from '../support/mailbox.ts';
import { until } from '../support/until.ts';
import { buildImage, containerEnvironment, provideImageTools } from '../../tools/launcher/image.ts';

const TAG = 'localhost/dargah:test';
const MB = 1e6;
const say = (line: string) => process.stdout.write(`      ${line}\n`);
const podmanEnv = containerEnvironment();
const podman = (args: string[]) => spawnSync('podman', args, { env: podmanEnv, encoding: 'utf8', maxBuffer: 64 * MB });

/** A container in the foreground (`podman run`), its output kept; `podman stop` sends it SIGTERM. */
interface Running {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

describe('the production image (buildah, podman)', function () {
  this.timeout(1_800_000);
  const runId = randomUUID().slice(0, 8);
  const namespace = `image-${runId}`;
  const running: Running[] = [];
  let databaseUrl: string;
  let env: Record<string, string>;
  // The image runs in production mode (NODE_ENV=production), where the API and worker refuse to start without a mail relay.
  let mailbox: Mailbox;

  before(async () => {
    provideImageTools(say);
    const startedAt = Date.now();
    buildImage(TAG, podmanEnv, say);
    say(`image built in ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${databaseName(process.env.DATABASE_URL!)}_image`;
    databaseUrl = url.toString();
    await recreateDatabase(databaseUrl);
    const created = spawnSync(
      process.env.TEMPORAL_CLI!,
      ['operator', 'namespace', 'create', '--namespace', namespace, '--address', process.env.TEMPORAL_ADDRESS!],
      { encoding: 'utf8' },
    );
    assert.equal(created.status, 0, created.stderr);
    mailbox = await startMailbox();
    env = {
      DATABASE_URL: databaseUrl,
      SMTP_URL: mailbox.url,
      TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS!,
      TEMPORAL_NAMESPACE: namespace,
      SANDBOX_BANK_URL: `http://127.0.0.1:${await freePort()}`,
      // The gateway's wait before it asks the bank again, and the simulator's own "delay in verification".
      BANK_RECONFIRM_AFTER_SECONDS: '1',
      SANDBOX_DELAY_SECONDS: '1',
      PAGES_CSRF_SECRET: randomUUID() + randomUUID(),
      DASHBOARD_SECRETS_KEY: randomUUID() + randomUUID(),
      // Production mode refuses to start the API and the worker without it (docs/SECURITY.md#what-the-operator-must-do).
      CARD_HASH_KEY: randomUUID() + randomUUID(),
      WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'true',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      API_METRICS_PORT: String(await freePort()),
      WORKER_METRICS_PORT: String(await freePort()),
      TEMPORAL_SDK_METRICS_PORT: String(await freePort()),
    };
  });
  after(async () => {
    // Each container's log is kept for whoever reads a failure (test-artifacts/image/).
    mkdirSync(join('test-artifacts', 'image'), { recursive: true });
    for (const r of running)
      writeFileSync(
        join('test-artifacts', 'image', `${r.name}.log`),
        podman(['logs', r.name]).stdout + podman(['logs', r.name]).stderr,
      );
    for (const r of running) podman(['rm', '--force', '--time', '0', r.name]);
    await mailbox?.close();
  });

  /** `podman run` of one role: host network, read-only root file system (the image's volumes and /tmp writable). */
  // --no-healthcheck: podman schedules health checks with systemd timers, which this machine
  // lacks; the test runs the image's health check command itself (healthCheck below).
  const runArgs = (name: string, extraEnv: Record<string, string> = {}) => [
    'run',
    '--rm',
    '--name',
    name,
    '--network',
    'host',
    '--read-only',
    '--no-healthcheck',
    ...Object.entries({ ...env, ...extraEnv }).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    TAG,
  ];
  function start(role: string, extraEnv: Record<string, string> = {}): Running {
    const name = `dargah-${role}-${runId}`;
    let text = '';
    const child = spawn('podman', [...runArgs(name, extraEnv), role], {
      env: podmanEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr])
      stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const r = { name, child, output: () => text, exited };
    running.push(r);
    return r;
  }
  const once = (role: string, args: string[]) =>
    spawnSync('podman', [...runArgs(`dargah-${role}-${randomUUID().slice(0, 8)}`), role, ...args], {
      env: podmanEnv,
      encoding: 'utf8',
    });
  /** The image's HEALTHCHECK command, run inside a container: its exit code. */
  function healthCheck(r: Running): number | null {
    const [image] = JSON.parse(podman(['image', 'inspect', TAG]).stdout) as { Healthcheck: { Test: string[] } }[];
    return podman(['exec', r.name, ...image!.Healthcheck.Test.slice(1)]).status;
  }
  /** User and system CPU seconds the container's main process has used so far (all its threads). */
  function cpuSeconds(r: Running): number {
    const pid = podman(['inspect', '--format', '{{.State.Pid}}', r.name]).stdout.trim();
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }
  /** SIGTERM (`podman stop`), then the container's exit code. */
  async function stop(r: Running): Promise<number | null> {
    // Not spawnSync: the test's own clients and webhook receiver must keep running meanwhile.
    const stopped = spawn('podman', ['stop', '--time', '60', r.name], { env: podmanEnv, stdio: 'ignore' });
    assert.equal(await new Promise((resolve) => stopped.once('exit', resolve)), 0, `podman stop ${r.name}`);
    return r.exited;
  }

  it('runs as a non-root user, holds compiled JavaScript and production dependencies only, and is under 250 MB', () => {
    const [image] = JSON.parse(podman(['image', 'inspect', TAG]).stdout) as {
      Size: number;
      Config: { User: string; Labels: Record<string, string> };
      Healthcheck?: { Test: string[] };
    }[];
    assert.equal(image!.Config.User, '10001:10001');
    for (const label of ['version', 'revision', 'source'])
      assert.ok(image!.Config.Labels[`org.opencontainers.image.${label}`], `OCI label ${label}`);
    assert.ok(image!.Healthcheck?.Test.join(' ').includes('/healthz'), 'a health check on /healthz');
    // Every package the lockfile marks dev-only (needed by no production dependency), by its install path.
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages)
      .filter(([path, p]) => p.dev === true && path.startsWith('node_modules/'))
      .map(([path]) => path);
    assert.ok(
      devOnly.includes('node_modules/typescript') && devOnly.includes('node_modules/mocha'),
      'the lockfile marks the dev tools dev-only',
    );
    // Inside the image, by its own Node: who it runs as, and what /app holds.
    const probe = `
      const { readdirSync, existsSync } = require('node:fs');
      const files = readdirSync('/app', { recursive: true }).map(String);
      console.log(JSON.stringify({
        uid: process.getuid(), node: process.version,
        typescript: files.filter((f) => /\\.[mc]?ts$/.test(f)),
        dev: ${JSON.stringify(devOnly)}.filter((path) => existsSync('/app/' + path)),
        bundle: existsSync('/app/dist/workflow-bundle.js'),
      }));`;
    const result = podman([
      'run',
      '--rm',
      '--read-only',
      '--no-healthcheck',
      '--entrypoint',
      '/usr/local/bin/node',
      TAG,
      '-e',
      probe,
    ]);
    assert.equal(result.status, 0, result.stderr);
    const inside = JSON.parse(result.stdout) as {
      uid: number;
      node: string;
      typescript: string[];
      dev: string[];
      bundle: boolean;
    };
    assert.notEqual(inside.uid, 0, 'not root');
    assert.match(inside.node, /^v24\./);
    assert.deepEqual(inside.typescript, [], 'no TypeScript files');
    assert.deepEqual(inside.dev, [], 'no dev dependencies');
    assert.ok(inside.bundle, 'the prebuilt workflow bundle');
    const compressed = Number(
      spawnSync('sh', ['-c', `podman save --format docker-archive ${TAG} | gzip -1 | wc -c`], {
        env: podmanEnv,
        encoding: 'utf8',
      }).stdout.trim(),
    );
    say(
      `image: ${(image!.Size / MB).toFixed(0)} MB unpacked, ${(compressed / MB).toFixed(0)} MB as a gzip-compressed archive`,
    );
    assert.ok(image!.Size < 250 * MB, `the image is ${(image!.Size / MB).toFixed(0)} MB`);
  });

  it('migrates, then takes a payment through the bank simulator to verify and a signed webhook; SIGTERM drains every container', async () => {
    const migrated = once('migrate', []);
    assert.equal(migrated.status, 0, migrated.stderr);
    const migratedAgain = once('migrate', []);
    assert.equal(migratedAgain.status, 0, `migrations are idempotent: ${migratedAgain.stderr}`);

    const bankPort = new URL(env.SANDBOX_BANK_URL!).port;
    // The gateway's API listens on a port of its own: the simulator sends customers back to any loopback port.
    const bank = start('bank-sim', {
      BANK_SIM_PORT: bankPort,
      BANK_SIM_HOST: '127.0.0.1',
      BANK_SIM_REDIRECT_ORIGINS: 'http://127.0.0.1:*,http://localhost:*',
      HEALTHCHECK_URL: `${env.SANDBOX_BANK_URL}/healthz`,
    });
    await until(
      'the bank simulator ready',
      async () => ((await fetch(`${env.SANDBOX_BANK_URL}/healthz`).catch(() => undefined))?.ok ? true : undefined),
      60,
    );
    assert.equal(healthCheck(bank), 0, 'the bank simulator is healthy');

    const startedAt = Date.now();
    const worker = start('worker', { HEALTHCHECK_URL: `http://127.0.0.1:${env.WORKER_METRICS_PORT}/metrics` });
    const line = await until(
      'the worker running',
      () =>
        worker
          .output()
          .split('\n')
          .find((l) => l.includes('"worker running"')),
      120,
    );
    // Wall time depends on the machine's load; the CPU time the start took is the figure that does not.
    say(
      `worker container running ${((Date.now() - startedAt) / 1000).toFixed(1)} s after podman run, having used ${cpuSeconds(worker).toFixed(1)} s of CPU`,
    );
    assert.equal(healthCheck(worker), 0, 'the worker is healthy (its metrics answer)');
    assert.match(line, /"workflowBundle":"prebuilt"/);
    assert.match(line, /"node":"v24\./);

    const api = start('api');
    const base = `http://127.0.0.1:${env.PORT}`;
    await until(
      'the API ready',
      async () => ((await fetch(`${base}/readyz`).catch(() => undefined))?.ok ? true : undefined),
      120,
    );
    assert.match(api.output(), /"node":"v24\./);
    assert.equal(healthCheck(api), 0, 'the API is healthy');

    const created = once('cli', ['merchants', 'create', '--name', 'Image Shop', '--domain', 'localhost', '--json']);
    assert.equal(created.status, 0, created.stderr);
    const key = (JSON.parse(created.stdout) as { test_key: string }).test_key;
    const call = async <T>(path: string, body?: unknown) => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as T };
    };

    // A receiver on the host: the worker's delivery reaches it through the host network.
    // It answers after holdMs: the worker's drain below stops the worker while it waits.
    const deliveries: { body: string; headers: Record<string, string>; answered: boolean }[] = [];
    let holdMs = 0;
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        const delivery = { body, headers: req.headers as Record<string, string>, answered: false };
        deliveries.push(delivery);
        setTimeout(() => res.end('ok', () => (delivery.answered = true)), holdMs);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const endpoint = await call<{ secret: string }>('/webhook_endpoints', {
        url: hooks,
        events: ['payment.verified'],
      });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));

      type Payment = { payment: { id: string; status: string } };
      /** A payment through create, the bank simulator and verify: its id. */
      const verifiedPayment = async (reference: string) => {
        const payment = await call<Payment>('/payments', {
          amount: 150_000,
          callback_url: 'http://localhost:8000/return',
          merchant_reference: reference,
        });
        assert.equal(payment.status, 201, JSON.stringify(payment.body));
        const paid = await call<Payment>(`/test_helpers/payments/${payment.body.payment.id}/bank_outcome`, {
          outcome: 'success',
        });
        assert.equal(paid.body.payment?.status, 'paid', JSON.stringify(paid.body));
        const verified = await call<Payment>(`/payments/${payment.body.payment.id}/verify`, { amount: 150_000 });
        assert.equal(verified.status, 200, JSON.stringify(verified.body));
        assert.equal(verified.body.payment.status, 'verified');
        return payment.body.payment.id;
      };
      const paymentId = await verifiedPayment(`image-${runId}`);
      const delivery = await until(
        'the payment.verified webhook',
        () => deliveries.find((d) => d.body.includes(paymentId)),
        60,
      );
      const event = new Webhook(endpoint.body.secret).verify(delivery.body, delivery.headers) as { type: string };
      assert.equal(event.type, 'payment.verified');

      // SIGTERM to the worker while it delivers a webhook (the receiver holds its answer): it
      // finishes the delivery and records it as one successful attempt, then exits 0.
      holdMs = 5_000;
      const secondId = await verifiedPayment(`image-${runId}-2`);
      const inFlight = await until(
        'the second webhook in flight',
        () => deliveries.find((d) => d.body.includes(secondId)),
        60,
      );
      assert.equal(inFlight.answered, false);
      assert.equal(await stop(worker), 0, worker.output());
      assert.ok(
        inFlight.answered,
        `the receiver answered before the worker exited:\n${worker.output().split('\n').slice(-15).join('\n')}`,
      );
      const shown = await call<{ attempts: { succeeded: boolean }[] }>(`/events/${inFlight.headers['webhook-id']}`);
      assert.equal(shown.status, 200, JSON.stringify(shown.body));
      assert.deepEqual(
        shown.body.attempts.map((a) => a.succeeded),
        [true],
        'one attempt, and it succeeded',
      );

      // SIGTERM to the API while requests keep coming: each answers, or is refused once the
      // listener is closed; none is cut off mid-way. The container exits 0.
      const outcomes: string[] = [];
      let sending = true;
      const clients = Array.from({ length: 4 }, async () => {
        while (sending) {
          try {
            const res = await fetch(`${base}/api/v1/payments/${paymentId}`, {
              headers: { authorization: `Bearer ${key}` },
            });
            await res.text();
            outcomes.push(String(res.status));
          } catch (error) {
            const code = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
            outcomes.push(code);
            if (code === 'ECONNREFUSED') return;
          }
        }
      });
      await until('requests answered before the stop', () => (outcomes.length >= 20 ? true : undefined), 30);
      assert.equal(await stop(api), 0, api.output());
      sending = false;
      await Promise.all(clients);
      assert.deepEqual(
        [...new Set(outcomes)].filter((o) => o !== '200' && o !== 'ECONNREFUSED'),
        [],
        `every request answered or refused: ${outcomes.length} sent`,
      );
      assert.ok(outcomes.filter((o) => o === '200').length >= 20);
      assert.match(api.output(), /"node":"v24\./);
    } finally {
      receiver.close();
    }
    assert.equal(await stop(bank), 0, bank.output());
  });
});
