/**
 * What the gateway asks of a PSP (a Shaparak payment service provider's
 * internet payment gateway), whatever its protocol: the contract every PSP
 * connector implements and the bank activities speak (docs/BANK.md). Today
 * one connector, SEP's (sep.ts); a second protocol is another class of this
 * interface. Every operation carries our operation key (confirm:<payment>,
 * settle:<payment>, reverse:<payment>, refund:<refund>) so that the PSP does it
 * once however often the workflow retries.
 */

/** One PSP terminal, as the bank activities use it. */
export interface PspClient {
  /** Our terminal at this PSP: a confirmation that names another terminal pays nothing. */
  readonly terminalId: string;
  /** Asks the PSP for a token for `amount` rials of `paymentId`, whose customer comes back to `redirectUrl`. */
  requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken>;
  /** Where the customer's browser goes with a token. */
  pageUrl(token: string): string;
  /** Asks the PSP whether it holds the customer's payment `refNum` for `paymentId`, and confirms it. */
  confirm(paymentId: string, refNum: string): Promise<Confirmation>;
  /** Settles a confirmed payment at the PSP (at verify). */
  settle(paymentId: string, refNum: string): Promise<BankOperationAnswer>;
  /** Returns a confirmed, unsettled payment's whole amount to the customer. */
  reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer>;
  /** Returns `amount` of a settled payment to the customer, once per refund id. */
  refund(refNum: string, refundId: string, amount: number): Promise<BankOperationAnswer>;
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

export interface BankToken {
  token: string;
  /** Where the customer's browser goes with the token. */
  url: string;
}

/** What VerifyTransaction answers. */
export type Confirmation =
  | { result: 'confirmed'; ref_num: string; res_num: string; amount: number; terminal: string; rrn: string; card_pan: string }
  | { result: 'in_progress' }
  | { result: 'refused'; code: number; description: string };

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
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
