/**
 * Windows from the PSP (docs/BANK.md#windows-from-the-psp): VERIFY_WINDOW_SECONDS plus
 * BANK_PENDING_LIMIT_SECONDS must fit inside every configured PSP's reversal window, or the API and
 * the worker refuse to start with one sentence that names the settings, the PSP and its window.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pspClientsFromConfig } from '../../../src/psps/clients.ts';
import { requireWindowsWithinReversal, reversalWindowProblem, skippedPspWarnings } from '../../../src/psps/windows.ts';
import { ConfigError, loadConfig } from '../../../src/config.ts';

const configured = (env: Record<string, string>) => {
  const config = loadConfig(env);
  return { config, clients: pspClientsFromConfig(config) };
};

describe('windows from the PSP', () => {
  it("the defaults fit SEP's 50 minutes exactly (1800 s + 1200 s), and Mellat's 180", () => {
    const { config, clients } = configured({
      SANDBOX_MELLAT_URL: 'http://127.0.0.1:3200',
      MELLAT_BASE_URL: 'https://bpm.example',
      MELLAT_TERMINAL_ID: '1',
    });
    assert.equal(clients.test.sep?.capabilities.reversalWindowMs, 50 * 60_000);
    assert.equal(clients.test.mellat?.capabilities.reversalWindowMs, 180 * 60_000);
    assert.equal(reversalWindowProblem(config, clients), undefined);
  });

  it("a verify window that with the pending limit passes SEP's reversal window is refused, naming the settings, the PSP and its window", () => {
    const { config, clients } = configured({ VERIFY_WINDOW_SECONDS: '1801' });
    assert.equal(
      reversalWindowProblem(config, clients),
      "Invalid configuration: VERIFY_WINDOW_SECONDS (1801 s) plus BANK_PENDING_LIMIT_SECONDS (1200 s) exceeds PSP sep's reversal window of 50 minutes (test mode), so a payment nobody verifies could no longer be reversed there: shorten them to at most 3000 s together",
    );
    assert.throws(() => requireWindowsWithinReversal(config, clients), ConfigError);
  });

  it("only configured PSPs count: SEP's simulator is always there in test mode, so a long window is refused for SEP; a live Mellat alone is bounded by its 180 minutes", () => {
    const longForSep = configured({ VERIFY_WINDOW_SECONDS: '7200', BANK_PENDING_LIMIT_SECONDS: '600' });
    assert.match(
      reversalWindowProblem(longForSep.config, longForSep.clients) ?? '',
      /PSP sep's reversal window of 50 minutes \(test mode\)/,
    );
    const { config, clients } = configured({
      VERIFY_WINDOW_SECONDS: '10000',
      BANK_PENDING_LIMIT_SECONDS: '1000',
      MELLAT_BASE_URL: 'https://bpm.example',
      MELLAT_TERMINAL_ID: '1',
    });
    assert.match(
      reversalWindowProblem(config, { test: {}, live: clients.live }) ?? '',
      /PSP mellat's reversal window of 180 minutes \(live mode\)/,
    );
    assert.equal(
      reversalWindowProblem(loadConfig({ VERIFY_WINDOW_SECONDS: '9800', BANK_PENDING_LIMIT_SECONDS: '1000' }), {
        test: {},
        live: clients.live,
      }),
      undefined,
      '10 800 s fit 180 minutes',
    );
  });

  it("a PSP asked no reversal (Sadad, capture at the merchant's verify) is not held to it: with its simulator configured, the defaults start; its own limit is the route's (pspTakesVerifyWindow)", () => {
    const { config, clients } = configured({});
    assert.equal(clients.test.sadad?.capabilities.capture, 'merchant_verify');
    assert.equal(reversalWindowProblem(config, clients), undefined);
  });

  it('a live Sadad with a verify window longer than it takes is named in one warning at start; one that fits, or its simulator alone, warns of nothing', () => {
    const live = {
      SADAD_BASE_URL: 'https://sadad.example/VPG',
      SADAD_TERMINAL_ID: '1',
      SADAD_MERCHANT_ID: '2',
      SADAD_KEY: 'REFSR0FILVRFU1QtS0VZLU5PVC1SRUFM',
    };
    const long = configured(live);
    assert.deepEqual(skippedPspWarnings(long.config, long.clients), [
      "PSP sadad (live mode) gives back by itself a payment nobody verified within 15 minutes and is asked to verify only at the merchant's verify, so it takes only payments whose verify window is at most 600 s: with VERIFY_WINDOW_SECONDS 1800 s no payment is routed to it",
    ]);
    const fits = configured({ ...live, VERIFY_WINDOW_SECONDS: '600' });
    assert.deepEqual(skippedPspWarnings(fits.config, fits.clients), []);
    const simulatorOnly = configured({});
    assert.deepEqual(skippedPspWarnings(simulatorOnly.config, simulatorOnly.clients), []);
  });

  for (const [role, script] of [
    ['worker', 'src/main/worker.ts'],
    ['API', 'src/main/api.ts'],
  ] as const) {
    it(`the ${role} refuses to start with such windows, before it connects to anything, saying why in one line`, async function () {
      this.timeout(60_000);
      // No MySQL or Temporal at these addresses: a process that got past the check would fail on them instead.
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        VERIFY_WINDOW_SECONDS: '3600',
        BANK_PENDING_LIMIT_SECONDS: '1200',
        DATABASE_URL: 'mysql://root@127.0.0.1:1/none',
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        NODE_ENV: 'development',
      };
      delete env.SEP_BASE_URL;
      const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 1, output);
      assert.equal(output.trim().split('\n').length, 1, output);
      assert.match(
        output,
        /VERIFY_WINDOW_SECONDS \(3600 s\) plus BANK_PENDING_LIMIT_SECONDS \(1200 s\) exceeds PSP sep's reversal window of 50 minutes/,
      );
    });
  }
});
