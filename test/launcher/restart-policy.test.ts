/** The launcher's restart rules, on a clock of our own: backoff, its reset, the crash-loop limit. */
import assert from 'node:assert/strict';
import {
  DEFAULT_RESTART_POLICY,
  describeExit,
  restartPolicyFromEnv,
  RestartTracker,
} from '../../tools/launcher/supervisor.ts';

const S = 1000;

describe('npm start restart policy', () => {
  it('waits 1 s before the first restart and doubles the wait up to 30 s', () => {
    // A generous crash limit, to see the whole backoff sequence.
    const tracker = new RestartTracker({ ...DEFAULT_RESTART_POLICY, crashLimit: 100 });
    let now = 0;
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const startedAt = now;
      now += 5 * S; // each run lasts 5 s, far from healthy
      const decision = tracker.onExit(startedAt, now);
      assert.equal(decision.giveUp, false);
      if (!decision.giveUp) {
        delays.push(decision.delayMs / S);
        now += decision.delayMs;
      }
    }
    assert.deepEqual(delays, [1, 2, 4, 8, 16, 30, 30, 30]);
  });

  it('starts again from 1 s after a run of 60 s', () => {
    const tracker = new RestartTracker({ ...DEFAULT_RESTART_POLICY, crashLimit: 100 });
    const waits = [
      tracker.onExit(0, 1 * S),
      tracker.onExit(2 * S, 3 * S),
      tracker.onExit(5 * S, 6 * S),
      tracker.onExit(7 * S, 67 * S),
      tracker.onExit(68 * S, 69 * S),
    ];
    assert.deepEqual(
      waits.map((d) => (d.giveUp ? 'give up' : d.delayMs / S)),
      [1, 2, 4, 1, 2],
    );
  });

  it('gives up at the 5th exit within 2 minutes, and not when the exits are spread wider', () => {
    const looping = new RestartTracker(DEFAULT_RESTART_POLICY);
    // A child that dies at once: exits at 0, 1, 3, 7 and 15 s (after waits of 1, 2, 4, 8 s).
    const decisions = [0, 1, 3, 7, 15].map((t) => looping.onExit(t * S, t * S));
    assert.deepEqual(
      decisions.map((d) => d.giveUp),
      [false, false, false, false, true],
    );
    assert.deepEqual(decisions[4], { giveUp: true, crashes: 5 });

    // One exit every 40 s: never 5 within 120 s.
    const spread = new RestartTracker(DEFAULT_RESTART_POLICY);
    for (let i = 0; i < 20; i++) assert.equal(spread.onExit(i * 40 * S - 39 * S, i * 40 * S).giveUp, false);
  });

  it('reads the crash-loop limits from SUPERVISOR_CRASH_LIMIT and SUPERVISOR_CRASH_WINDOW_SECONDS, refusing nonsense', () => {
    assert.deepEqual(restartPolicyFromEnv({}), DEFAULT_RESTART_POLICY);
    assert.deepEqual(restartPolicyFromEnv({ SUPERVISOR_CRASH_LIMIT: '3', SUPERVISOR_CRASH_WINDOW_SECONDS: '30' }), {
      ...DEFAULT_RESTART_POLICY,
      crashLimit: 3,
      crashWindowMs: 30_000,
    });
    assert.throws(
      () => restartPolicyFromEnv({ SUPERVISOR_CRASH_LIMIT: '0' }),
      /SUPERVISOR_CRASH_LIMIT must be a positive whole number/,
    );
    assert.throws(
      () => restartPolicyFromEnv({ SUPERVISOR_CRASH_WINDOW_SECONDS: 'two minutes' }),
      /SUPERVISOR_CRASH_WINDOW_SECONDS/,
    );
  });

  it('names an exit by its signal, else its code', () => {
    assert.equal(describeExit(null, 'SIGKILL'), 'signal SIGKILL');
    assert.equal(describeExit(1, null), 'code 1');
  });
});
