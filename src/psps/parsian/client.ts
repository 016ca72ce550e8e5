/**
 * The Parsian connector: PEC's internet payment gateway (Parsian E-Commerce, "NewIPG"), three SOAP
 * web services (docs/psps/parsian.md), spoken with the `soap` package from each service's own WSDL.
 * The same client speaks to the bank simulator run with BANK_SIM_PROTOCOL=parsian (test mode) and to
 * PEC (live mode). Every message is held against the conformance corpus (test/fixtures/psps/parsian/),
 * which is what public integrations and PEC's own document show, not what our simulator says.
 *
 *   token   {url}/NewIPGServices/Sale/SaleService.asmx        SalePaymentRequest(requestData: LoginAccount, Amount,
 *           OrderId, CallBackUrl, AdditionalData) → SalePaymentRequestResult { Token, Message, Status }
 *   page    GET {page}/NewIPG/?Token=…   (the customer's browser)
 *   return  POST to CallBackUrl: Token, status, OrderId, TerminalNo, RRN, HashCardNumber, Amount
 *   confirm {url}/NewIPGServices/Confirm/ConfirmService.asmx  ConfirmPayment(requestData: LoginAccount, Token)
 *           → ConfirmPaymentResult { Status, CardNumberMasked, RRN, Token }   (-1533: confirmed before)
 *   reverse {url}/NewIPGServices/Reverse/ReversalService.asmx ReversalRequest(requestData: LoginAccount, Token)
 *           → ReversalRequestResult { Status, Message, Token }                (-1551: reversed before)
 *
 * ConfirmPayment is final: PEC has no settle. No reference shows a refund, an inquiry or a daily
 * report call: there are none here. PEC finds a transaction by its Token; the terminal is the one the
 * PIN (LoginAccount) authenticates, with our server's IP address (PEC's document). Every call has a
 * timeout and carries our operation key in the `X-Operation-Key` HTTP header (token:<payment>,
 * confirm:<payment>, reverse:<payment>), which PEC ignores and the simulator keeps. The PIN travels in
 * the SOAP body only, never in an error, a log or an activity's result.
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
  answerStatus,
  answerText,
  confirmedMaskedCard,
  confirmedRrn,
  PARSIAN_STATUS,
  parsianOrderId,
  parsianStatusMeaning,
  reversalDone,
} from './mapping.ts';
import { PARSIAN_PROFILE } from './profile.ts';
import { SoapService } from '../transport.ts';

export interface ParsianEndpoint {
  /** Origin (and path prefix) of the services, no trailing slash: {baseUrl}/NewIPGServices/…/…Service.asmx. */
  baseUrl: string;
  /** Origin of the payment page as customers' browsers reach it; default baseUrl. */
  pageBaseUrl?: string;
  /** Our terminal at PEC: the return's TerminalNo must name it. PEC's calls never carry it (the PIN names the terminal). */
  terminalId: string;
  /** The terminal's PIN, sent as LoginAccount. */
  pin: string;
  timeoutMs: number;
}

/** The services' paths and the page's, PEC's own (PEC's IPG document; shetabit/multipay, Parbad). */
export const PARSIAN_SALE_PATH = '/NewIPGServices/Sale/SaleService.asmx';
export const PARSIAN_CONFIRM_PATH = '/NewIPGServices/Confirm/ConfirmService.asmx';
export const PARSIAN_REVERSAL_PATH = '/NewIPGServices/Reverse/ReversalService.asmx';
export const PARSIAN_PAGE_PATH = '/NewIPG/';

type ServicePath = typeof PARSIAN_SALE_PATH | typeof PARSIAN_CONFIRM_PATH | typeof PARSIAN_REVERSAL_PATH;

/** PEC's longs and shorts kept as the text they are: a Token or an RRN past 2^53 would lose digits as a number. */
const AS_TEXT = { long: (text: string) => text, short: (text: string) => text };

/** A PSP that speaks PEC's IPG: the bank simulator in test mode, Parsian E-Commerce in live mode. */
export class ParsianClient implements Omit<PspClient, 'name'> {
  /** PEC's name; a registered PSP's name once the registry lists this connector (PspClient's `name`). */
  readonly name = 'parsian';
  /**
   * What PEC offers, as its references show it (docs/psps/parsian.md#capabilities): ConfirmPayment is
   * final, a confirmed payment reversible by ReversalRequest until the end of PEC's day (assumed 50
   * minutes), no refund, no inquiry, no daily report any reference documents.
   */
  readonly capabilities: PspCapabilities = PARSIAN_PROFILE.capabilities;
  /** Each of PEC's three services, its client made from its own WSDL on first use. */
  private readonly services: Record<ServicePath, SoapService>;
  readonly endpoint: ParsianEndpoint;

  constructor(endpoint: ParsianEndpoint) {
    this.endpoint = endpoint;
    const service = (path: ServicePath) =>
      new SoapService(`${endpoint.baseUrl}${path}`, endpoint.timeoutMs, { customDeserializer: AS_TEXT });
    this.services = {
      [PARSIAN_SALE_PATH]: service(PARSIAN_SALE_PATH),
      [PARSIAN_CONFIRM_PATH]: service(PARSIAN_CONFIRM_PATH),
      [PARSIAN_REVERSAL_PATH]: service(PARSIAN_REVERSAL_PATH),
    };
  }

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  /**
   * SalePaymentRequest of the payment's own order id, in the order PEC's document lists the fields
   * (Originator, which some integrations add, is optional and not sent). Status 0 with a Token > 0 is
   * a token (the document's condition); anything else is a refusal, -112 included: a token answer
   * lost on its way makes its retry a duplicate order id (docs/psps/parsian.md#what-no-reference-settles).
   */
  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    const result = await this.call(PARSIAN_SALE_PATH, 'SalePaymentRequest', `token:${paymentId}`, {
      LoginAccount: this.endpoint.pin,
      Amount: amount,
      OrderId: parsianOrderId(paymentId),
      CallBackUrl: redirectUrl,
      AdditionalData: '',
    });
    const status = answerStatus(result.Status);
    const token = answerText(result.Token);
    if (status !== PARSIAN_STATUS.OK || !/^[1-9][0-9]{0,18}$/.test(token))
      throw new BankRefusalError(status, `the bank refused the token request: ${parsianStatusMeaning(status)}`);
    const page = new URL(`${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}${PARSIAN_PAGE_PATH}`);
    page.searchParams.set('Token', token);
    return { token, url: page.toString(), method: 'GET', fields: {} };
  }

  /**
   * ConfirmPayment of the return's Token (`refNum`). 0 confirmed now, with PEC's RRN and masked card
   * (the document's condition adds RRN > 0: a 0 without one confirms nothing); -1533, confirmed before
   * (a retry); 9, the switch's "in progress". The answer names neither the order nor the amount: the
   * confirmation is of the transaction the Token names, which the workflow held to the one our
   * SalePaymentRequest got for this payment, its order id and amount bound to that Token by PEC, on the
   * terminal the PIN authenticates (another merchant's Token answers -1530). So the confirmed amount is
   * the payment's recorded one, and a confirmation without PEC's RRN and card (a repeat, or a mask of a
   * shape no reference shows) is the result code's alone (`basis: 'result_code'`), neither guessed.
   */
  async confirm(paymentId: string, refNum: string, amount: number): Promise<Confirmation> {
    const result = await this.call(PARSIAN_CONFIRM_PATH, 'ConfirmPayment', `confirm:${paymentId}`, {
      LoginAccount: this.endpoint.pin,
      Token: refNum,
    });
    const status = answerStatus(result.Status);
    if (status === PARSIAN_STATUS.IN_PROGRESS) return { result: 'in_progress' };
    const rrn = confirmedRrn(answerText(result.RRN));
    if (status === PARSIAN_STATUS.OK && rrn === null)
      return {
        result: 'refused',
        code: status,
        description: 'confirmed without an RRN, which PEC gives every confirmed payment',
      };
    if (status !== PARSIAN_STATUS.OK && status !== PARSIAN_STATUS.ALREADY_CONFIRMED)
      return { result: 'refused', code: status, description: parsianStatusMeaning(status) };
    const answeredToken = answerText(result.Token);
    if (answeredToken !== '' && answeredToken !== '0' && answeredToken !== refNum)
      return {
        result: 'refused',
        code: status,
        description: 'the answer names another Token than the one asked about',
      };
    const card = confirmedMaskedCard(answerText(result.CardNumberMasked));
    if (rrn !== null && card !== null)
      return {
        result: 'confirmed',
        ref_num: refNum,
        res_num: paymentId,
        amount,
        terminal: this.terminalId,
        rrn,
        card_pan: card,
      };
    return {
      result: 'confirmed',
      basis: 'result_code',
      ref_num: refNum,
      res_num: paymentId,
      amount,
      terminal: this.terminalId,
      rrn: null,
      card_pan: null,
    };
  }

  /** ReversalRequest of the Token: 0 reversed now, -1551 reversed before (a retry), -102 and -1507 PEC's own "reversed" and "sent to the switch"; anything else a refusal. */
  async reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    const result = await this.call(PARSIAN_REVERSAL_PATH, 'ReversalRequest', `reverse:${paymentId}`, {
      LoginAccount: this.endpoint.pin,
      Token: refNum,
    });
    const status = answerStatus(result.Status);
    if (!reversalDone(status))
      throw new BankRefusalError(status, `the bank refused ReversalRequest: ${parsianStatusMeaning(status)}`);
    return { ref_num: refNum, result_code: status };
  }

  /** One SOAP call under the timeout (transport.ts): its `{operation}Result` object; an answer without a result is BankUnavailableError. */
  private async call(
    path: ServicePath,
    operation: string,
    operationKey: string,
    requestData: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const answer = await this.services[path].call(operation, operationKey, { requestData });
    const result = answer?.[`${operation}Result`];
    // "No response from bank" (shetabit/multipay): an answer without its result says nothing.
    if (result === null || typeof result !== 'object')
      throw new BankUnavailableError(`the bank answered ${operation} (${operationKey}) without a result`);
    return result as Record<string, unknown>;
  }
}
