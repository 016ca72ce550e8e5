/**
 * The one table of what each kind of capture implies (src/domain/capture.ts), against the PSPs'
 * declarations: every kind a PSP declares has a row, and the rows say what docs/psps/ says of them.
 */
import assert from 'node:assert/strict';
import { CAPTURE } from '../../../src/domain/capture.ts';
import { PSP_PROFILES } from '../../../src/psps/profiles.ts';

describe('what each kind of capture implies', () => {
  it('has a row for every kind a PSP declares', () => {
    for (const profile of Object.values(PSP_PROFILES))
      assert.ok(CAPTURE[profile.capabilities.capture], `${profile.name}: ${profile.capabilities.capture}`);
  });

  it('a PSP whose verify at the return captured is asked nothing at the merchant verify, and reverses within its window', () => {
    assert.deepEqual(CAPTURE.verify, {
      callsPspAtMerchantVerify: false,
      verifiesOnlyAtMerchantVerify: false,
      verifiedReversal: 'within_window',
    });
  });

  it('a PSP that settles apart is asked at the merchant verify, after which nothing reverses', () => {
    assert.equal(CAPTURE.settle.callsPspAtMerchantVerify, true);
    assert.equal(CAPTURE.settle.verifiesOnlyAtMerchantVerify, false);
    assert.equal(CAPTURE.settle.verifiedReversal, 'settled');
  });

  it('Sadad and Pasargad verify only at the merchant verify and have no reversal', () => {
    for (const psp of ['sadad', 'pasargad'] as const) {
      const kind = CAPTURE[PSP_PROFILES[psp].capabilities.capture];
      assert.equal(kind.verifiesOnlyAtMerchantVerify, true, psp);
      assert.equal(kind.callsPspAtMerchantVerify, true, psp);
      assert.equal(kind.verifiedReversal, 'none', psp);
    }
  });
});
