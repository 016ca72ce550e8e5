/** The step-up rule (src/accounts/step-up.ts) and the recovery codes' per-user hashes, as pure functions. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { liveActionMissing, STEP_UP_SECONDS } from '../../../src/accounts/step-up.ts';
import { recoveryHash } from '../../../src/accounts/two-factor.ts';

const user = { userId: 'u', merchantId: 'm', email: 'owner@example.com' };

describe('step-up: what a session lacks before a live action', () => {
  const now = Date.UTC(2026, 0, 1, 12);
  it('a user without two-step sign-in lacks it, whatever the session proved', () => {
    assert.equal(liveActionMissing({ ...user, twoFactor: false, secondFactorAt: new Date(now) }, now), 'two_factor');
  });
  it('a session that proved only the password, or a second factor STEP_UP_SECONDS ago or more, needs a step-up', () => {
    assert.equal(liveActionMissing({ ...user, twoFactor: true, secondFactorAt: null }, now), 'step_up');
    assert.equal(liveActionMissing({ ...user, twoFactor: true }, now), 'step_up');
    assert.equal(
      liveActionMissing({ ...user, twoFactor: true, secondFactorAt: new Date(now - STEP_UP_SECONDS * 1000) }, now),
      'step_up',
    );
  });
  it('a second factor within STEP_UP_SECONDS allows it', () => {
    assert.equal(
      liveActionMissing({ ...user, twoFactor: true, secondFactorAt: new Date(now - STEP_UP_SECONDS * 1000 + 1) }, now),
      undefined,
    );
  });
});

describe("recovery codes' hashes", () => {
  it("one code hashes differently under two users' keys; the same key and any spelling of the code agree", () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    assert.ok(!recoveryHash(a, 'abcde-fghjk').equals(recoveryHash(b, 'abcde-fghjk')));
    assert.ok(recoveryHash(a, 'abcde-fghjk').equals(recoveryHash(a, 'ABCDE FGHJK')));
  });
});
