/**
 * The second PSP connector: Behpardakht Mellat's internet payment gateway,
 * a SOAP service (docs/psps/mellat.md), spoken with the `soap` package from
 * the service's own WSDL (the service document, which imports the interface
 * document IPaymentGateway). The same client speaks to the bank simulator run
 * with BANK_SIM_PROTOCOL=mellat (test mode) and to Behpardakht (live mode).
 * Every message is held against the conformance corpus (test/fixtures/psps/mellat/),
 * which is what public integrations show of Behpardakht, not what our simulator says.
 *
 *   token   bpPayRequest(terminalId, userName, userPassword, orderId, amount, localDate, localTime,
 *           additionalData, callBackUrl, payerId) → "ResCode,RefId"
 *   page    POST {page}/pgwchannel/startpay.mellat  RefId   (the customer's browser)
 *   confirm bpVerifyRequest(…, orderId, saleOrderId, saleReferenceId)   → ResCode (43: verified before)
 *   settle  bpSettleRequest(…, orderId, saleOrderId, saleReferenceId)   → ResCode (45: settled before)
 *   reverse bpReversalRequest(…, orderId, saleOrderId, saleReferenceId) → ResCode (48: reversed before)
 *   inquire bpInquiryRequest(…, orderId, saleOrderId, saleReferenceId)  → ResCode (0: verified and standing)
 *   refund  bpRefundRequest(…, orderId (the refund's own), saleOrderId, saleReferenceId, refundAmount) → "ResCode,reference"
 *
 * Verify and settle are separate calls here: confirm verifies, settle settles. Behpardakht finds a
 * sale by saleOrderId and saleReferenceId; the sale's order id is the payment's own (mapping.ts:
 * mellatOrderId), never one a callback names, and a refund's is its own (mellatRefundOrderId). No
 * reference shows a daily report call: there is none. Every call has a timeout and carries our
 * operation key in the `X-Operation-Key` HTTP header (confirm:<payment>, settle:<payment>,
 * reverse:<payment>, inquire:<payment>, token:<payment>, refund:<refund>), which Behpardakht ignores
 * and the simulator keeps. The terminal's password travels in the SOAP body only, never in an error,
 * a log or an activity's result.
 */
import type { BankCallback } from '../../domain/payment-workflow.ts';
import {
  BankRefusalError,
  type BankOperationAnswer,
  type BankToken,
  type Confirmation,
  type Inquiry,
  type PspCapabilities,
  type PspClient,
} from '../psp-client.ts';
import {
  answerValues,
  inquiryStanding,
  MELLAT_CODE,
  mellatCodeMeaning,
  mellatOrderId,
  mellatRefundOrderId,
} from './mapping.ts';
import { MELLAT_PROFILE } from './profile.ts';
import { SoapService } from '../transport.ts';

export interface MellatEndpoint {
  /** Origin (and path prefix) of the SOAP service, no trailing slash: the WSDL is {baseUrl}/pgwchannel/services/pgw?wsdl. */
  baseUrl: string;
  /** Origin of the payment page as customers' browsers reach it; default baseUrl. */
  pageBaseUrl?: string;
  terminalId: string;
  userName: string;
  password: string;
  timeoutMs: number;
}

/** The SOAP service's path (its WSDL at ?wsdl), Behpardakht's own. */
export const MELLAT_SERVICE_PATH = '/pgwchannel/services/pgw';
/** The page the customer's browser POSTs the RefId to. */
export const MELLAT_PAGE_PATH = '/pgwchannel/startpay.mellat';

/** Tehran's calendar date and wall time as Behpardakht's localDate (YYYYMMDD) and localTime (HHMMSS). */
function tehranNow(at = new Date()): { localDate: string; localTime: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tehran',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    localDate: `${parts.year}${parts.month}${parts.day}`,
    localTime: `${parts.hour}${parts.minute}${parts.second}`,
  };
}

/** A PSP that speaks Behpardakht Mellat's IPG: the bank simulator in test mode, Behpardakht in live mode. */
export class MellatClient implements PspClient {
  readonly name = 'mellat';
  /**
   * What Behpardakht offers, as its references show it (docs/psps/mellat.md#capabilities): a verify,
   * then a settle that captures; a verified sale reversible until Behpardakht settles it by itself,
   * 180 minutes after the verify; an unverified sale given back by itself after 20 minutes;
   * bpRefundRequest for all or part of a settled sale; bpInquiryRequest of a sale by its reference;
   * no daily report any reference documents.
   */
  readonly capabilities: PspCapabilities = MELLAT_PROFILE.capabilities;
  private readonly service: SoapService;
  readonly endpoint: MellatEndpoint;

  constructor(endpoint: MellatEndpoint) {
    this.endpoint = endpoint;
    this.service = new SoapService(`${endpoint.baseUrl}${MELLAT_SERVICE_PATH}`, endpoint.timeoutMs);
  }

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    // In the published order; payerId is an xs:string (the integrations send 0).
    const { code, values } = await this.call('bpPayRequest', `token:${paymentId}`, {
      ...this.terminal(),
      orderId: mellatOrderId(paymentId),
      amount,
      ...tehranNow(),
      additionalData: '',
      callBackUrl: redirectUrl,
      payerId: '0',
    });
    const refId = values[0] ?? '';
    if (code !== MELLAT_CODE.OK || !/^[A-Za-z0-9_-]{8,64}$/.test(refId))
      throw new BankRefusalError(code, `the bank refused the token request: ${mellatCodeMeaning(code)}`);
    return {
      token: refId,
      url: `${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}${MELLAT_PAGE_PATH}`,
      method: 'POST',
      fields: { RefId: refId },
    };
  }

  /**
   * bpVerifyRequest of the payment's own order id and the customer's SaleReferenceId: 0 verified
   * now, 43 verified before (a retry). Behpardakht answers the code alone (docs/psps/mellat.md): no
   * amount, RRN or card. The confirmation reports the transaction the call named, and that is what
   * the code vouches for: a verify is per orderId, saleOrderId and saleReferenceId on our terminal,
   * the order id is the payment's own (never the callback's), and the PSP bound that order id to the
   * amount of our bpPayRequest, which was the payment's recorded `amount` (one RefId per order id,
   * another amount refused as a duplicate, 41). So "0" confirms that sale at that amount; the RRN
   * and card are absent (null), not guessed.
   */
  async confirm(paymentId: string, refNum: string, amount: number): Promise<Confirmation> {
    const { code } = await this.call(
      'bpVerifyRequest',
      `confirm:${paymentId}`,
      this.bySale(mellatOrderId(paymentId), refNum),
    );
    if (code === MELLAT_CODE.IN_PROGRESS) return { result: 'in_progress' };
    if (code !== MELLAT_CODE.OK && code !== MELLAT_CODE.ALREADY_VERIFIED)
      return { result: 'refused', code, description: mellatCodeMeaning(code) };
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

  /**
   * bpInquiryRequest of the sale the customer's return named: Behpardakht finds a sale by its
   * saleOrderId and saleReferenceId, so a return without a SaleReferenceId (a cancel or a failure
   * carries none) names no sale to ask about, and the answer is `open` without a call: no reference
   * shows an inquiry by the order id alone.
   */
  async inquire(paymentId: string, callback: Pick<BankCallback, 'ref_num' | 'token'>): Promise<Inquiry> {
    if (!/^[1-9][0-9]{0,18}$/.test(callback.ref_num)) return { standing: 'open' };
    const { code } = await this.call(
      'bpInquiryRequest',
      `inquire:${paymentId}`,
      this.bySale(mellatOrderId(paymentId), callback.ref_num),
    );
    return { standing: inquiryStanding(code) };
  }

  /** bpSettleRequest: 0 settled now, 45 settled before (a retry): both done. */
  settle(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    return this.operation('bpSettleRequest', `settle:${paymentId}`, paymentId, refNum, MELLAT_CODE.ALREADY_SETTLED);
  }

  /** bpReversalRequest: 0 reversed now, 48 reversed before (a retry): both done. */
  reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    return this.operation('bpReversalRequest', `reverse:${paymentId}`, paymentId, refNum, MELLAT_CODE.REVERSED);
  }

  /**
   * bpRefundRequest: `amount` of the settled sale back to the customer's card, under the refund's own
   * order id (a new one, derived from `refundId`, so every retry names the same). 0 refunded now (the
   * answer's second value is Behpardakht's reference of the refund); 41, that order id used before, is
   * this refund asked before (a retry after an answer that never arrived: the order id is ours alone
   * and no other call of ours uses it). Anything else is a refusal (46: the sale is not settled yet).
   */
  async refund(paymentId: string, refNum: string, refundId: string, amount: number): Promise<BankOperationAnswer> {
    const { code } = await this.call('bpRefundRequest', `refund:${refundId}`, {
      ...this.bySale(mellatOrderId(paymentId), refNum),
      orderId: mellatRefundOrderId(refundId),
      refundAmount: amount,
    });
    if (code !== MELLAT_CODE.OK && code !== MELLAT_CODE.DUPLICATE_ORDER)
      throw new BankRefusalError(code, `the bank refused bpRefundRequest: ${mellatCodeMeaning(code)}`);
    return { ref_num: refNum, result_code: code };
  }

  private terminal() {
    return {
      terminalId: this.endpoint.terminalId,
      userName: this.endpoint.userName,
      userPassword: this.endpoint.password,
    };
  }

  /** The verify family's arguments: our order id twice (orderId and saleOrderId), the customer's SaleReferenceId. */
  private bySale(orderId: string, saleReferenceId: string) {
    return { ...this.terminal(), orderId, saleOrderId: orderId, saleReferenceId };
  }

  private async operation(
    method: string,
    key: string,
    paymentId: string,
    refNum: string,
    doneBefore: number,
  ): Promise<BankOperationAnswer> {
    const { code } = await this.call(method, key, this.bySale(mellatOrderId(paymentId), refNum));
    if (code !== MELLAT_CODE.OK && code !== doneBefore)
      throw new BankRefusalError(code, `the bank refused ${method}: ${mellatCodeMeaning(code)}`);
    return { ref_num: refNum, result_code: code };
  }

  /** One SOAP call under the timeout (transport.ts): its answer's values. */
  private async call(
    method: string,
    operationKey: string,
    args: Record<string, unknown>,
  ): Promise<{ code: number; values: string[] }> {
    const answer = await this.service.call(method, operationKey, args);
    return answerValues(answer?.return);
  }
}
