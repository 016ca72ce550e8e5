/** SEP (Saman Electronic Payment) as plain data: its capabilities as its references show them (docs/psps/sep.md#capabilities), its settings and its simulator. */
import type { PspProfile } from '../profile.ts';

export const SEP_PROFILE = {
  name: 'sep',
  title: 'Saman Electronic Payment (SEP)',
  persianTitle: 'پرداخت الکترونیک سامان (سپ)',
  protocol: 'REST (JSON)',
  capabilities: {
    // VerifyTransaction is final: there is no settle call (every integration, and SEP's guide).
    capture: 'verify',
    // ReverseTransaction undoes a verify within 50 minutes of it (SEP's guide).
    reversalWindowMs: 50 * 60_000,
    // A payment nobody verifies within 30 minutes SEP gives back by itself (its verify code -6).
    unverifiedReversalMs: 30 * 60_000,
    refund: 'none',
    // No inquiry to call: the guide names a receipt service, but no reference shows its request, and a
    // connector calls nothing no reference shows (docs/psps/sep.md#capabilities says what Dargah does instead).
    inquiry: false,
    // No reference documents the layout of the merchant panel's export.
    dailyReport: false,
  },
  // VerifyTransaction's TransactionDetail names the card by HashedPan (docs/psps/sep.md#the-card-that-paid).
  namesCardAtVerify: true,
  settings: [
    {
      suffix: 'PASSWORD',
      description: "the terminal's password for server-to-server calls, if SEP gave one",
      testDefault: '',
      secret: true,
    },
  ],
  liveUrlExample: 'https://sep.shaparak.ir',
  simulator: { port: 3100, terminalId: '11223344', autoReverseSeconds: 1800 },
} as const satisfies PspProfile;
