/**
 * Dashboard emails carry one-time links (address confirmation, password
 * reset). Without SMTP_URL the mailer prints them, which is for a developer's
 * machine only: in production mode (NODE_ENV=production, or a live PSP in
 * SEP_BASE_URL) the API and the worker refuse to start without SMTP_URL, and
 * with it the link goes to the mail server and never to the process's output.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort } from '../../src/main/ports.ts';
import { ARTIFACTS } from '../support/artifacts.ts';
import { suiteSepUrl } from '../support/suite-sep.ts';
import { launchChromium, phonePage } from '../support/browser.ts';
import { signUpInBrowser } from '../support/dashboard.ts';
import { getHarness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { linkIn, startMailbox } from '../support/mailbox.ts';
import { startEntryPoint, waitUntilOk, type GatewayProcess } from '../support/processes.ts';

describe('production mode needs SMTP_URL', function () {
  this.timeout(180_000);
  const processes: GatewayProcess[] = [];
  after(async () => {
    for (const p of processes.splice(0)) await p.stop();
  });

  async function env(settings: Record<string, string>): Promise<NodeJS.ProcessEnv> {
    const h = await getHarness();
    const port = await freePort();
    const base: NodeJS.ProcessEnv = { ...process.env };
    delete base.SMTP_URL;
    delete base.NODE_ENV;
    return {
      ...base,
      DATABASE_URL: h.config.DATABASE_URL,
      TEMPORAL_ADDRESS: h.config.TEMPORAL_ADDRESS,
      TEMPORAL_TASK_QUEUE: h.config.TEMPORAL_TASK_QUEUE,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      API_METRICS_PORT: '0',
      WORKER_METRICS_PORT: '0',
      TEMPORAL_SDK_METRICS_PORT: '0',
      ...settings,
    };
  }

  /** Starts an entry point that must refuse to start; answers its exit code and output. */
  async function refused(
    script: string,
    settings: Record<string, string>,
  ): Promise<{ code: number | null; output: string }> {
    const name = `mail-refused-${randomBytes(4).toString('hex')}`;
    const child = startEntryPoint(name, script, await env(settings));
    processes.push(child);
    const log = join(ARTIFACTS, `${name}.log`);
    const read = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
    const exited = once(child.child, 'exit').then(([code]) => code as number | null);
    // Either it exits, or it starts serving (then the refusal is missing: answered at once, not after a timeout).
    const started = waitFor(
      'the process to start',
      async () => (/API listening|worker running/.test(read()) ? ('started' as const) : undefined),
      120_000,
      200,
    );
    const outcome = await Promise.race([exited, started]);
    return { code: outcome === 'started' ? null : outcome, output: read() };
  }

  for (const [role, script] of [
    ['API', 'src/main/api.ts'],
    ['worker', 'src/main/worker.ts'],
  ] as const) {
    it(`the ${role} refuses to start with NODE_ENV=production and no SMTP_URL, saying why`, async () => {
      const { code, output } = await refused(script, { NODE_ENV: 'production' });
      assert.equal(code, 1);
      assert.match(output, /SMTP_URL must be set in production mode \(NODE_ENV is production\)/);
      assert.doesNotMatch(output, /API listening|worker running/);
    });
  }

  it('the API refuses to start with a live PSP configured (SEP_BASE_URL) and no SMTP_URL', async () => {
    const { code, output } = await refused('src/main/api.ts', {
      SEP_BASE_URL: suiteSepUrl() ?? 'http://127.0.0.1:3100',
      SEP_TERMINAL_ID: '11223344',
    });
    assert.equal(code, 1);
    assert.match(output, /SMTP_URL must be set in production mode \(SEP_BASE_URL names a live PSP\)/);
  });

  it("with SMTP_URL in production mode the API starts, and a sign-up's confirmation link is mailed, never printed", async () => {
    const mailbox = await startMailbox();
    const browser = await launchChromium();
    try {
      const name = `mail-production-${randomBytes(4).toString('hex')}`;
      // Production mode also needs the API's secrets (test/deployment/production-secrets.test.ts).
      const secrets = {
        PAGES_CSRF_SECRET: randomBytes(32).toString('hex'),
        DASHBOARD_SECRETS_KEY: randomBytes(32).toString('hex'),
        CARD_HASH_KEY: randomBytes(32).toString('hex'),
      };
      const settings = await env({ NODE_ENV: 'production', SMTP_URL: mailbox.url, ...secrets });
      const api = startEntryPoint(name, 'src/main/api.ts', settings);
      processes.push(api);
      await waitUntilOk(`${settings.PUBLIC_BASE_URL}/readyz`, api);
      const { page } = await phonePage(browser);
      const email = await signUpInBrowser(
        page,
        { base: settings.PUBLIC_BASE_URL!, mailbox },
        'en',
        'Production mail shop',
      );
      const link = new URL(linkIn(await mailbox.next(email), '/dashboard/confirm'), settings.PUBLIC_BASE_URL);
      const secret = [...link.searchParams.values()].join('');
      assert.ok(secret.length >= 20, 'the link went to the mail server, with its one-time token');
      const output = readFileSync(join(ARTIFACTS, `${name}.log`), 'utf8');
      assert.ok(!output.includes(secret), 'and not to the output');
      assert.doesNotMatch(output, /no SMTP_URL set/);
    } finally {
      await browser.close();
      await mailbox.close();
    }
  });
});
