/** Behpardakht Mellat as plain data: its capabilities as its references show them (docs/psps/mellat.md#capabilities), its settings and its simulator. */
import type { PspProfile } from '../profile.ts';

export const MELLAT_PROFILE = {
  name: 'mellat',
  title: 'Behpardakht Mellat',
  persianTitle: 'به‌پرداخت ملت',
  protocol: 'SOAP',
  capabilities: {
    // A verify, then a settle that captures (bpVerifyRequest, bpSettleRequest).
    capture: 'settle',
    // A verified sale is reversible until Behpardakht settles it by itself, 180 minutes after the verify.
    reversalWindowMs: 180 * 60_000,
    // An unverified sale is given back by itself after 20 minutes.
    unverifiedReversalMs: 20 * 60_000,
    // bpRefundRequest, for all or part of a settled sale.
    refund: 'partial',
    // bpInquiryRequest of a sale by its reference.
    inquiry: true,
    // No reference documents the layout of the merchant panel's export.
    dailyReport: false,
  },
  // bpVerifyRequest answers a result code alone (docs/psps/mellat.md#what-confirms-a-payment).
  namesCardAtVerify: false,
  settings: [
    {
      suffix: 'USERNAME',
      description: "the terminal's user name at Behpardakht",
      testDefault: 'dargah',
      secret: false,
    },
    { suffix: 'PASSWORD', description: "the terminal's password at Behpardakht", testDefault: '', secret: true },
  ],
  liveUrlExample: 'https://bpm.shaparak.ir',
  simulator: { port: 3101, terminalId: '55667788', autoReverseSeconds: 1200 },
} as const satisfies PspProfile;
