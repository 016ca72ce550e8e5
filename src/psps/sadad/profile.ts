/** Sadad (Bank Melli Iran) as plain data: its capabilities as its references show them (docs/psps/sadad.md#capabilities), its settings and its simulator. */
import type { PspProfile } from '../profile.ts';

export const SADAD_PROFILE = {
  name: 'sadad',
  title: 'Sadad (Bank Melli Iran)',
  persianTitle: 'پرداخت الکترونیک سداد (بانک ملی ایران)',
  protocol: 'REST (JSON)',
  capabilities: {
    // Advice/Verify is final: no source settles after it (Sadad's own samples and plugin complete the order on its 0).
    // With no reversal, Dargah asks it only at the merchant's verify, never at the return: a payment nobody
    // verifies is then given back by Sadad itself (docs/psps/sadad.md#why-the-verify-waits-for-the-merchant).
    capture: 'merchant_verify',
    // No reversal at all: iran-payment-laravel's driver ("IPG does not support reversal") and notes ("a verified
    // payment can not be reversed"); no other source calls one. 0: nothing is reversible after the verify.
    reversalWindowMs: 0,
    // A payment nobody verifies within 15 minutes Sadad gives back by itself (iran-payment-laravel's notes, from the
    // IPG document v1.11; a later verify answers 101, "the time to send the transaction is over": Parbad, Sadad's plugin).
    unverifiedReversalMs: 15 * 60_000,
    // No refund call of this API: a separate refund service (refund.sadadpsp.ir) appears in two files whose answers
    // no source shows, and a connector calls nothing no reference shows (docs/psps/sadad.md#capabilities).
    refund: 'none',
    // No source calls an inquiry.
    inquiry: false,
    // No reference documents the layout of the merchant panel's export.
    dailyReport: false,
  },
  // Advice/Verify names no card (RetrivalRefNo, SystemTraceNo, Amount, OrderId): docs/psps/sadad.md#what-confirms-a-payment.
  namesCardAtVerify: false,
  settings: [
    {
      suffix: 'MERCHANT_ID',
      description: 'the merchant number Sadad gave (MerchantId)',
      testDefault: '000000140000001',
      secret: false,
    },
    // The simulator's key: base64 of "DARGAH-TEST-KEY-NOT-REAL", a test key and nothing else.
    {
      suffix: 'KEY',
      description: "the terminal's key Sadad gave (base64 of 24 bytes): it signs every call and is never sent",
      testDefault: 'REFSR0FILVRFU1QtS0VZLU5PVC1SRUFM',
      secret: true,
      // sadadKey (mapping.ts) refuses anything but base64 of 24 bytes: hex of 32 is no Triple-DES key.
      make: { shape: 'base64 of 24 bytes (a Triple-DES key), never sent', command: 'openssl rand -base64 24' },
    },
  ],
  liveUrlExample: 'https://sadad.shaparak.ir/VPG',
  // 900 s: Sadad's own 15 minutes for an unverified payment.
  simulator: { port: 3103, terminalId: '24000615', autoReverseSeconds: 900 },
} as const satisfies PspProfile;
