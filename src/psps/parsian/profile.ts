/** Parsian's PEC IPG as plain data: its capabilities as its references show them (docs/psps/parsian.md#capabilities), its settings and its simulator. */
import type { PspProfile } from '../profile.ts';

export const PARSIAN_PROFILE = {
  name: 'parsian',
  title: 'Parsian (PEC)',
  persianTitle: 'پرداخت الکترونیک پارسیان (پک)',
  protocol: 'SOAP',
  capabilities: {
    // ConfirmPayment is final: PEC has no settle call (PEC's own IPG document, shetabit/multipay, Parbad, monopay).
    capture: 'verify',
    // ReversalRequest is taken "before the end of the day and before the merchant is settled" (PEC's IPG
    // document), past which it answers -1549; no reference gives a number of minutes. Dargah assumes 50
    // (docs/psps/parsian.md#what-no-reference-settles): the default windows fit it, as at SEP.
    reversalWindowMs: 50 * 60_000,
    // No reference says when PEC gives back a payment nobody confirmed; Dargah assumes Behpardakht's
    // 20 minutes, the shorter of the two Shaparak PSPs whose references say (docs/psps/parsian.md).
    unverifiedReversalMs: 20 * 60_000,
    // No refund service in any reference: Parbad's "refund" of a Parsian payment is the ReversalRequest.
    refund: 'none',
    // No inquiry service in any reference (PEC's document lists sale, confirm, reversal and multiplexed sale).
    inquiry: false,
    // No reference documents the layout of the merchant panel's export.
    dailyReport: false,
  },
  // ConfirmPayment names the card masked (CardNumberMasked), not its hash; the return's HashCardNumber is
  // of a hash no reference describes and is never trusted (docs/psps/parsian.md#the-card-that-paid).
  namesCardAtVerify: false,
  settings: [
    {
      suffix: 'PIN',
      description: "the terminal's PIN at Parsian (PEC), sent as LoginAccount on every call",
      testDefault: '',
      secret: true,
    },
  ],
  liveUrlExample: 'https://pec.shaparak.ir',
  simulator: { port: 3104, terminalId: '77889900', autoReverseSeconds: 1200 },
} as const satisfies PspProfile;
