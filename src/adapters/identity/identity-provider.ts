/**
 * The identity provider: who owns a card, and whose an IBAN is (docs/identity.md). A refund of a
 * payment whose PSP has no refund call is paid to the account of the card that paid: the customer
 * types that card on the refund-claim page, and the gateway asks the provider for the card's IBAN
 * (Sheba) and owner; the operator asks it for the owner of an IBAN a person typed.
 *
 * Card numbers are secrets: no implementation logs one or puts one in an error's message (a card is
 * said masked, first 6 and last 4, where anything must be said). A card number never enters a
 * Temporal workflow's history: cardToIban is called inside the customer's request, by the API.
 */
import type { Config } from '../../config.ts';
import type { IdentityProvider } from './contract.ts';
import { JibitIdentityClient } from './jibit/client.ts';

export {
  IdentityRefusalError,
  IdentityUnavailableError,
  type CardAccount,
  type IbanAccount,
  type IdentityProvider,
} from './contract.ts';

/** What the providers are made of. */
export type IdentityConfig = Pick<
  Config,
  | 'IDENTITY_PROVIDER'
  | 'IDENTITY_BASE_URL'
  | 'IDENTITY_API_KEY'
  | 'IDENTITY_SECRET_KEY'
  | 'SANDBOX_IDENTITY_URL'
  | 'SANDBOX_IDENTITY_API_KEY'
  | 'SANDBOX_IDENTITY_SECRET_KEY'
  | 'IDENTITY_TIMEOUT_MS'
>;

/** Per mode: the simulator's client in test mode, the live provider's in live mode; undefined when not configured. */
export function identityProviders(config: IdentityConfig): { test?: IdentityProvider; live?: IdentityProvider } {
  const make = (baseUrl: string, apiKey: string, secretKey: string): IdentityProvider | undefined =>
    baseUrl === ''
      ? undefined
      : new JibitIdentityClient({
          baseUrl: baseUrl.replace(/\/+$/, ''),
          apiKey,
          secretKey,
          timeoutMs: config.IDENTITY_TIMEOUT_MS,
        });
  const test = make(config.SANDBOX_IDENTITY_URL, config.SANDBOX_IDENTITY_API_KEY, config.SANDBOX_IDENTITY_SECRET_KEY);
  const live = make(config.IDENTITY_BASE_URL, config.IDENTITY_API_KEY, config.IDENTITY_SECRET_KEY);
  return { ...(test === undefined ? {} : { test }), ...(live === undefined ? {} : { live }) };
}

const made = new WeakMap<IdentityConfig, { test?: IdentityProvider; live?: IdentityProvider }>();

/**
 * identityProviders of `config`, made once per configuration object: the API's routes call this with
 * their `deps.config` on each request and get the same clients (each keeps its provider token).
 */
export function identityProvidersFor(config: IdentityConfig): { test?: IdentityProvider; live?: IdentityProvider } {
  let providers = made.get(config);
  if (providers === undefined) {
    providers = identityProviders(config);
    made.set(config, providers);
  }
  return providers;
}
