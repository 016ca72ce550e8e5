/**
 * The identity provider's contract (docs/identity.md), as identity-provider.ts exports it: what a
 * connector answers and throws. A file of its own so that the connectors (jibit/client.ts) and the
 * factory (identity-provider.ts) import it without a cycle; code outside this folder imports
 * identity-provider.ts.
 */
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
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
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
