/**
 * Pasargad Electronic Payment (PEP) as plain data: its capabilities as its references show them
 * (docs/psps/pasargad.md#capabilities), its settings and its simulator. The current REST ("Dorsa") API:
 * a bearer token for a user name and password, then purchase, payment-inquiry, confirm-transactions and
 * reverse-transactions; not the retired RSA-signed API.
 */
import type { PspProfile } from '../profile.ts';

export const PASARGAD_PROFILE = {
  name: 'pasargad',
  title: 'Pasargad (PEP, Pasargad Electronic Payment)',
  persianTitle: 'پرداخت الکترونیک پاسارگاد (پپ)',
  protocol: 'REST (JSON)',
  capabilities: {
    // confirm-transactions is final: PEP's usage guide (step 9) calls it the way to make a transaction final
    // at once, "so that it can no longer be reversed", and its api-reference has the amount paid to the
    // merchant in the Shaparak cycle. Dargah asks it only at the merchant's verify, never at the return
    // (where it asks payment-inquiry, which changes nothing), as it does Sadad's final verify: a payment
    // nobody verifies is given back by PEP itself (docs/psps/pasargad.md#why-the-confirm-waits-for-the-merchant).
    capture: 'merchant_verify',
    // After confirm-transactions no reversal (PEP's usage guide, step 9): nothing is reversible after the verify.
    reversalWindowMs: 0,
    // PEP gives back a payment nobody verifies: "25 minutes by default", per the merchant's contract (PEP's
    // usage guide, step 7); iran-payment-laravel's notes say 10 minutes. The shorter: a verify window that
    // ends before 10 minutes is met either way (docs/psps/pasargad.md#capabilities).
    unverifiedReversalMs: 10 * 60_000,
    // No refund call: reverse-transactions returns the whole payment (and not after the confirm); no source
    // shows a partial refund of this API.
    refund: 'none',
    // payment-inquiry is called, but only to read a paid return and to find a payment's urlId: no source shows
    // the status of a failed or canceled transaction, which is what the workflow asks an inquiry for.
    inquiry: false,
    // No reference documents the layout of the merchant panel's export.
    dailyReport: false,
  },
  // The inquiry and confirm answers name the card masked and by a hash no source says how it is made.
  namesCardAtVerify: false,
  settings: [
    {
      suffix: 'USERNAME',
      description: 'the user name PEP gave with the terminal (token/getToken)',
      testDefault: 'dargah-test',
      secret: false,
    },
    {
      suffix: 'PASSWORD',
      description:
        'the password PEP gave with the terminal (token/getToken): it is sent only for a token, never logged',
      testDefault: '',
      secret: true,
    },
  ],
  // PEP gives each terminal its base address, /dorsa1 or /dorsa2 (pep-ipg/Dorsa-IPG-pasargad's README).
  liveUrlExample: 'https://pep.shaparak.ir/dorsa1',
  // 600 s: the shorter of the references' times for an unconfirmed payment (above).
  simulator: { port: 3105, terminalId: '95908673', autoReverseSeconds: 600 },
} as const satisfies PspProfile;
