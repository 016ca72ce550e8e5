/** Asan Pardakht as plain data: its capabilities as its references show them (docs/psps/asanpardakht.md#capabilities), its settings and its simulator. */
import type { PspProfile } from '../profile.ts';

export const ASANPARDAKHT_PROFILE = {
  name: 'asanpardakht',
  title: 'Asan Pardakht',
  persianTitle: 'آسان پرداخت',
  protocol: 'REST (JSON)',
  capabilities: {
    // Verify, then Settlement, which captures (shetabit/multipay's verify(), AsanPardakht.IPG's README:
    // "call Settle ... else call Reverse", BamdadPaymentCore's SettleTransaction after VerifyTransaction).
    capture: 'settle',
    // A verified transaction is undone by Cancel until "the allowable time post-verification" (Cancel's
    // 814, BamdadPaymentCore), whose length no reference gives: Dargah assumes the shortest window of
    // the PSPs it knows (SEP's 50 minutes) until one does (docs/psps/asanpardakht.md#what-no-reference-settles).
    reversalWindowMs: 50 * 60_000,
    // No reference gives how long Asan Pardakht waits for a verify before it gives the money back by
    // itself; Dargah assumes the shortest of the PSPs it knows (Behpardakht's 20 minutes).
    unverifiedReversalMs: 20 * 60_000,
    // No refund call: Parbad's REST gateway answers RefundNotSupported; no reference shows one.
    refund: 'none',
    // TranResult is asked within confirm, settle and reverse (it finds the transaction by our invoice
    // id); on its own it cannot say whether a paid transaction was reversed since, and the return never
    // says "failed" for an inquiry to check, so no inquiry is declared.
    inquiry: false,
    // No reference documents the layout of the merchant panel's export.
    dailyReport: false,
  },
  // TranResult names a `hash` of the card, by an algorithm no reference gives (docs/psps/asanpardakht.md#the-card-that-paid).
  namesCardAtVerify: false,
  settings: [
    {
      suffix: 'USERNAME',
      description: "the merchant's user name at Asan Pardakht (the usr header)",
      testDefault: 'dargah',
      secret: false,
    },
    {
      suffix: 'PASSWORD',
      description: "the merchant's password at Asan Pardakht (the pwd header)",
      testDefault: '',
      secret: true,
    },
  ],
  liveUrlExample: 'https://ipgrest.asanpardakht.ir',
  simulator: { port: 3102, terminalId: '44556677', autoReverseSeconds: 1200 },
} as const satisfies PspProfile;
