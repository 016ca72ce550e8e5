/**
 * The client's address behind trusted proxies (src/http/client-address.ts) and the sign-in
 * backoff (src/accounts/accounts.ts): X-Forwarded-For only from a trusted peer, read from the
 * right, never past the first hop a client could have written.
 */
import assert from 'node:assert/strict';
import { signInBackoffMs, SIGN_IN_LIMITS } from '../../../src/accounts/accounts.ts';
import { loadConfig } from '../../../src/config.ts';
import { clientBucket } from '../../../src/domain/client-bucket.ts';
import { clientAddress, trustedProxies } from '../../../src/http/client-address.ts';

describe('the client address behind trusted proxies', () => {
  const proxies = trustedProxies('127.0.0.1/32, 10.0.0.0/8, fd00::/8');

  it('believes X-Forwarded-For only from a trusted peer', () => {
    assert.equal(clientAddress('203.0.113.9', '198.51.100.1', proxies), '203.0.113.9');
    assert.equal(clientAddress('127.0.0.1', '198.51.100.1', proxies), '198.51.100.1');
    assert.equal(
      clientAddress('::ffff:127.0.0.1', '198.51.100.1', proxies),
      '198.51.100.1',
      'an IPv4-mapped peer is its IPv4 address',
    );
    assert.equal(clientAddress('127.0.0.1', undefined, proxies), '127.0.0.1');
    assert.equal(
      clientAddress('127.0.0.1', '198.51.100.1', trustedProxies('')),
      '127.0.0.1',
      'no proxy trusted: the peer',
    );
  });

  it('answers the right-most hop that is not a trusted proxy, whatever a client wrote to its left', () => {
    assert.equal(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.1.2.3', proxies), '198.51.100.1');
    assert.equal(
      clientAddress('127.0.0.1', '10.0.0.1,10.0.0.2', proxies),
      '10.0.0.1',
      'every hop trusted: the left-most',
    );
    assert.equal(clientAddress('fd00::1', '2001:db8::7', proxies), '2001:db8::7');
    assert.equal(
      clientAddress('127.0.0.1', 'not-an-address, 10.0.0.9', proxies),
      '10.0.0.9',
      'a hop that is no address ends the walk at the proxy that wrote it',
    );
  });

  it('TRUSTED_PROXIES takes CIDRs and addresses, and refuses anything else at start', () => {
    assert.equal(
      loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,192.0.2.7,::1' }).TRUSTED_PROXIES,
      '10.0.0.0/8,192.0.2.7,::1',
    );
    assert.throws(
      () => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,haproxy' }),
      /TRUSTED_PROXIES must list CIDRs or addresses \(not "haproxy"\)/,
    );
  });
});

describe('the per-account sign-in backoff', () => {
  it('waits nothing for the first failures, then doubles up to its cap, and never refuses', () => {
    assert.equal(signInBackoffMs(SIGN_IN_LIMITS.perAccount), 0);
    assert.equal(signInBackoffMs(SIGN_IN_LIMITS.perAccount + 1), SIGN_IN_LIMITS.backoffBaseMs);
    assert.equal(signInBackoffMs(SIGN_IN_LIMITS.perAccount + 2), SIGN_IN_LIMITS.backoffBaseMs * 2);
    assert.equal(signInBackoffMs(10_000), SIGN_IN_LIMITS.backoffMaxMs);
  });
});

describe('the bucket a client address is counted in (src/domain/client-bucket.ts)', () => {
  it('counts an IPv4 client by its address, an IPv4-mapped IPv6 one as that IPv4 address', () => {
    assert.equal(clientBucket('203.0.113.9'), '203.0.113.9');
    assert.notEqual(clientBucket('203.0.113.9'), clientBucket('203.0.113.10'));
    assert.equal(clientBucket('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(clientBucket('::ffff:cb00:7109'), '203.0.113.9');
  });

  it('counts an IPv6 client by its /64: every address of one /64 in one bucket, another /64 in another', () => {
    const bucket = clientBucket('2001:db8:1:2::1');
    assert.equal(bucket, '2001:db8:1:2::/64');
    for (const other of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:DB8:1:2:a:b:c:d', '2001:0db8:0001:0002::9'])
      assert.equal(clientBucket(other), bucket, other);
    assert.notEqual(clientBucket('2001:db8:1:3::1'), bucket);
    assert.notEqual(clientBucket('2001:db8:2:2::1'), bucket);
    assert.equal(clientBucket('::1'), '::/64');
  });

  it('keeps what is no address as it is', () => {
    assert.equal(clientBucket(''), '');
    assert.equal(clientBucket('unknown'), 'unknown');
  });
});
