/**
 * `npm run build` makes what production runs: JavaScript in dist/ with the
 * files the code reads, and the workflow bundle made ahead of time. The
 * compiled migrate, CLI, worker and API (as `npm run prod:*` runs them) take a
 * payment from create through the bank to verify, the worker loading the
 * prebuilt bundle instead of bundling at start. They run in a namespace of
 * their own on the suite's Temporal server, so their schedules and task queue
 * touch nothing of the suite's.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../src/main/ports.ts';
import { until } from '../support/until.ts';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
/** The compiled file an `npm run prod:<role>` script runs. */
const compiled = (role: string) => /^node (dist\/\S+\.js)$/.exec(scripts[`prod:${role}`] ?? '')?.[1];

describe('npm run build: the compiled gateway', function () {
  this.timeout(600_000);
  const children: ChildProcess[] = [];
  const namespace = `build-${randomUUID().slice(0, 8)}`;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    const build = spawnSync('npm', ['run', '--silent', 'build'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    assert.equal(build.status, 0, build.stdout);
    const created = spawnSync(
      process.env.TEMPORAL_CLI!,
      ['operator', 'namespace', 'create', '--namespace', namespace, '--address', process.env.TEMPORAL_ADDRESS!],
      { encoding: 'utf8' },
    );
    assert.equal(created.status, 0, created.stderr);
    env = {
      ...process.env,
      TEMPORAL_NAMESPACE: namespace,
      API_METRICS_PORT: '0',
      WORKER_METRICS_PORT: '0',
      TEMPORAL_SDK_METRICS_PORT: '0',
      PORT: String(await freePort()),
    };
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
  });

  const run = (role: string, args: string[] = []) =>
    spawnSync(process.execPath, [compiled(role)!, ...args], { env, encoding: 'utf8' });
  function start(role: string): { child: ChildProcess; output: () => string } {
    let text = '';
    const child = spawn(process.execPath, [compiled(role)!], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr])
      stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    children.push(child);
    return { child, output: () => text };
  }

  it('holds JavaScript only, the files the code reads, and the workflow bundle; a prod script for every role', () => {
    for (const role of ['api', 'worker', 'migrate', 'bank-sim', 'cli'])
      assert.ok(
        compiled(role) !== undefined && existsSync(compiled(role)!),
        `prod:${role} runs an existing compiled file`,
      );
    const files = readdirSync('dist', { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    assert.deepEqual(
      files.filter((f) => f.endsWith('.ts')),
      [],
      'no TypeScript',
    );
    for (const f of [
      'dist/workflow-bundle.js',
      'dist/openapi/openapi.json',
      'dist/src/pages/templates/pay.eta',
      'dist/src/http/assets/base.css',
    ])
      assert.ok(files.includes(f), f);
    assert.ok(!files.some((f) => f.startsWith('dist/test/') || f.startsWith('dist/tools/')), 'no tests or tools');
  });

  it('migrates, onboards, and takes a payment through the bank to verify with the prebuilt workflow bundle', async () => {
    assert.equal(run('migrate').status, 0);
    const worker = start('worker');
    const startedAt = Date.now();
    const line = await until(
      'the worker running',
      () =>
        worker
          .output()
          .split('\n')
          .find((l) => l.includes('"worker running"')),
      120,
    );
    const workerStart = (Date.now() - startedAt) / 1000;
    assert.match(line, /"workflowBundle":"prebuilt"/);
    assert.match(line, new RegExp(`"node":"${process.version}"`));
    process.stdout.write(`      compiled worker running after ${workerStart.toFixed(1)} s\n`);
    const api = start('api');
    const base = `http://127.0.0.1:${env.PORT}`;
    await until(
      'the API ready',
      async () => ((await fetch(`${base}/readyz`).catch(() => undefined))?.ok ? true : undefined),
      120,
    );
    assert.match(api.output(), /"node":"v2[4-9]/);

    const created = run('cli', ['merchants', 'create', '--name', 'Compiled Shop', '--domain', 'localhost', '--json']);
    assert.equal(created.status, 0, created.stderr);
    const key = (JSON.parse(created.stdout) as { test_key: string }).test_key;
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${base}/api/v1${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { payment: { id: string; status: string } } };
    };
    const payment = await call('/payments', {
      amount: 150_000,
      callback_url: 'http://localhost:8000/return',
      merchant_reference: 'compiled-1',
    });
    assert.equal(payment.status, 201);
    const paid = await call(`/test_helpers/payments/${payment.body.payment.id}/bank_outcome`, { outcome: 'success' });
    assert.equal(paid.body.payment.status, 'paid', JSON.stringify(paid.body));
    const verified = await call(`/payments/${payment.body.payment.id}/verify`, { amount: 150_000 });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.payment.status, 'verified');

    // SIGTERM: both drain and exit 0.
    for (const p of [api, worker]) {
      const exited = new Promise<number | null>((resolve) => p.child.once('exit', (code) => resolve(code)));
      p.child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
  });
});
