/**
 * Zibal's trackId drawn from random bytes (src/domain/compat-protocols.ts): sixteen digits, never
 * past Number.MAX_SAFE_INTEGER (a JSON number every client reads exactly), spread over the range.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ZIBAL_TRACK_ID_PATTERN, zibalTrackId, zibalTrackIdFromBytes } from '../../../src/domain/compat-protocols.ts';

describe("Zibal's trackId", () => {
  it('is sixteen digits, exact as a double, from the lowest bytes to the highest', () => {
    assert.equal(zibalTrackIdFromBytes(new Uint8Array(8)), '1000000000000000');
    const highest = zibalTrackIdFromBytes(new Uint8Array(8).fill(0xff));
    assert.match(highest, ZIBAL_TRACK_ID_PATTERN);
    assert.ok(Number.isSafeInteger(Number(highest)));
    const drawn = Array.from({ length: 2_000 }, () => zibalTrackIdFromBytes(randomBytes(8)));
    for (const id of drawn) {
      assert.match(id, ZIBAL_TRACK_ID_PATTERN);
      assert.ok(Number.isSafeInteger(Number(id)) && String(Number(id)) === id, id);
    }
    assert.equal(new Set(drawn).size, drawn.length, 'no repeats in 2,000 draws');
    // Spread: both halves of the range are drawn.
    assert.ok(drawn.some((id) => Number(id) < 4.5e15) && drawn.some((id) => Number(id) > 4.5e15));
  });

  it('needs eight bytes', () => {
    assert.throws(() => zibalTrackIdFromBytes(new Uint8Array(7)));
  });

  it('is the stored one when the payment has it, else the tracking code (a Zibal payment from before)', () => {
    assert.equal(
      zibalTrackId({ tracking_code: '123456789012', zibal_track_id: '4000000000000001' }),
      '4000000000000001',
    );
    assert.equal(zibalTrackId({ tracking_code: '123456789012', zibal_track_id: null }), '123456789012');
  });
});
