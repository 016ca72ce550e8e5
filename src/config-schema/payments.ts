/**
 * The settings of payments and the PSPs that take them (src/config-schema.ts): the verify window and
 * the page's and refunds' windows, the bank's answers and timeout, each PSP terminal's circuit
 * breaker, every registered PSP's own settings (generated from its profile, src/psps/profiles.ts), the
 * identity provider a refund to a card's account asks, and the amounts, fees and idempotency. The one
 * area that reads the PSP profiles: their windows and settings are declared there, and only described here.
 */
import { Type, type TString } from '@sinclair/typebox';
import { PSP_PROFILES, pspSettings, type PspSettingKey } from '../psps/profiles.ts';
import { Int } from './setting.ts';

/**
 * Each PSP's window of one kind, as its profile declares it (`sep 3000 s, mellat 10800 s`): the reversal
 * window after a verify of the PSPs that capture at their verify or at a separate settle, the time after
 * which an unverified payment is given back of those that verify only at the merchant's verify.
 */
function windowsOf(kind: 'verify' | 'merchant_verify'): string {
  return Object.values(PSP_PROFILES)
    .filter((profile) => (profile.capabilities.capture === 'merchant_verify') === (kind === 'merchant_verify'))
    .map(
      ({ name, capabilities }) =>
        `${name} ${(kind === 'merchant_verify' ? capabilities.unverifiedReversalMs : capabilities.reversalWindowMs) / 1000} s`,
    )
    .join(', ');
}

/**
 * The settings of every registered PSP in both modes (`SANDBOX_<PSP>_URL`, `<PSP>_BASE_URL`, …: their
 * names, defaults and descriptions are the profiles', pspSettings()), typed by name for the compiler.
 * SEP's were BANK_* and SANDBOX_BANK_*: config.ts still reads those as aliases.
 */
function pspSettingSchemas(): Record<PspSettingKey, TString> {
  return Object.fromEntries(
    pspSettings().map((s) => [s.name, Type.String({ default: s.default, description: s.description })]),
  ) as Record<PspSettingKey, TString>;
}

/** A payment's windows, the bank's answers and timeout, each PSP terminal's breaker, and every registered PSP's own settings. */
export const paymentBankSettings = {
  VERIFY_WINDOW_SECONDS: Int({
    default: 1800,
    minimum: 1,
    description: `time after payment in which verify must arrive; with BANK_PENDING_LIMIT_SECONDS, at most each configured PSP's reversal window (${windowsOf('verify')}), or the API and the worker refuse to start (docs/BANK.md#windows-from-the-psp); a PSP that verifies only at the merchant's verify and gives back unverified payments itself (${windowsOf('merchant_verify')}) takes only payments whose window ends 300 s before that, and is skipped by the route of any other`,
  }),
  PAYMENT_TTL_SECONDS: Int({ default: 900, minimum: 1, description: 'lifetime of the payment page (expires_at)' }),
  REFUND_WINDOW_SECONDS: Int({
    default: 15_552_000,
    minimum: 1,
    description: 'time after verify in which refunds are taken (180 days)',
  }),
  BANK_RECONFIRM_AFTER_SECONDS: Int({
    default: 10,
    minimum: 0,
    description:
      'how long a payment the bank answered "in progress" stays pending before the gateway asks the bank to confirm it again, in test and live mode alike (then at doubling intervals up to 5 minutes); was SANDBOX_DELAY_SECONDS, still read while this is unset (the simulator keeps SANDBOX_DELAY_SECONDS for its own "delay in verification")',
  }),
  BANK_PENDING_LIMIT_SECONDS: Int({
    default: 1200,
    minimum: 1,
    description:
      'how long a payment the bank keeps answering "in progress" stays pending before it fails with bank_unconfirmed (the bank is asked again after BANK_RECONFIRM_AFTER_SECONDS, then at doubling intervals up to 5 minutes)',
  }),
  BANK_TIMEOUT_MS: Int({
    default: 10_000,
    minimum: 100,
    maximum: 120_000,
    description: 'time the bank has to answer one call (token, confirm, settle, reverse, refund)',
  }),
  PSP_BREAKER_FAILURES: Int({
    default: 5,
    minimum: 1,
    maximum: 1000,
    description:
      "failed or timed-out token requests within PSP_BREAKER_WINDOW_SECONDS that open a PSP terminal's circuit breaker (docs/psps/routing.md)",
  }),
  PSP_BREAKER_WINDOW_SECONDS: Int({
    default: 60,
    minimum: 1,
    maximum: 86_400,
    description: 'the window in which PSP_BREAKER_FAILURES failures open the breaker',
  }),
  PSP_BREAKER_OPEN_SECONDS: Int({
    default: 30,
    minimum: 1,
    maximum: 86_400,
    description:
      'how long an open breaker keeps payments away from its PSP terminal before one probe is let through (half-open)',
  }),
  // Every PSP's settings in both modes, from the registry of profiles (src/psps/profiles.ts).
  ...pspSettingSchemas(),
};

/** The identity provider (docs/identity.md): a card's IBAN and owner, an IBAN's owner, for refunds paid to the card's account. */
export const identitySettings = {
  // The identity provider (docs/identity.md): a card's IBAN and owner, an IBAN's owner, for refunds paid to the card's account.
  IDENTITY_PROVIDER: Type.Union([Type.Literal('jibit')], {
    default: 'jibit',
    description:
      "the identity provider's API both modes speak (docs/identity.md): `jibit`, Jibit's identity service (its simulator in test mode)",
  }),
  IDENTITY_BASE_URL: Type.String({
    default: '',
    pattern: '^(https?://.*)?$',
    description:
      "live mode: the identity provider's base address (Jibit: https://napi.jibit.ir/ide); empty: live mode has no identity provider (refunds to a card's account cannot be made). API only: the refund-claim page asks it inside the customer's request",
  }),
  IDENTITY_API_KEY: Type.String({
    default: '',
    description: "live mode: the identity provider's API key (Jibit's apiKey); API only",
  }),
  IDENTITY_SECRET_KEY: Type.String({
    default: '',
    description: "live mode: the identity provider's secret key (Jibit's secretKey), a secret; API only",
  }),
  SANDBOX_IDENTITY_URL: Type.String({
    default: 'http://127.0.0.1:3120/ide',
    pattern: '^(https?://.*)?$',
    description:
      "test mode: the identity provider's simulator (`BANK_SIM_PROTOCOL=jibit-identity npm run bank-sim`; `npm start` runs it); empty: test mode has no identity provider",
  }),
  SANDBOX_IDENTITY_API_KEY: Type.String({
    default: 'dargah-identity-test-key',
    description: "test mode: the API key the identity provider's simulator takes (its BANK_SIM_API_KEY)",
  }),
  SANDBOX_IDENTITY_SECRET_KEY: Type.String({
    default: 'dargah-identity-test-secret',
    description: "test mode: the secret key the identity provider's simulator takes (its BANK_SIM_SECRET_KEY)",
  }),
  IDENTITY_TIMEOUT_MS: Int({
    default: 5_000,
    minimum: 100,
    maximum: 60_000,
    description:
      "time the identity provider has to answer one call (its token, a card's or an IBAN's inquiry); the customer's request waits for it",
  }),
};

/** The amounts a payment may have, the default fees, and how long Idempotency-Key records are kept. */
export const amountSettings = {
  AMOUNT_MIN: Int({ default: 10_000, minimum: 1, description: 'smallest payment amount in rials' }),
  AMOUNT_MAX: Int({
    default: 500_000_000,
    minimum: 1,
    description:
      "largest payment amount in rials, and the largest sum a customer is charged (amount + fee when the customer pays it); keep it at or below the PSP's per-transaction limit",
  }),
  FEE_BPS: Int({ default: 100, minimum: 0, maximum: 10_000, description: 'default fee in basis points of the amount' }),
  FEE_MIN: Int({ default: 1_000, minimum: 0, description: 'default minimum fee in rials' }),
  FEE_MAX: Int({ default: 400_000, minimum: 0, description: 'default maximum fee in rials' }),
  IDEMPOTENCY_TTL_SECONDS: Int({
    default: 86_400,
    minimum: 60,
    description: 'how long Idempotency-Key records are kept',
  }),
};
