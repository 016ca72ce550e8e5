import assert from 'node:assert/strict';
import {
  admitRequest,
  afterFailure,
  afterSuccess,
  breakerGaugeValue,
  breakerSettings,
  breakerStateAt,
  CLOSED_BREAKER,
  type BreakerRecord,
} from '../../../src/domain/psp-breaker.ts';

const settings = { failures: 5, windowMs: 60_000, openMs: 30_000, probeTimeoutMs: 20_000 };
const failTimes = (record: BreakerRecord, times: number[]) =>
  times.reduce((r, t) => afterFailure(r, t, settings), record);

describe('PSP circuit breaker', () => {
  it('stays closed below the failure count and opens at the count within the window', () => {
    const four = failTimes(CLOSED_BREAKER, [0, 1_000, 2_000, 3_000]);
    assert.equal(four.state, 'closed');
    assert.equal(four.failures, 4);
    const five = afterFailure(four, 4_000, settings);
    assert.equal(five.state, 'open');
    assert.equal(five.opened_at, 4_000);
  });

  it('starts a new window when the last one is over: spread-out failures never open it', () => {
    const record = failTimes(CLOSED_BREAKER, [0, 10_000, 20_000, 30_000, 60_000, 70_000]);
    assert.equal(record.state, 'closed');
    assert.equal(record.failures, 2);
    assert.equal(record.window_started_at, 60_000);
  });

  it('a success in the closed state changes nothing (failures count in their window)', () => {
    const record = failTimes(CLOSED_BREAKER, [0, 1_000]);
    assert.equal(afterSuccess(record), record);
  });

  it('open refuses everyone until its time is up, then lets exactly one probe through', () => {
    const open = failTimes(CLOSED_BREAKER, [0, 1, 2, 3, 4]);
    assert.equal(admitRequest(open, 29_000, settings).admitted, false);
    assert.equal(breakerStateAt(open, 29_000, settings), 'open');
    assert.equal(breakerStateAt(open, 30_004, settings), 'half_open');
    const probe = admitRequest(open, 30_004, settings);
    assert.deepEqual([probe.admitted, probe.probe, probe.next.state], [true, true, 'half_open']);
    // A second request while the probe is in flight is refused.
    assert.equal(admitRequest(probe.next, 31_000, settings).admitted, false);
    // A probe that never reported is replaced after its timeout.
    assert.equal(admitRequest(probe.next, 50_004, settings).admitted, true);
  });

  it("the probe's success closes the breaker and forgets its failures; its failure opens it again", () => {
    const probing = admitRequest(failTimes(CLOSED_BREAKER, [0, 1, 2, 3, 4]), 40_000, settings).next;
    assert.deepEqual(afterSuccess(probing), CLOSED_BREAKER);
    const reopened = afterFailure(probing, 41_000, settings);
    assert.equal(reopened.state, 'open');
    assert.equal(reopened.opened_at, 41_000);
    assert.equal(admitRequest(reopened, 60_000, settings).admitted, false);
  });

  it('a late failure of a request admitted before the breaker opened leaves it open as it was', () => {
    const open = failTimes(CLOSED_BREAKER, [0, 1, 2, 3, 4]);
    assert.equal(afterFailure(open, 5, settings), open);
  });

  it('gauge values: 0 closed, 1 half-open, 2 open', () => {
    assert.deepEqual(
      ['closed', 'half_open', 'open'].map((s) => breakerGaugeValue(s as 'closed')),
      [0, 1, 2],
    );
  });

  it('takes its settings from the configuration: seconds as ms, a probe given three bank timeouts', () => {
    assert.deepEqual(
      breakerSettings({
        PSP_BREAKER_FAILURES: 5,
        PSP_BREAKER_WINDOW_SECONDS: 60,
        PSP_BREAKER_OPEN_SECONDS: 30,
        BANK_TIMEOUT_MS: 10_000,
      }),
      { failures: 5, windowMs: 60_000, openMs: 30_000, probeTimeoutMs: 30_000 },
    );
  });
});
