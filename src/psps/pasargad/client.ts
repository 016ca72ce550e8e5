/**
 * The Pasargad connector: PEP's (Pasargad Electronic Payment's) current REST IPG, the "Dorsa" API
 * (docs/psps/pasargad.md). The same client speaks to the bank simulator run with
 * BANK_SIM_PROTOCOL=pasargad (test mode) and to PEP (live mode). Every message is held against the
 * conformance corpus (test/fixtures/psps/pasargad/), which is what PEP's documents and public
 * integrations show of PEP, not what our simulator says.
 *
 *   auth     POST {base}/token/getToken {username, password} → {resultCode, token, …}   (before each operation)
 *   token    POST {base}/api/payment/purchase {invoice, invoiceDate, amount, callbackApi, serviceCode 8,
 *            serviceType PURCHASE, terminalNumber} → {resultCode, data {urlId, url}}
 *   page     GET  data.url                                   (the customer's browser)
 *   return   GET  {callbackApi}?invoiceId&status&referenceNumber&trackId (mapping.ts)
 *   confirm  POST {base}/api/payment/payment-inquiry {invoiceId} → {resultCode, data {status, amount,
 *            cardNumber, invoice, url (the urlId), referenceNumber, …}}: PEP's word, nothing confirmed
 *   settle   the inquiry (for the urlId), then POST {base}/api/payment/confirm-transactions {invoice, urlId}
 *            → {resultCode, data {invoice, referenceNumber, amount, …}}; 13428 or 13029 confirmed before
 *   reverse  the inquiry, then POST {base}/api/payment/reverse-transactions {invoice, urlId} → {resultCode}
 *
 * confirm-transactions is final (PEP's usage guide: it can no longer be reversed), so it is asked only at
 * the merchant's verify (capture `merchant_verify`: the client's `settle`), never at the customer's
 * return, where the inquiry, which changes nothing at PEP, says whether PEP holds the payment; a payment
 * nobody verifies is given back by PEP itself. The return carries no urlId, so each call that needs it
 * finds it by the inquiry, as shetabit/multipay does. Every call after the token carries the bearer token
 * of a getToken asked for that operation; every call has a timeout and carries our operation key in the
 * `X-Operation-Key` header (token:<payment>, confirm:<payment>, settle:<payment>, reverse:<payment>),
 * which PEP ignores and the simulator keeps. The password is in the getToken body only: in no error, log
 * or result; the bearer token neither.
 */
import {
  BankRefusalError,
  BankUnavailableError,
  type BankOperationAnswer,
  type BankToken,
  type Confirmation,
  type PspCapabilities,
  type PspClient,
} from '../psp-client.ts';
import {
  inquiryConfirmation,
  isOurSale,
  PASARGAD_CODE,
  PASARGAD_URL_ID,
  pasargadCodeMeaning,
  pasargadInvoiceDate,
  pasargadOrderId,
  readConfirmAnswer,
  readInquiry,
  wholeNumber,
  type InquiryReading,
} from './mapping.ts';
import { PASARGAD_PROFILE } from './profile.ts';
import { postJsonObject } from '../transport.ts';

export interface PasargadEndpoint {
  /** The terminal's base address as PEP gave it (`https://pep.shaparak.ir/dorsa1`), no trailing slash. */
  baseUrl: string;
  /**
   * Where customers' browsers reach the page, when not at the base address the purchase's url names (the
   * simulator behind compose: the gateway calls it by its service name, browsers on the host).
   */
  pageBaseUrl?: string;
  terminalId: string;
  /** The user name PEP gave (getToken). */
  userName: string;
  /** The password PEP gave (getToken): sent only there. */
  password: string;
  timeoutMs: number;
}

/** The API's paths under the base address (the corpus's http.path). */
export const PASARGAD_AUTH_PATH = '/token/getToken';
export const PASARGAD_PURCHASE_PATH = '/api/payment/purchase';
export const PASARGAD_INQUIRY_PATH = '/api/payment/payment-inquiry';
export const PASARGAD_CONFIRM_PATH = '/api/payment/confirm-transactions';
export const PASARGAD_REVERSE_PATH = '/api/payment/reverse-transactions';

/** A PSP that speaks PEP's REST IPG: the bank simulator in test mode, PEP in live mode. */
export class PasargadClient implements PspClient {
  readonly name = 'pasargad' as const;
  /** What PEP offers, as its references show it (docs/psps/pasargad.md#capabilities). */
  readonly capabilities: PspCapabilities = PASARGAD_PROFILE.capabilities;
  readonly endpoint: PasargadEndpoint;

  constructor(endpoint: PasargadEndpoint) {
    this.endpoint = endpoint;
  }

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  /**
   * The purchase, its fields in PEP's documented order: the invoice is the payment's numeric order id (a
   * retry after a lost answer is refused by PEP as a repeated invoice, 13003, and the payment fails its
   * token or goes to the next PSP of its route). The page is the answer's url, as PEP gave it, or at
   * PAGE_URL where that is set and the url is under the base address.
   */
  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    const key = `token:${paymentId}`;
    const bearer = await this.bearer(key);
    const answer = await this.call(
      PASARGAD_PURCHASE_PATH,
      key,
      {
        invoice: pasargadOrderId(paymentId),
        invoiceDate: pasargadInvoiceDate(),
        amount,
        callbackApi: redirectUrl,
        serviceCode: 8,
        serviceType: 'PURCHASE',
        terminalNumber: Number(this.endpoint.terminalId),
      },
      bearer,
    );
    const code = wholeNumber(answer.resultCode);
    const data = (typeof answer.data === 'object' && answer.data !== null ? answer.data : {}) as Record<
      string,
      unknown
    >;
    const urlId = typeof data.urlId === 'string' ? data.urlId : '';
    const url = typeof data.url === 'string' ? this.pageUrl(data.url) : undefined;
    if (code !== PASARGAD_CODE.OK || !PASARGAD_URL_ID.test(urlId) || url === undefined) {
      throw new BankRefusalError(
        Number.isNaN(code) || code === PASARGAD_CODE.OK ? PASARGAD_CODE.FAILED : code,
        `the bank refused the purchase: ${this.description(answer, code)}`,
      );
    }
    return { token: urlId, url, method: 'GET', fields: {} };
  }

  /**
   * The customer's paid return, asked of PEP by payment-inquiry: PEP's word that it holds the payment
   * (paid and not confirmed, or confirmed), with its reference, amount and masked card, and nothing
   * confirmed there (inquiryConfirmation). `refNum` is the return's referenceNumber, which the workflow
   * holds the answer's to; `amount` the charged amount, which it holds the answer's amount to.
   */
  async confirm(paymentId: string, _refNum: string, _amount: number): Promise<Confirmation> {
    const reading = await this.inquiry(paymentId, `confirm:${paymentId}`);
    return inquiryConfirmation(reading, paymentId, this.terminalId);
  }

  /**
   * confirm-transactions at the merchant's verify: PEP's capture, final. The inquiry first, for the
   * urlId the confirm names (the return has none), held to the payment as recorded: its invoice, the
   * charged `amount` and the reference `refNum` the payment was paid with. Confirmed before (the inquiry's
   * 13029, or the confirm's 13428 or 13029: our own earlier call) is done; a confirm's answer is held to
   * the same invoice, amount and reference. Anything else is a BankRefusalError: PEP's code (13033, given
   * back by PEP: nobody confirmed it in time), or NOT_THIS_PAYMENT for an answer naming another sale.
   */
  async settle(paymentId: string, refNum: string, amount: number): Promise<BankOperationAnswer> {
    const key = `settle:${paymentId}`;
    const bearer = await this.bearer(key);
    const reading = await this.inquiry(paymentId, key, bearer);
    const sale = this.heldSale(reading, paymentId, refNum, amount, 'verify');
    if (sale.standing === 'confirmed') return { ref_num: refNum, result_code: PASARGAD_CODE.CONFIRMED };
    const answer = readConfirmAnswer(
      await this.call(PASARGAD_CONFIRM_PATH, key, { invoice: sale.invoice, urlId: sale.urlId }, bearer),
    );
    if (answer.result === 'confirmed_before') return { ref_num: refNum, result_code: answer.code };
    if (answer.result === 'refused')
      throw new BankRefusalError(answer.code, `the bank refused the verify: ${answer.description}`);
    if (answer.invoice !== sale.invoice || answer.amount !== amount || answer.referenceNumber !== refNum)
      throw new BankRefusalError(
        PASARGAD_CODE.NOT_THIS_PAYMENT,
        "the bank's confirmation names another amount, invoice or reference than the payment's",
      );
    return { ref_num: refNum, result_code: PASARGAD_CODE.OK };
  }

  /**
   * reverse-transactions: the whole payment back to the card, for a sale not confirmed at PEP (a
   * confirmation the workflow refused); after confirm-transactions PEP reverses nothing (its usage guide),
   * and its refusal is a BankRefusalError. The inquiry first, for the urlId; a sale PEP already gave back
   * (13033, by the inquiry or the reversal's answer) is reversed before.
   */
  async reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    const key = `reverse:${paymentId}`;
    const bearer = await this.bearer(key);
    const reading = await this.inquiry(paymentId, key, bearer);
    if (reading.standing === 'refused')
      throw new BankRefusalError(reading.code, `the bank refused the reversal: ${reading.description}`);
    if (reading.status === PASARGAD_CODE.REVERSED) return { ref_num: refNum, result_code: PASARGAD_CODE.REVERSED };
    if (reading.invoice !== pasargadOrderId(paymentId) || !PASARGAD_URL_ID.test(reading.urlId))
      throw new BankRefusalError(PASARGAD_CODE.NOT_THIS_PAYMENT, "the bank's inquiry names another sale");
    const answer = await this.call(
      PASARGAD_REVERSE_PATH,
      key,
      { invoice: reading.invoice, urlId: reading.urlId },
      bearer,
    );
    const code = wholeNumber(answer.resultCode);
    if (code === PASARGAD_CODE.OK || code === PASARGAD_CODE.REVERSED) return { ref_num: refNum, result_code: code };
    throw new BankRefusalError(
      Number.isNaN(code) ? PASARGAD_CODE.FAILED : code,
      `the bank refused the reversal: ${this.description(answer, code)}`,
    );
  }

  /** The inquiry's reading held to the payment as recorded, for a verify: a sale PEP does not hold as ours is a BankRefusalError. */
  private heldSale(reading: InquiryReading, paymentId: string, refNum: string, amount: number, what: string) {
    if (reading.standing === 'refused')
      throw new BankRefusalError(reading.code, `the bank refused the ${what}: ${reading.description}`);
    if (reading.standing === 'undecided')
      throw new BankUnavailableError(`the bank does not know the payment's status yet (${what}:${paymentId})`);
    if (reading.standing === 'not_paid')
      throw new BankRefusalError(
        reading.status,
        `the bank refused the ${what}: ${pasargadCodeMeaning(reading.status)}`,
      );
    if (!isOurSale(reading, paymentId, amount, refNum))
      throw new BankRefusalError(
        PASARGAD_CODE.NOT_THIS_PAYMENT,
        "the bank's inquiry names another amount, invoice or reference than the payment's",
      );
    return reading;
  }

  /** payment-inquiry by the payment's invoice, with `bearer` or a new one. */
  private async inquiry(paymentId: string, key: string, bearer?: string): Promise<InquiryReading> {
    const token = bearer ?? (await this.bearer(key));
    return readInquiry(await this.call(PASARGAD_INQUIRY_PATH, key, { invoiceId: pasargadOrderId(paymentId) }, token));
  }

  /** A bearer token for one operation (getToken): a refusal is a BankRefusalError; the token is never in an error. */
  private async bearer(key: string): Promise<string> {
    const answer = await this.call(PASARGAD_AUTH_PATH, key, {
      username: this.endpoint.userName,
      password: this.endpoint.password,
    });
    const code = wholeNumber(answer.resultCode);
    const token = typeof answer.token === 'string' ? answer.token.trim() : '';
    if (code !== PASARGAD_CODE.OK || token === '' || /\s/.test(token))
      throw new BankRefusalError(
        Number.isNaN(code) || code === PASARGAD_CODE.OK ? PASARGAD_CODE.FAILED : code,
        `the bank refused the terminal's user name and password: ${this.description(answer, code)}`,
      );
    return token;
  }

  /** The page's address as customers reach it: PEP's url, moved under PAGE_URL when that is set and the url is under the base address. */
  private pageUrl(url: string): string | undefined {
    let page: URL;
    try {
      page = new URL(url);
    } catch {
      return undefined;
    }
    if (page.protocol !== 'https:' && page.protocol !== 'http:') return undefined;
    const { baseUrl, pageBaseUrl } = this.endpoint;
    if (pageBaseUrl !== undefined && url.startsWith(`${baseUrl}/`)) return `${pageBaseUrl}${url.slice(baseUrl.length)}`;
    return page.href;
  }

  private description(answer: Record<string, unknown>, code: number): string {
    return typeof answer.resultMsg === 'string' && answer.resultMsg !== ''
      ? answer.resultMsg
      : pasargadCodeMeaning(Number.isNaN(code) ? PASARGAD_CODE.FAILED : code);
  }

  /**
   * One JSON POST under the timeout (transport.ts), with the bearer token where given: its answer's
   * object, which must carry a resultCode. A 401 (the token refused: the next try gets another) is
   * BankUnavailableError, as a 5xx is.
   */
  private call(
    path: string,
    operationKey: string,
    body: Record<string, unknown>,
    bearer?: string,
  ): Promise<Record<string, unknown>> {
    return postJsonObject(
      {
        baseUrl: this.endpoint.baseUrl,
        path,
        operationKey,
        timeoutMs: this.endpoint.timeoutMs,
        body,
        ...(bearer === undefined ? {} : { headers: { authorization: `Bearer ${bearer}` } }),
        // The password travels in getToken's body.
        secrets: [this.endpoint.password],
        unavailableStatuses: [401],
      },
      'resultCode',
    );
  }
}
