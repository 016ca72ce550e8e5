/** IranKish (Iran Kish Credit Card Company) as plain data: its capabilities as its references show them (docs/psps/irankish.md#capabilities), its settings and its simulator. */
import type { PspProfile } from '../profile.ts';

export const IRANKISH_PROFILE = {
  name: 'irankish',
  title: 'IranKish (Iran Kish Credit Card Company)',
  persianTitle: 'ایران کیش (شرکت کارت اعتباری ایران کیش)',
  protocol: 'REST (JSON)',
  capabilities: {
    // confirmation/purchase is the capture: no source settles after it (shetabit/multipay, go-irankish-api,
    // irankish-laravel-gateway, mrjavadseydi/irankish-laravel complete the order on its "00").
    capture: 'verify',
    // confirmation/reversePurchase exists (irankish-laravel-gateway, mrjavadseydi/irankish-laravel, testmaster's
    // ReverseJsonResult) but no reference gives its window in minutes: one says "before settlement", another "a
    // purchase that was not confirmed yet". Dargah assumes 50, as at Parsian (docs/psps/irankish.md#what-no-reference-settles).
    reversalWindowMs: 50 * 60_000,
    // A purchase nobody confirms is reversed by IranKish itself (mrjavadseydi/irankish-laravel), after a time no
    // reference gives: Dargah assumes Behpardakht's 20 minutes, the shorter of the two PSPs whose references say.
    unverifiedReversalMs: 20 * 60_000,
    // No refund call in any reference: the reversal (confirmation/reversePurchase) gives back the whole payment.
    refund: 'none',
    // inquiry/single is shown (go-irankish-api, irankish-laravel-gateway, mrjavadseydi/irankish-laravel), but its
    // answer's shape by one source only; not used yet (docs/psps/irankish.md#what-no-reference-settles).
    inquiry: false,
    // No reference documents the layout of the merchant panel's export.
    dailyReport: false,
  },
  // The confirmation's result names no card in any source (RRN, STAN, amount, requestId, terminalId, tokenIdentity);
  // the return's sha256OfPan and maskedPan are never trusted (docs/psps/irankish.md#the-card-that-paid).
  namesCardAtVerify: false,
  settings: [
    {
      suffix: 'ACCEPTOR_ID',
      description: 'the acceptor (merchant) number IranKish gave (acceptorId)',
      testDefault: '992180006082356',
      secret: false,
    },
    {
      suffix: 'PASSWORD',
      description:
        "the terminal's password (pass phrase) IranKish gave, hexadecimal: sealed in every token request's envelope, never sent",
      testDefault: '',
      secret: true,
    },
    // The simulator's own key pair's public half (its private half is in src/psps/irankish/simulator.ts): a test key and nothing else.
    {
      suffix: 'PUBLIC_KEY',
      description:
        "IranKish's RSA public key (PEM, or the base64 of its DER on one line): it seals the token request's envelope",
      testDefault:
        'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAjCJsR/rLCF9DctZgDqiSxIbmR3jQu0w8nZOsiGx+gFtZ1HFuupMe5P6LVpCEcCLzukelGtRmtoy6E9FmszbPmjEtNkYrzLN1Ts9KNK9WwtXjAt03RJ+yBZIe2d993slGRAwthdPFylRRRGAEJXvkN6+LtyWKtPLUimfRyoWiJz6uFKSQpYqAyGsI4xr8vvqMKEUOMdcL8AoWFlW2ha2XEMf5Pm7E3cXVTkRgGRzE2avCYUm+10qYUItNJvS43Dt8PE85dKqlH3Uwn/PppJppCRyF1lMPnPJEFm6hvE9HO/gIBjIpXLEz0LJDFQEIvBgWmw95Ho/tocEyiLKW6EsK8QIDAQAB',
      secret: false,
    },
  ],
  liveUrlExample: 'https://ikc.shaparak.ir',
  // 1200 s: the 20 minutes Dargah assumes for an unconfirmed purchase (above).
  simulator: { port: 3106, terminalId: '08012345', autoReverseSeconds: 1200 },
} as const satisfies PspProfile;
