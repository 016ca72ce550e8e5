import assert from 'node:assert/strict';
import {
  addressRange,
  checkWebhookUrl,
  webhookUrlPolicy,
  WebhookUrlRefused,
  type Resolver,
} from '../../../src/adapters/webhook-url-policy.ts';
import { loadConfig } from '../../../src/config.ts';

/** DNS as a test wants it: a fixed answer per name, never the network. */
const dns =
  (answers: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = answers[host];
    if (found === undefined) throw new Error(`ENOTFOUND ${host}`);
    return found;
  };
const policy = (answers: Record<string, string[]> = {}) => ({ allowLoopbackInTest: true, resolve: dns(answers) });

async function refused(url: string, mode: 'test' | 'live', answers: Record<string, string[]> = {}): Promise<string> {
  try {
    await checkWebhookUrl(url, mode, policy(answers));
  } catch (error) {
    assert.ok(error instanceof WebhookUrlRefused, `refused with a reason, not ${String(error)}`);
    return error.message;
  }
  assert.fail(`${url} was accepted in ${mode} mode`);
}

describe('webhook URL policy (server-side request forgery defence)', () => {
  it('refuses every internal address range in live mode, IPv4 and IPv6, IPv4-mapped included', async () => {
    const internal = {
      'https://127.0.0.1/h': 'loopback',
      'https://127.8.9.10/h': 'loopback',
      'https://localhost/h': 'loopback',
      'https://10.1.2.3/h': 'private',
      'https://172.16.0.1/h': 'private',
      'https://172.31.255.254/h': 'private',
      'https://192.168.1.1/h': 'private',
      'https://169.254.169.254/latest/meta-data': 'linkLocal',
      'https://100.64.0.1/h': 'carrierGradeNat',
      'https://224.0.0.1/h': 'multicast',
      'https://0.0.0.0/h': 'unspecified',
      'https://255.255.255.255/h': 'broadcast',
      'https://[::1]/h': 'loopback',
      'https://[::]/h': 'unspecified',
      'https://[fe80::1]/h': 'linkLocal',
      'https://[fd12:3456::1]/h': 'uniqueLocal',
      'https://[ff02::1]/h': 'multicast',
      'https://[::ffff:127.0.0.1]/h': 'loopback',
      'https://[::ffff:10.0.0.1]/h': 'private',
      'https://[::ffff:169.254.169.254]/h': 'linkLocal',
      'https://[64:ff9b::a00:1]/h': 'rfc6052',
      'https://[2002:a00:1::1]/h': '6to4',
      'https://2130706433/h': 'loopback', // 127.0.0.1 written as one number
      'https://0x7f.1/h': 'loopback',
    };
    for (const [url, range] of Object.entries(internal)) {
      assert.equal(
        await refused(url, 'live', { localhost: ['127.0.0.1', '::1'] }),
        `must not point to a ${range} address`,
        url,
      );
    }
  });

  it('refuses a name that resolves to an internal address, even when only one of its addresses is', async () => {
    assert.match(await refused('https://intranet.example/h', 'live', { 'intranet.example': ['10.0.0.7'] }), /private/);
    assert.match(
      await refused('https://mixed.example/h', 'live', { 'mixed.example': ['93.184.216.34', '192.168.0.10'] }),
      /private/,
    );
    assert.match(await refused('https://v6.example/h', 'live', { 'v6.example': ['::ffff:127.0.0.1'] }), /loopback/);
    assert.match(await refused('https://nowhere.example/h', 'live'), /does not resolve/);
  });

  it('accepts https on public addresses and answers the checked address to connect to', async () => {
    const byName = await checkWebhookUrl(
      'https://shop.example/hooks',
      'live',
      policy({ 'shop.example': ['93.184.216.34'] }),
    );
    assert.deepEqual({ address: byName.address, family: byName.family }, { address: '93.184.216.34', family: 4 });
    const v6 = await checkWebhookUrl('https://[2606:2800:220:1:248:1893:25c8:1946]/h', 'live', policy());
    assert.equal(v6.family, 6);
    assert.equal(addressRange('8.8.8.8'), 'public');
  });

  it('allows only https in live mode and refuses other schemes and credentials in both modes', async () => {
    assert.equal(await refused('http://93.184.216.34/h', 'live'), 'must use https in live mode');
    for (const mode of ['test', 'live'] as const) {
      assert.equal(await refused('ftp://93.184.216.34/h', mode), 'must use https');
      assert.equal(await refused('javascript:alert(1)', mode), 'must use https');
      assert.equal(await refused('/relative', mode), 'must be an absolute URL');
      assert.equal(await refused('https://user:pw@93.184.216.34/h', mode), 'must not contain credentials');
    }
  });

  it('allows http://localhost and 127.0.0.1 in test mode only, and nothing else internal', async () => {
    for (const url of [
      'http://localhost:8000/h',
      'http://127.0.0.1:8000/h',
      'https://localhost/h',
      'http://[::1]:9/h',
    ]) {
      await checkWebhookUrl(url, 'test', policy({ localhost: ['127.0.0.1'] }));
    }
    assert.match(await refused('http://10.0.0.1/h', 'test'), /private/);
    assert.match(await refused('http://93.184.216.34/h', 'test'), /http is allowed only for localhost/);
    await assert.rejects(
      checkWebhookUrl('http://127.0.0.1/h', 'test', { allowLoopbackInTest: false }),
      WebhookUrlRefused,
    );
  });

  it('is off for loopback by default: only npm start and the tests turn WEBHOOK_ALLOW_LOOPBACK_IN_TEST on', async () => {
    const config = loadConfig({});
    assert.equal(config.WEBHOOK_ALLOW_LOOPBACK_IN_TEST, false);
    for (const url of ['http://127.0.0.1:22/h', 'http://localhost:3306/h', 'https://localhost/h']) {
      await assert.rejects(
        checkWebhookUrl(url, 'test', webhookUrlPolicy(config, dns({ localhost: ['127.0.0.1'] }))),
        /loopback/,
        url,
      );
    }
  });

  it('allows only ports 443 and 80 and the configured ones, except on an allowed local loopback receiver', async () => {
    const answers = { 'shop.example': ['93.184.216.34'] };
    for (const port of [22, 25, 3306, 6379, 8080, 8443, 9200, 65535]) {
      assert.equal(
        await refused(`https://shop.example:${port}/h`, 'live', answers),
        'must use port 443 or 80',
        String(port),
      );
      assert.equal(
        await refused(`https://shop.example:${port}/h`, 'test', answers),
        'must use port 443 or 80',
        String(port),
      );
    }
    for (const url of ['https://shop.example/h', 'https://shop.example:443/h', 'https://shop.example:80/h'])
      await checkWebhookUrl(url, 'live', policy(answers));
    const wider = { ...policy(answers), allowedPorts: [8443] };
    await checkWebhookUrl('https://shop.example:8443/h', 'live', wider);
    await assert.rejects(
      checkWebhookUrl('https://shop.example:8444/h', 'live', wider),
      /must use port 443 or 80 or 8443/,
    );
    assert.deepEqual(webhookUrlPolicy(loadConfig({ WEBHOOK_ALLOWED_PORTS: '8443,9443' })).allowedPorts, [8443, 9443]);
    assert.throws(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: '70000' }), /WEBHOOK_ALLOWED_PORTS/);
    // A developer's receiver on localhost, where the operator allowed that: any port.
    await checkWebhookUrl('http://127.0.0.1:8000/h', 'test', policy());
    assert.equal(await refused('http://127.0.0.1:8000/h', 'live'), 'must use https in live mode');
  });

  it("allows receivers on the operator's own networks (WEBHOOK_ALLOWED_NETWORKS) in both modes, live still over https, and nothing next to them", async () => {
    const answers = { 'erp.internal': ['10.20.3.4'], 'mixed.internal': ['10.20.3.4', '10.99.0.1'] };
    const own = { ...policy(answers), allowedNetworks: ['10.20.0.0/16', 'fd00:1::/32'] };
    for (const mode of ['live', 'test'] as const) {
      assert.equal((await checkWebhookUrl('https://erp.internal/h', mode, own)).address, '10.20.3.4');
      await checkWebhookUrl('https://[fd00:1::5]/h', mode, own);
      // Next door to the operator's network is still internal; a name one of whose addresses is outside is refused whole.
      await assert.rejects(checkWebhookUrl('https://10.21.0.1/h', mode, own), /must not point to a private address/);
      await assert.rejects(
        checkWebhookUrl('https://mixed.internal/h', mode, own),
        /must not point to a private address/,
      );
      await assert.rejects(checkWebhookUrl('https://erp.internal:8443/h', mode, own), /must use port 443 or 80/);
    }
    await assert.rejects(checkWebhookUrl('http://erp.internal/h', 'live', own), /must use https in live mode/);
    // The operator's CA goes with a checked receiver on its network only.
    const withCa = { ...own, ca: '-----BEGIN CERTIFICATE-----' };
    assert.equal((await checkWebhookUrl('https://erp.internal/h', 'live', withCa)).ca, withCa.ca);
    assert.equal(
      (
        await checkWebhookUrl('https://shop.example/h', 'live', {
          ...withCa,
          resolve: dns({ 'shop.example': ['93.184.216.34'] }),
        })
      ).ca,
      undefined,
    );
    const configured = loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.20.0.0/16, 192.168.7.0/24' });
    assert.deepEqual(webhookUrlPolicy(configured, undefined, true).allowedNetworks, ['10.20.0.0/16', '192.168.7.0/24']);
    // Only for a merchant the operator allowed there: nobody else, a new sign-up included.
    assert.deepEqual(webhookUrlPolicy(configured).allowedNetworks, []);
    assert.deepEqual(webhookUrlPolicy(loadConfig({}), undefined, true).allowedNetworks, []);
    assert.throws(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.20.0.0/99' }), /WEBHOOK_ALLOWED_NETWORKS/);
    assert.throws(() => loadConfig({ WEBHOOK_CA_FILE: '/nowhere/ca.pem' }), /WEBHOOK_CA_FILE/);
  });

  it('refuses, at load, operator networks that cover or overlap a special-use range or are wider than a /8', () => {
    const refused: [string, RegExp][] = [
      ['0.0.0.0/0', /wider than a \/8/],
      ['8.0.0.0/7', /wider than a \/8/],
      ['::/0', /wider than a \/8/],
      ['fc00::/7', /wider than a \/8/],
      ['127.0.0.0/8', /loopback/],
      ['127.0.0.1/32', /loopback/],
      ['120.0.0.0/5', /wider than a \/8/],
      ['169.254.0.0/16', /link-local/],
      ['169.254.169.254/32', /link-local/],
      ['169.0.0.0/8', /link-local/],
      ['0.0.0.0/8', /this network/],
      ['0.0.0.0/32', /this network/],
      ['224.0.0.0/4', /multicast/],
      ['255.255.255.255/32', /broadcast/],
      ['::/128', /unspecified/],
      ['::1/128', /loopback \(::1\)/],
      ['fe80::/10', /link-local \(fe80::\/10\)/],
      ['fe80::1/128', /link-local/],
      ['ff02::1/128', /multicast/],
      ['::ffff:127.0.0.1/128', /IPv4-mapped/],
      ['::ffff:10.0.0.0/104', /IPv4-mapped/],
      ['2002:7f00:1::/48', /6to4/],
      ['64:ff9b::7f00:1/128', /NAT64/],
    ];
    for (const [network, why] of refused) {
      for (const list of [network, `10.20.0.0/16,${network}`]) {
        assert.throws(
          () => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: list }),
          (error: Error) =>
            error.name === 'ConfigError' &&
            error.message.startsWith(`Invalid configuration: WEBHOOK_ALLOWED_NETWORKS lists ${network}, which `) &&
            why.test(error.message) &&
            !error.message.includes('\n'),
          list,
        );
      }
    }
    // The operator's own networks: private, CGNAT, unique local IPv6, up to a /8.
    for (const network of [
      '10.0.0.0/8',
      '10.20.0.0/16',
      '172.16.0.0/12',
      '192.168.7.0/24',
      '100.64.0.0/10',
      'fd00::/8',
      'fd00:1::/32',
    ])
      assert.equal(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: network }).WEBHOOK_ALLOWED_NETWORKS, network);
  });
});
