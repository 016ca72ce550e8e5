/**
 * What each kind of capture (a PSP's `capabilities.capture`, src/psps/profile.ts) implies for the
 * gateway, in one table: the workflows, the refunds, the routing, the reversal-window check and the
 * bank activities ask these questions of the kind instead of comparing it with a name each, so a new
 * kind, or a PSP moved from one kind to another, changes one row here
 * (docs/PAYMENTS.md#capture-at-verify-or-at-settle).
 */
import type { PspCapabilities } from '../psps/profile.ts';

/** Where the customer's money is captured: at the PSP's verify at the return, at a separate settle, or at the PSP's verify asked only at the merchant's verify. */
export type CaptureKind = PspCapabilities['capture'];

export interface CaptureMeaning {
  /**
   * The merchant's verify must still call the PSP (the client's `settle`): its separate settle
   * (`settle`), or its verify, asked only then (`merchant_verify`). Where the verify at the customer's
   * return captured (`verify`), the merchant's verify asks the PSP nothing.
   */
  callsPspAtMerchantVerify: boolean;
  /**
   * The PSP's verify is asked only at the merchant's verify, never at the customer's return, and the
   * PSP has no reversal: it gives back by itself, within its `unverifiedReversalMs`, a payment nobody
   * verified. So nothing was captured at the return, a reversal of a payment still unverified (the
   * verify deadline's, a late return's) calls nothing, and a payment's verify window must end inside
   * that time for the route to send it there.
   */
  verifiesOnlyAtMerchantVerify: boolean;
  /**
   * What becomes of a verified payment's reversal: `within_window`, taken until the PSP's
   * `reversalWindowMs` after its verify (so a refund of the whole payment may be that reversal);
   * `settled`, refused: the settle at the merchant's verify made it final; `none`, the PSP has no
   * reversal at all.
   */
  verifiedReversal: 'within_window' | 'settled' | 'none';
}

export const CAPTURE: { readonly [K in CaptureKind]: Readonly<CaptureMeaning> } = {
  verify: { callsPspAtMerchantVerify: false, verifiesOnlyAtMerchantVerify: false, verifiedReversal: 'within_window' },
  settle: { callsPspAtMerchantVerify: true, verifiesOnlyAtMerchantVerify: false, verifiedReversal: 'settled' },
  merchant_verify: { callsPspAtMerchantVerify: true, verifiesOnlyAtMerchantVerify: true, verifiedReversal: 'none' },
};
