/**
 * `cli bank-sim fault` (docs/OPERATIONS.md#rehearse-a-psp-outage) against real simulator processes
 * of this test's own, one speaking SEP's protocol and one Mellat's: the command switches the token
 * service of the PSP it names down, hanging, slow or failing, the PSP's own client then fails that way on
 * every token request until the command clears it; it refuses unknown names, a PSP without a sandbox
 * simulator and a live PSP's address, and switches nothing then.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MellatClient } from '../../src/psps/mellat/client.ts';
import { BankRefusalError, BankUnavailableError, type PspClient } from '../../src/psps/psp-client.ts';
import { SepClient } from '../../src/psps/sep/client.ts';
import { SLOW_ANSWER_MS } from '../../src/bank-sim/faults.ts';
import { bankFaults, OwnSimulator } from '../support/bank.ts';
import { cliWith } from '../support/cli.ts';

const SEP_TERMINAL = '73000003';
const MELLAT_TERMINAL = '74000004';
/** The gateway address the simulators send customers back to (their BANK_SIM_REDIRECT_ORIGINS has loopback). */
const RETURN = 'http://127.0.0.1:3000/pay/return';
/** How long the clients wait for a token: a hanging PSP is given up after it. */
const TIMEOUT_MS = 1_000;

/** How a token request ended: a token, or the error's class, message and code. */
async function tokenOutcome(client: PspClient): Promise<{ kind: string; message: string; code?: number }> {
  try {
    const token = await client.requestToken(randomUUID(), 150_000, RETURN);
    return { kind: 'token', message: token.token };
  } catch (error) {
    if (error instanceof BankRefusalError) return { kind: 'refused', message: error.message, code: error.code };
    if (error instanceof BankUnavailableError) return { kind: 'unavailable', message: error.message };
    throw error;
  }
}

describe('cli bank-sim fault: a PSP outage switched at its sandbox simulator', function () {
  // Each step runs the CLI as a process of its own (a few seconds each on a busy machine).
  this.timeout(180_000);
  const sep = new OwnSimulator({ BANK_SIM_TERMINAL_ID: SEP_TERMINAL });
  const mellat = new OwnSimulator({
    BANK_SIM_PROTOCOL: 'mellat',
    BANK_SIM_TERMINAL_ID: MELLAT_TERMINAL,
    BANK_SIM_USERNAME: 'dargah',
    BANK_SIM_PASSWORD: '',
  });
  let clients: { sep: PspClient; mellat: PspClient };
  /** Clients that wait longer than a slow PSP takes. */
  let patient: { sep: PspClient; mellat: PspClient };
  /** The CLI of a deployment whose test mode has these two simulators (and no live PSP). */
  const fault = (...args: string[]) =>
    cliWith(
      { SANDBOX_SEP_URL: sep.url, SANDBOX_MELLAT_URL: mellat.url, SEP_BASE_URL: '', MELLAT_BASE_URL: '' },
      'bank-sim',
      'fault',
      ...args,
    );
  const switchesAt = async (sim: OwnSimulator) => (await bankFaults(sim.url)).switches;

  before(async () => {
    await Promise.all([sep.start(), mellat.start()]);
    clients = {
      sep: new SepClient({ baseUrl: sep.url, terminalId: SEP_TERMINAL, password: '', timeoutMs: TIMEOUT_MS }),
      mellat: new MellatClient({
        baseUrl: mellat.url,
        terminalId: MELLAT_TERMINAL,
        userName: 'dargah',
        password: '',
        timeoutMs: TIMEOUT_MS,
      }),
    };
    patient = {
      sep: new SepClient({ baseUrl: sep.url, terminalId: SEP_TERMINAL, password: '', timeoutMs: SLOW_ANSWER_MS * 4 }),
      mellat: new MellatClient({
        baseUrl: mellat.url,
        terminalId: MELLAT_TERMINAL,
        userName: 'dargah',
        password: '',
        timeoutMs: SLOW_ANSWER_MS * 4,
      }),
    };
  });
  after(() => Promise.all([sep.stop(), mellat.stop()]));

  for (const psp of ['sep', 'mellat'] as const) {
    it(`${psp}: down refuses every token request at once, hang never answers one, slow answers late, error answers the protocol's error; clear restores`, async () => {
      const client = clients[psp];
      assert.equal((await tokenOutcome(client)).kind, 'token', 'a token before the outage');

      const down = await fault('--psp', psp, '--operation', 'token', '--fault', 'down', '--json');
      assert.equal(down.code, 0, down.stderr);
      assert.deepEqual((JSON.parse(down.stdout) as { switches: unknown[] }).switches, [
        { operation: 'token', fault: 'down', remaining: null },
      ]);
      // An outage, not one failed call: every request meets it until it is cleared.
      for (let i = 0; i < 2; i++) {
        const refused = await tokenOutcome(client);
        assert.equal(refused.kind, 'unavailable', refused.message);
        assert.doesNotMatch(
          refused.message,
          /timeout|timed out|ECONNABORTED/i,
          'the connection was closed, not left to time out',
        );
      }

      assert.equal((await fault('--psp', psp, '--operation', 'token', '--fault', 'hang')).code, 0);
      const hung = await tokenOutcome(client);
      assert.equal(hung.kind, 'unavailable');
      assert.match(hung.message, /timeout|timed out|aborted|ECONNABORTED/i, 'no answer within the client timeout');

      // Slow: the usual answer, late: a caller that waits long enough gets its token, an impatient one gives up.
      assert.equal((await fault('--psp', psp, '--operation', 'token', '--fault', 'slow')).code, 0);
      const asked = Date.now();
      assert.equal((await tokenOutcome(patient[psp])).kind, 'token', 'a slow PSP still answers');
      assert.ok(Date.now() - asked >= SLOW_ANSWER_MS - 100, `answered after ${Date.now() - asked} ms, not held back`);
      const impatient = await tokenOutcome(client);
      assert.equal(impatient.kind, 'unavailable');
      assert.match(
        impatient.message,
        /timeout|timed out|aborted|ECONNABORTED|incomplete answer/i,
        `not answered within the client timeout: ${impatient.message}`,
      );

      assert.equal((await fault('--psp', psp, '--operation', 'token', '--fault', 'error')).code, 0);
      const failed = await tokenOutcome(client);
      if (psp === 'sep') {
        // SEP's error: a 5xx with a negative status, which the client counts as the PSP unavailable.
        assert.equal(failed.kind, 'unavailable');
        assert.match(failed.message, /answered 503/);
      } else {
        // Mellat's error: ResCode 34, "system error", an answer the client reads as a refusal.
        assert.deepEqual([failed.kind, failed.code], ['refused', 34]);
      }
      // The simulator counted what its switch answered: two refused, one hung, two slow, one failed.
      assert.deepEqual((await bankFaults(psp === 'sep' ? sep.url : mellat.url)).answered.token, {
        down: 2,
        timeout: 1,
        slow: 2,
        error: 1,
      });

      const cleared = await fault('--psp', psp, '--operation', 'token', '--fault', 'clear', '--json');
      assert.equal(cleared.code, 0, cleared.stderr);
      assert.deepEqual((JSON.parse(cleared.stdout) as { switches: unknown[] }).switches, []);
      assert.equal((await tokenOutcome(client)).kind, 'token', 'a token again once cleared');
    });
  }

  it("verify is the simulator's confirm switch, hang its timeout; each operation has its own switch, cleared alone", async () => {
    assert.equal((await fault('--psp', 'sep', '--operation', 'verify', '--fault', 'hang')).code, 0);
    assert.equal((await fault('--psp', 'sep', '--operation', 'settle', '--fault', 'down')).code, 0);
    assert.deepEqual(await switchesAt(sep), [
      { operation: 'confirm', fault: 'timeout', remaining: null },
      { operation: 'settle', fault: 'down', remaining: null },
    ]);
    const shown = await fault('--psp', 'sep', '--operation', 'verify', '--fault', 'clear', '--json');
    assert.deepEqual((JSON.parse(shown.stdout) as { switches: unknown[] }).switches, [
      { operation: 'settle', fault: 'down', remaining: null },
    ]);
    assert.equal((await fault('--psp', 'sep', '--operation', 'settle', '--fault', 'clear')).code, 0);
    assert.deepEqual(await switchesAt(sep), []);
  });

  it('refuses an unknown PSP, operation or fault, or a missing flag, and switches nothing', async () => {
    const refusals: [string[], RegExp][] = [
      [['--psp', 'saman', '--operation', 'token', '--fault', 'down'], /unknown PSP "saman"; PSPs: sep, mellat/],
      [
        ['--psp', 'sep', '--operation', 'refund', '--fault', 'down'],
        /--operation must be one of token\|verify\|settle\|reverse/,
      ],
      [
        ['--psp', 'sep', '--operation', 'token', '--fault', 'flaky'],
        /--fault must be one of down\|hang\|slow\|error\|clear/,
      ],
      [['--psp', 'sep', '--fault', 'down'], /--operation is required/],
    ];
    for (const [args, reason] of refusals) {
      const refused = await fault(...args);
      assert.equal(refused.code, 2, `${args.join(' ')}: ${refused.stderr}`);
      assert.match(refused.stderr, reason);
    }
    assert.deepEqual([await switchesAt(sep), await switchesAt(mellat)], [[], []]);
  });

  it('refuses a PSP without a sandbox simulator, a live address, a wrong or missing admin token, and switches nothing', async () => {
    const noSimulator = await cliWith(
      { SANDBOX_SEP_URL: sep.url, SANDBOX_MELLAT_URL: '' },
      'bank-sim',
      'fault',
      '--psp',
      'mellat',
      '--operation',
      'token',
      '--fault',
      'down',
    );
    assert.equal(noSimulator.code, 2);
    assert.match(noSimulator.stderr, /PSP mellat has no sandbox simulator configured \(SANDBOX_MELLAT_URL/);
    // A sandbox address that is a live PSP's is never sent a switch.
    const live = await cliWith(
      { SANDBOX_SEP_URL: sep.url, SEP_BASE_URL: `${sep.url}/`, SEP_TERMINAL_ID: SEP_TERMINAL },
      'bank-sim',
      'fault',
      '--psp',
      'sep',
      '--operation',
      'token',
      '--fault',
      'down',
    );
    assert.equal(live.code, 2);
    assert.match(live.stderr, /SANDBOX_SEP_URL \(http:\/\/127\.0\.0\.1:[0-9]+\) is a live PSP's address/);
    const wrongToken = await cliWith(
      { SANDBOX_SEP_URL: sep.url, BANK_SIM_ADMIN_TOKEN: 'not-the-token' },
      'bank-sim',
      'fault',
      '--psp',
      'sep',
      '--operation',
      'token',
      '--fault',
      'down',
    );
    assert.equal(wrongToken.code, 1);
    assert.match(wrongToken.stderr, /refused the admin token/);
    const noToken = await cliWith(
      { SANDBOX_SEP_URL: sep.url, BANK_SIM_ADMIN_TOKEN: '' },
      'bank-sim',
      'fault',
      '--psp',
      'sep',
      '--operation',
      'token',
      '--fault',
      'down',
    );
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /BANK_SIM_ADMIN_TOKEN is not set/);
    assert.deepEqual([await switchesAt(sep), await switchesAt(mellat)], [[], []]);
    assert.equal((await tokenOutcome(clients.sep)).kind, 'token');
  });
});
