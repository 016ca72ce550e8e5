/**
 * ZarinPal's Payman as plain data (docs/psps/zarinpal-payman.md): its name, titles and the simulator's
 * defaults. The simulator (simulator.ts) and the launcher read these, so test mode's address and the
 * simulator's port agree.
 */
export const ZARINPAL_PAYMAN_PROFILE = {
  name: 'zarinpal',
  title: 'ZarinPal Payman (direct debit)',
  titleFa: 'پرداخت مستقیم زرین‌پال',
  simulator: {
    port: 3130,
    /** The merchant id test mode sends and the simulator takes (a made-up UUID). */
    merchantId: '9a3c1e52-7d1b-4c0e-8f43-2b6d5a7e9c10',
  },
} as const;
