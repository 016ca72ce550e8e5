/**
 * What the gateway asks of a PSP (a Shaparak payment service provider's
 * internet payment gateway), whatever its protocol: the contract every PSP
 * connector implements and the bank activities speak (docs/BANK.md,
 * docs/psps/). One folder a connector (its profile, client, message mapping and
 * index.ts, the PspConnector of connector.ts), listed once in registry.ts:
 * sep/ (SEP's REST IPG) and mellat/ (Behpardakht Mellat's SOAP IPG); how to
 * add another is in docs/psps/README.md. Every operation carries our operation key (confirm:<payment>,
 * settle:<payment>, reverse:<payment>, refund:<refund>) so that the PSP does it
 * once however often the workflow retries.
 */

import type { BankReportLine } from '../domain/bank-reconciliation.ts';
import type { BankCallback } from '../domain/payment-workflow.ts';

import type { PspCapabilities } from './profile.ts';

export type { BankReportLine, PspCapabilities };

/** The PSPs Dargah has a connector for: the registry of profiles (profiles.ts). */
export { PSP_NAMES, type PspName } from './profiles.ts';
import type { PspName } from './profiles.ts';

/** One PSP terminal, as the bank activities use it. */
export interface PspClient {
  /** Which PSP's protocol this client speaks. */
  readonly name: PspName;
  /** What the PSP offers (its connector's declaration, the same for every terminal of that PSP). */
  readonly capabilities: PspCapabilities;
  /** Our terminal at this PSP: a confirmation that names another terminal pays nothing. */
  readonly terminalId: string;
  /** Asks the PSP for a token for `amount` rials of `paymentId`, whose customer comes back to `redirectUrl`. */
  requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken>;
  /**
   * Asks the PSP whether it holds the customer's payment `refNum` for `paymentId`, and confirms it
   * (the PSP's verify). `amount` is the charged amount recorded for the payment, the one its token was
   * asked for: a PSP whose verify answers a result code alone (Mellat) confirms the sale it bound to
   * that amount at the token.
   */
  confirm(paymentId: string, refNum: string, amount: number): Promise<Confirmation>;
  /** Returns a confirmed, uncaptured (or, where capture is at verify, still reversible) payment's whole amount to the customer. */
  reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer>;
  /**
   * Asks the PSP what became of `paymentId`; changes nothing there. `callback` is what the customer's
   * return carried (its reference and token), for a PSP that finds a transaction by them. Present
   * only where `capabilities.inquiry`.
   */
  inquire?(paymentId: string, callback: Pick<BankCallback, 'ref_num' | 'token'>): Promise<Inquiry>;
  /**
   * Captures a confirmed payment at the PSP (at the merchant's verify). Present only where
   * `capabilities.capture` is `settle` or `merchant_verify` (there it is the PSP's verify, asked at the
   * merchant's verify and not at the return: Sadad's). `amount` is the charged amount recorded for the
   * payment: a PSP whose capture is its verify holds that verify's answer to it.
   */
  settle?(paymentId: string, refNum: string, amount: number): Promise<BankOperationAnswer>;
  /**
   * Returns `amount` of the captured payment `paymentId` (PSP reference `refNum`) to the customer,
   * once per `refundId`. Present only where `capabilities.refund` is `partial`.
   */
  refund?(paymentId: string, refNum: string, refundId: string, amount: number): Promise<BankOperationAnswer>;
  // No daily report call: no reference shows one at any PSP. A report an operator downloads from the
  // PSP's panel is read by a documented layout (reports.ts), where one exists.
}

export interface BankEndpoint {
  /** Origin (and path prefix) of the PSP's server-to-server calls, no trailing slash. */
  baseUrl: string;
  /** Origin (and path prefix) of the PSP's payment page as the customer's browser reaches it; default baseUrl. */
  pageBaseUrl?: string;
  terminalId: string;
  /** Sent with server-to-server calls when the PSP wants one; '' when not. */
  password: string;
  timeoutMs: number;
}

/**
 * The PSP's token for a payment and the customer's way to its page: a GET of `url` (SEP: the
 * token in the query, no fields) or a form POST of `fields` to `url` (Mellat: RefId).
 */
export interface BankToken {
  token: string;
  url: string;
  method: 'GET' | 'POST';
  fields: Record<string, string>;
}

/**
 * What the PSP's verify answers. Either the bank's own detail of the transaction it verified (SEP's
 * TransactionDetail: reference, amount, terminal, RRN, masked card; `res_num` null, since it names
 * no ResNum: the RefNum the verify was asked for identifies the transaction), or, for a protocol
 * whose verify answers a result code alone (`basis: 'result_code'`, Behpardakht Mellat's), the
 * transaction the call named, which the code confirms: no RRN and no card, which that protocol's
 * verify does not give (docs/psps/mellat.md). The workflow judges either (isGenuineConfirmation).
 * `card_sha256` is SEP's HashedPan (the SHA-256 of the full card): the bank activity holds it against
 * the payment's allowed cards and never hands it on to the workflow.
 */
export type Confirmation =
  | {
      result: 'confirmed';
      ref_num: string;
      res_num: string | null;
      amount: number;
      terminal: string;
      rrn: string;
      card_pan: string;
      card_sha256?: string;
    }
  | {
      result: 'confirmed';
      basis: 'result_code';
      ref_num: string;
      res_num: string;
      amount: number;
      terminal: string;
      rrn: null;
      card_pan: null;
    }
  | { result: 'in_progress' }
  /**
   * `standing: 'canceled'`: the PSP holds no payment of the customer's return, and its return is the
   * only word on the outcome (Asan Pardakht's, which carries none: docs/psps/asanpardakht.md#the-page-and-the-return):
   * the customer left the PSP's page without paying, and a created payment ends canceled by the customer.
   */
  | { result: 'refused'; code: number; description: string; standing?: 'canceled' };

/**
 * The PSP's answer to an inquiry: the customer paid (and it was not reversed), declined, canceled
 * at its page, or `open`: nothing decided yet, reversed, or not known to the PSP.
 */
export type Inquiry = { standing: 'succeeded' | 'failed' | 'canceled' | 'open' };

export interface BankOperationAnswer {
  ref_num: string;
  result_code: number;
}

/** The bank could not be reached or answered with a server error: worth another try. */
export class BankUnavailableError extends Error {
  override name = 'BankUnavailableError';
}

/** The bank answered, and refused: another try gives the same answer. */
export class BankRefusalError extends Error {
  override name = 'BankRefusalError';
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** A PSP's daily report that is not what its format says (a file an operator imports, or the PSP's answer): nothing of it is used. */
export class BankReportInvalid extends Error {
  override name = 'BankReportInvalid';
}
