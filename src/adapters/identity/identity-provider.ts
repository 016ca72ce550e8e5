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

export interface CardAccount {
  /** The card's account's Sheba IBAN: IR and 24 digits. */
  iban: string;
  owner_name: string;
  /** The bank's name or code as the provider gives it; null when it gives none. */
  bank: string | null;
}

export interface IbanAccount {
  owner_name: string;
  bank: string | null;
  /** Whether the provider says the account is active; null when it does not say. */
  active: boolean | null;
}

export interface IdentityProvider {
  readonly name: string;
  /** The IBAN and owner of a card number (digits only, 16). Throws IdentityRefusalError (card unknown, invalid) or IdentityUnavailableError (no answer/5xx/timeout). */
  cardToIban(cardNumber: string): Promise<CardAccount>;
  /** The owner of a Sheba IBAN (IR + 24 digits). Same errors. */
  ibanOwner(iban: string): Promise<IbanAccount>;
}

/** The provider refused the inquiry (unknown card or IBAN, invalid input): final, not retried. */
export class IdentityRefusalError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'IdentityRefusalError';
  }
}

/** No answer, a timeout, a 5xx: the provider is unavailable; the caller may try again later. */
export class IdentityUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdentityUnavailableError';
  }
}

/** Per mode: the simulator's client in test mode, the live provider's in live mode; undefined when not configured. */
export function identityProviders(config: Config): { test?: IdentityProvider; live?: IdentityProvider } {
  // Placeholder until the connector lands: nothing configured.
  void config;
  return {};
}
