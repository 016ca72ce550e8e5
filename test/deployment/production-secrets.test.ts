/**
 * Production mode (NODE_ENV=production) refuses to start the API without PAGES_CSRF_SECRET,
 * DASHBOARD_SECRETS_KEY or CARD_HASH_KEY, and the worker without CARD_HASH_KEY (the third review's
 * item 4): the real entry points, started as `npm start` starts them, exit with a sentence naming
 * the setting instead of running on a per-process CSRF secret, unsealed two-factor secrets or the
 * public card-hash key printed in the source.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort } from '../../src/main/ports.ts';
import { ARTIFACTS } from '../support/artifacts.ts';
import { getHarness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { startEntryPoint, type GatewayProcess } from '../support/processes.ts';

const SECRETS = {
  PAGES_CSRF_SECRET: randomBytes(32).toString('hex'),
  DASHBOARD_SECRETS_KEY: randomBytes(32).toString('hex'),
  CARD_HASH_KEY: randomBytes(32).toString('hex'),
};
type Secret = keyof typeof SECRETS;

describe('production mode needs its secrets', function () {
  this.timeout(240_000);
  const processes: GatewayProcess[] = [];
  afterEach(async () => {
    for (const p of processes.splice(0)) await p.stop();
  });

  /** Production settings (a mail relay named: its own rule is tested apart) with every secret but `missing`. */
  async function env(missing: Secret[]): Promise<NodeJS.ProcessEnv> {
    const h = await getHarness();
    const port = await freePort();
    const base: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(SECRETS)) delete base[name];
    const secrets = Object.fromEntries(Object.entries(SECRETS).filter(([name]) => !missing.includes(name as Secret)));
    return {
      ...base,
      ...secrets,
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:9',
      DATABASE_URL: h.config.DATABASE_URL,
      TEMPORAL_ADDRESS: h.config.TEMPORAL_ADDRESS,
      // A queue of its own: a worker that does start takes no task of the suite's.
      TEMPORAL_TASK_QUEUE: `secrets-${randomBytes(4).toString('hex')}`,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      API_METRICS_PORT: '0',
      WORKER_METRICS_PORT: '0',
      TEMPORAL_SDK_METRICS_PORT: '0',
    };
  }

  /** Starts an entry point: its exit code (null when it started serving instead) and output. */
  async function run(script: string, missing: Secret[]): Promise<{ code: number | null; output: string }> {
    const name = `secrets-${randomBytes(4).toString('hex')}`;
    const child = startEntryPoint(name, script, await env(missing));
    processes.push(child);
    const log = join(ARTIFACTS, `${name}.log`);
    const read = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
    const exited = once(child.child, 'exit').then(([code]) => code as number | null);
    const started = waitFor(
      'the process to start',
      async () => (/API listening|worker running/.test(read()) ? ('started' as const) : undefined),
      180_000,
      200,
    );
    const outcome = await Promise.race([exited, started]);
    // The process may exit before its last line reaches the log file (written by this process from its pipe).
    if (outcome !== 'started')
      await waitFor('its output in the log', async () => (read() !== '' ? true : undefined), 10_000, 100).catch(
        () => undefined,
      );
    return { code: outcome === 'started' ? null : outcome, output: read() };
  }

  for (const name of Object.keys(SECRETS) as Secret[]) {
    it(`the API exits without ${name}, saying so in one sentence`, async () => {
      const { code, output } = await run('src/main/api.ts', [name]);
      assert.equal(code, 1, 'it exited instead of serving');
      assert.match(output, new RegExp(`${name} must be set in production mode \\(NODE_ENV is production\\)`));
      assert.doesNotMatch(output, /API listening/);
      for (const value of Object.values(SECRETS)) assert.ok(!output.includes(value), 'no secret value in the output');
    });
  }

  it('the worker exits without CARD_HASH_KEY, saying so', async () => {
    const { code, output } = await run('src/main/worker.ts', ['CARD_HASH_KEY']);
    assert.equal(code, 1);
    assert.match(output, /CARD_HASH_KEY must be set in production mode \(NODE_ENV is production\)/);
    assert.doesNotMatch(output, /worker running/);
  });

  it("the worker starts with CARD_HASH_KEY alone: the pages' and dashboard's secrets are not its own", async () => {
    const { code, output } = await run('src/main/worker.ts', ['PAGES_CSRF_SECRET', 'DASHBOARD_SECRETS_KEY']);
    assert.equal(code, null, output.slice(-2000));
    assert.doesNotMatch(output, /CARD_HASH_KEY is not set/);
  });
});
