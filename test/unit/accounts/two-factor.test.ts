import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import {
  acceptedStep,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
  TOTP_PARAMETERS,
  totpUri,
} from '../../../src/accounts/two-factor.ts';

// RFC 6238, Appendix B: the SHA-1 seed "12345678901234567890", 8 digits, 30-second steps.
const RFC_SEED = Secret.fromUTF8('12345678901234567890');
const RFC_VECTORS: [seconds: number, code: string][] = [
  [59, '94287082'],
  [1_111_111_109, '07081804'],
  [1_111_111_111, '14050471'],
  [1_234_567_890, '89005924'],
  [2_000_000_000, '69279037'],
  [20_000_000_000, '65353130'],
];

describe('two-factor sign-in: TOTP and recovery codes', () => {
  it('otpauth computes the RFC 6238 SHA-1 test vectors', () => {
    const totp = new TOTP({ secret: RFC_SEED, algorithm: 'SHA1', digits: 8, period: 30 });
    for (const [seconds, code] of RFC_VECTORS)
      assert.equal(totp.generate({ timestamp: seconds * 1000 }), code, `T = ${seconds}`);
  });

  it('accepts the code of now and of one step either side, and answers its step', () => {
    const secret = newTotpSecret();
    const totp = new TOTP({ ...TOTP_PARAMETERS, secret: Secret.fromBase32(secret) });
    const now = 1_700_000_015_000; // mid-step
    const step = Math.floor(now / 30_000);
    assert.equal(acceptedStep(secret, totp.generate({ timestamp: now }), now, null), step);
    assert.equal(acceptedStep(secret, totp.generate({ timestamp: now - 30_000 }), now, null), step - 1);
    assert.equal(acceptedStep(secret, totp.generate({ timestamp: now + 30_000 }), now, null), step + 1);
    assert.equal(
      acceptedStep(secret, totp.generate({ timestamp: now - 60_000 }), now, null),
      undefined,
      'two steps old',
    );
    assert.equal(
      acceptedStep(secret, ` ${totp.generate({ timestamp: now }).replace(/^(...)/, '$1 ')} `, now, null),
      step,
      'spaces are ignored',
    );
  });

  it('refuses a code whose step was already used, and anything that is not six digits', () => {
    const secret = newTotpSecret();
    const totp = new TOTP({ ...TOTP_PARAMETERS, secret: Secret.fromBase32(secret) });
    const now = 1_700_000_015_000;
    const code = totp.generate({ timestamp: now });
    const step = acceptedStep(secret, code, now, null)!;
    assert.equal(acceptedStep(secret, code, now, step), undefined, 'the same code again');
    assert.equal(
      acceptedStep(secret, totp.generate({ timestamp: now - 30_000 }), now, step),
      undefined,
      'an older step',
    );
    assert.equal(
      acceptedStep(secret, totp.generate({ timestamp: now + 30_000 }), now, step),
      step + 1,
      'the next step is new',
    );
    for (const bad of ['', '12345', '1234567', 'abcdef', '12345x'])
      assert.equal(acceptedStep(secret, bad, now, null), undefined, JSON.stringify(bad));
    const other = new TOTP({ ...TOTP_PARAMETERS, secret: Secret.fromBase32(newTotpSecret()) });
    assert.equal(
      acceptedStep(secret, other.generate({ timestamp: now }), now, null),
      undefined,
      "another secret's code",
    );
  });

  it('makes 160-bit secrets and an otpauth URI apps read', () => {
    const secret = newTotpSecret();
    assert.match(secret, /^[A-Z2-7]{32}$/);
    assert.notEqual(newTotpSecret(), secret);
    const uri = new URL(totpUri(secret, 'owner@example.com'));
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.host, 'totp');
    assert.equal(decodeURIComponent(uri.pathname), '/Dargah:owner@example.com');
    assert.equal(uri.searchParams.get('secret'), secret);
    assert.equal(uri.searchParams.get('issuer'), 'Dargah');
    assert.equal(uri.searchParams.get('digits'), '6');
    assert.equal(uri.searchParams.get('period'), '30');
  });

  it('makes recovery codes without look-alike characters, read whatever their case or dashes', () => {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT * 20 }, newRecoveryCode);
    for (const code of codes) assert.match(code, /^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    assert.equal(new Set(codes).size, codes.length);
    assert.equal(normalizeRecoveryCode(' ABCDE-fghjk '), 'abcdefghjk');
    assert.equal(normalizeRecoveryCode('abcde fghjk'), 'abcdefghjk');
  });
});
