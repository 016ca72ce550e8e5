import assert from 'node:assert/strict';
import { secretBox } from '../../../src/accounts/secret-box.ts';

const KEY = 'Zq3k9V1xR7mW2pL8tY5nB4cH6jD0fG_s';

describe('secret box (sealed TOTP secrets)', () => {
  it('seals with AES-256-GCM: the stored text does not contain the secret, and opens for its owner only', () => {
    const box = secretBox(KEY);
    assert.equal(box.sealing, true);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    assert.doesNotMatch(sealed, /JBSWY3DPEHPK3PXP/);
    assert.notEqual(box.seal('JBSWY3DPEHPK3PXP', 'user-1'), sealed, 'a fresh nonce each time');
    assert.equal(box.open(sealed, 'user-1'), 'JBSWY3DPEHPK3PXP');
    assert.throws(() => box.open(sealed, 'user-2'), 'copied onto another user');
    assert.throws(() => secretBox(`${KEY}x`).open(sealed, 'user-1'), 'another key');
    const [v, nonce, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    assert.throws(() => box.open([v, nonce, flipped.toString('base64url'), tag].join('.'), 'user-1'), 'tampered');
  });

  it('without a key stores the value marked unsealed, and says what is missing for a sealed one', () => {
    const plain = secretBox('');
    assert.equal(plain.sealing, false);
    const stored = plain.seal('JBSWY3DPEHPK3PXP', 'user-1');
    assert.match(stored, /^plain\./);
    assert.equal(plain.open(stored, 'user-1'), 'JBSWY3DPEHPK3PXP');
    assert.equal(secretBox(KEY).open(stored, 'user-1'), 'JBSWY3DPEHPK3PXP', 'a key set later still reads the old rows');
    assert.throws(() => plain.open(secretBox(KEY).seal('x', 'user-1'), 'user-1'), /DASHBOARD_SECRETS_KEY/);
  });
});
