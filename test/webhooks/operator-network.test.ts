/**
 * The operator's networks for webhook receivers (WEBHOOK_ALLOWED_NETWORKS, docs/WEBHOOKS.md#receivers-on-the-operators-network;
 * issue 50) on the real stack: a special-use range is refused when the configuration is loaded, by the API
 * and by the operator's CLI alike, with one sentence; the networks count only for the merchants the operator
 * allowed there with the CLI, never for a new test sign-up; and a test key reaches loopback only while
 * WEBHOOK_ALLOW_LOOPBACK_IN_TEST is on.
 */
import assert from 'node:assert/strict';
import { cli, cliWith } from '../support/cli.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { OPERATOR_NETWORK_ADDRESS } from '../support/operator-network.ts';

/** What an operator might write to let webhooks in, and none of it is the operator's own network. */
const SPECIAL = [
  '0.0.0.0/0',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '169.254.169.254/32',
  '0.0.0.0/8',
  '224.0.0.0/4',
  '255.255.255.255/32',
  '::/0',
  '::1/128',
  'fe80::/10',
  '::ffff:127.0.0.1/128',
];

describe("webhook receivers on the operator's network", function () {
  this.timeout(120_000);

  it('refuses a special-use network when the configuration is loaded, in one sentence, whoever loads it', async () => {
    for (const network of SPECIAL) {
      await assert.rejects(
        apiWith({ WEBHOOK_ALLOWED_NETWORKS: `10.20.0.0/16,${network}`, WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'false' }),
        (error: Error) =>
          error.name === 'ConfigError' &&
          error.message.startsWith(`Invalid configuration: WEBHOOK_ALLOWED_NETWORKS lists ${network}, which `),
        `the API starts with ${network} in WEBHOOK_ALLOWED_NETWORKS`,
      );
    }
    // The operator's CLI is refused the same way, before it touches anything.
    const run = await cliWith({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, 'stuck', '--json');
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      /^error: Invalid configuration: WEBHOOK_ALLOWED_NETWORKS lists 127\.0\.0\.0\/8, which covers or overlaps loopback \(127\.0\.0\.0\/8\): [^\n]+\n$/,
    );
  });

  it('counts only for the merchants the operator allowed there, never for a new sign-up; loopback stays WEBHOOK_ALLOW_LOOPBACK_IN_TEST’s', async () => {
    const h = await getHarness();
    // The suites' operator network is a loopback address of this process (test/support/operator-network.ts);
    // loopback for local development is off, as on a shared server.
    const api = await apiWith({ WEBHOOK_ALLOW_LOOPBACK_IN_TEST: 'false' });
    const url = `https://${OPERATOR_NETWORK_ADDRESS}/hooks`;
    const { merchantId, key } = await newMerchant();
    const endpoints = () =>
      h.db.selectFrom('webhook_endpoints').select('url').where('merchant_id', '=', merchantId).execute();

    const refused = await client(api, key).post('/webhook_endpoints', { url });
    assert.equal(refused.status, 422, `a new sign-up's receiver on the operator's network: ${refused.text}`);
    assert.equal(refused.body.code, 'validation_failed');
    assert.match(String(refused.body.message), /must not point to a loopback address/);
    assert.deepEqual(await endpoints(), [], 'nothing stored');

    const allowed = await cli('merchants', 'allow-operator-network', '--merchant', merchantId, '--json');
    assert.equal(allowed.code, 0, allowed.stderr);
    const answer = JSON.parse(allowed.stdout) as Record<string, unknown>;
    assert.deepEqual([answer.merchant_id, answer.operator_network], [merchantId, true]);
    const created = await client(api, key).post('/webhook_endpoints', { url });
    assert.equal(created.status, 201, created.text);
    // The operator's network is no door to the rest of loopback for a test key, even for an allowed merchant.
    for (const other of ['http://127.0.0.1/hooks', 'https://127.0.0.1/hooks', 'http://[::1]/hooks']) {
      const res = await client(api, key).post('/webhook_endpoints', { url: other });
      assert.equal(res.status, 422, `${other}: ${res.text}`);
    }

    const disallowed = await cli('merchants', 'disallow-operator-network', '--merchant', merchantId, '--json');
    assert.equal(disallowed.code, 0, disallowed.stderr);
    assert.equal(JSON.parse(disallowed.stdout).operator_network, false);
    assert.equal((await client(api, key).post('/webhook_endpoints', { url })).status, 422, 'taken back');
    assert.deepEqual(await endpoints(), [{ url }], 'only the endpoint made while allowed');

    const unknown = await cli('merchants', 'allow-operator-network', '--merchant', 'no-such-merchant');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no merchant no-such-merchant/);
  });
});
