/** Sepehr (Bank Saderat) as plain data: its capabilities as its references show them (docs/psps/sepehr.md#capabilities), its settings and its simulator. */
import type { PspProfile } from '../profile.ts';

export const SEPEHR_PROFILE = {
  name: 'sepehr',
  title: 'Sepehr (Bank Saderat)',
  persianTitle: 'پرداخت الکترونیک سپهر (بانک صادرات)',
  protocol: 'REST (JSON)',
  capabilities: {
    // Advice is the verify, and final: no source settles after it (Parbad, shetabit/multipay, larapay, dpsoft,
    // php-monsters/shaparak complete the order on its Ok). Asked at the customer's return, as SEP's verify.
    capture: 'verify',
    // Rollback gives a payment back after its Advice (Parbad's refund, dpsoft's rollbackPayment, php-monsters'
    // refundTransaction), once Sepehr has enabled it for the merchant (dpsoft's README; -6 otherwise). No reference
    // says until when: Dargah assumes SEP's 50 minutes (docs/psps/sepehr.md#what-no-reference-settles).
    reversalWindowMs: 50 * 60_000,
    // "If you don't call verifyPayment(), after 30 min transaction rollback by system" (dpsoft's README).
    unverifiedReversalMs: 30 * 60_000,
    // No refund call in any reference: Parbad's "refund" of a Sepehr payment is the Rollback of the whole payment.
    refund: 'none',
    // No reference calls an inquiry.
    inquiry: false,
    // No reference documents the layout of the merchant panel's export.
    dailyReport: false,
  },
  // Advice answers Status, ReturnId (the amount) and Message: no card (docs/psps/sepehr.md#what-confirms-a-payment).
  namesCardAtVerify: false,
  // No credential besides the terminal: Sepehr admits a merchant's calls by its registered IP address (-2, -5).
  settings: [],
  liveUrlExample: 'https://sepehr.shaparak.ir:8081',
  // 1800 s: Sepehr's own 30 minutes for a payment nobody verified.
  simulator: { port: 3107, terminalId: '79492072', autoReverseSeconds: 1800 },
} as const satisfies PspProfile;
