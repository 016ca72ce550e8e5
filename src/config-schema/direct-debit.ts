/**
 * The settings of direct debit (src/config-schema.ts, docs/SUBSCRIPTIONS.md): ZarinPal's Payman, the
 * mandates' provider in both modes (live: its API and signing page; test: its simulator), and the
 * time it has to answer. Their own area: a deployment without direct debit leaves them all unset.
 */
import { Type } from '@sinclair/typebox';
import { Int } from './setting.ts';

/** ZarinPal's Payman in both modes, and the time it has to answer. */
export const directDebitSettings = {
  // Direct debit (docs/SUBSCRIPTIONS.md): ZarinPal's Payman, the mandates' provider in both modes.
  PAYMAN_BASE_URL: Type.String({
    default: '',
    pattern: '^(https?://.*)?$',
    description:
      "live mode: ZarinPal's API for direct debit (https://api.zarinpal.com); empty: live mode has no direct debit",
  }),
  PAYMAN_PAGE_URL: Type.String({
    default: 'https://www.zarinpal.com',
    pattern: '^https?://.*$',
    description: "live mode: where customers' browsers reach ZarinPal's signing page (/pg/StartPayman/…)",
  }),
  PAYMAN_MERCHANT_ID: Type.String({
    default: '',
    description:
      "live mode: the merchant's 36-character id at ZarinPal that direct debits are made under, a secret (ZarinPal's only credential); API and worker",
  }),
  SANDBOX_PAYMAN_URL: Type.String({
    default: 'http://127.0.0.1:3130',
    pattern: '^(https?://.*)?$',
    description:
      "test mode: ZarinPal Payman's simulator (src/direct-debit/providers/zarinpal/simulator-main.ts; `npm start` runs it); empty: test mode has no direct debit",
  }),
  SANDBOX_PAYMAN_MERCHANT_ID: Type.String({
    default: '9a3c1e52-7d1b-4c0e-8f43-2b6d5a7e9c10',
    description: 'test mode: the merchant id the Payman simulator takes (its BANK_SIM_MERCHANT_ID)',
  }),
  DIRECT_DEBIT_TIMEOUT_MS: Int({
    default: 10_000,
    minimum: 100,
    maximum: 60_000,
    description: 'time the direct debit provider has to answer one call (a mandate request, a signature, a debit)',
  }),
};
