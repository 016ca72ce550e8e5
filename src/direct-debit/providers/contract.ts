/**
 * A direct debit provider's contract (docs/SUBSCRIPTIONS.md#providers): what a connector answers and
 * throws, the same for every provider, so that mandates, debits and subscriptions never name one.
 * ZarinPal's Payman (zarinpal/) is the first; a second (BazaarPay's direct pay) is a folder beside it
 * and a line in registry.ts, and the mandate API does not change: every provider takes a mandate's
 * limits, sends the customer to a page of its own to sign, and debits within them.
 */

/** What the customer signs: the mandate's limits and where the provider sends the customer back. */
export interface MandateRequest {
  mandateId: string;
  /** 09 and nine digits. */
  mobile: string;
  /** Ten digits, or null when the merchant gave none (sent only where the provider takes one). */
  nationalCode: string | null;
  /** The largest single debit, in rials. */
  maxAmount: number;
  maxDailyCount: number;
  maxMonthlyCount: number;
  expiresAt: Date;
  /** Where the provider's page sends the customer back (Dargah's return route of this mandate). */
  returnUrl: string;
}

/** A bank the customer may sign the mandate at, as the provider lists them. */
export interface ProviderBank {
  code: string;
  name: string;
  /** What the bank takes in one day, in rials; null when the provider does not say. */
  maxDailyAmount: number | null;
  /** How many debits the bank takes in one day; null: no limit of the bank's. */
  maxDailyCount: number | null;
}

/** The customer's return from the provider's page, as read from its query. */
export interface MandateReturn {
  authority: string;
  signed: boolean;
}

/** A debit the provider made. */
export interface ProviderDebit {
  /** The provider's reference of the transaction. */
  reference: string;
  /** The amount the provider says it took, in rials. */
  amount: number;
}

export interface DirectDebitProvider {
  readonly name: string;
  /** Registers the mandate at the provider, before the customer signs it: the provider's authority. */
  requestMandate(request: MandateRequest): Promise<{ authority: string }>;
  /** The banks the customer may sign at. */
  banks(): Promise<ProviderBank[]>;
  /** The provider's page where the customer signs the mandate `authority` at `bankCode`. */
  signingPageUrl(authority: string, bankCode: string): string;
  /** The customer's return, or undefined when the query is not one. */
  parseReturn(query: Record<string, string>): MandateReturn | undefined;
  /** After a signed return: the mandate's secret (the provider's signature), which every debit carries. */
  signature(authority: string, mandateId: string): Promise<string>;
  /**
   * The debit's first step: the provider's own reference of the transaction to come, asked before any
   * money moves, so the debit's one charge is named before it is made (a retry reuses it).
   */
  prepareDebit(input: { debitId: string; amount: number; mobile: string; returnUrl: string }): Promise<{
    authority: string;
  }>;
  /** Takes the money of the prepared transaction `authority` under the mandate's `signature`. */
  debit(input: { debitId: string; authority: string; signature: string; amount: number }): Promise<ProviderDebit>;
  /** Ends the mandate at the provider. */
  cancel(signature: string, mandateId: string): Promise<void>;
}

/** The provider refused (a validation, a contract not active, a limit of the bank's): final, not retried. */
export class ProviderRefusalError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
    this.name = 'ProviderRefusalError';
  }
}

/** No answer, a timeout, a 5xx or an answer of no known shape: the caller may try again. */
export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}
