/**
 * The third PSP connector: Asan Pardakht's REST IPG (docs/psps/asanpardakht.md), JSON over HTTPS,
 * spoken with the platform's fetch as SEP's is. The same client speaks to the bank simulator run
 * with BANK_SIM_PROTOCOL=asanpardakht (test mode) and to Asan Pardakht (live mode). Every message is
 * held against the conformance corpus (test/fixtures/psps/asanpardakht/), which is what public
 * integrations show of Asan Pardakht, not what our simulator says.
 *
 *   token   POST /v1/Token {merchantConfigurationId, serviceTypeId 1, localInvoiceId, amountInRials,
 *           localDate "YYYYMMDD HHMMSS", additionalData, callbackURL, paymentId "0"} → 200 "RefId"
 *   page    POST {page}/  RefId   (the customer's browser)
 *   return  our callback URL, its query carrying our localInvoiceId (nothing posted is read)
 *   lookup  GET  /v1/TranResult?merchantConfigurationId&localInvoiceId → 200 {payGateTranID, amount, rrn, cardNumber, …}
 *   confirm lookup, then POST /v1/Verify {merchantConfigurationId, payGateTranId} → 200 (472: verified before)
 *   settle  lookup, then POST /v1/Settlement {…}  → 200 (474, 476: settled before)
 *   reverse lookup, then POST /v1/Reverse {…}     → 200 (473, 475: reversed before); 472, the transaction
 *           was verified: POST /v1/Cancel {…}      → 200 (806, 808, 813: undone before)
 *
 * The credentials travel as the `usr` and `pwd` headers of every call, never in an error, a log or an
 * activity's result. Asan Pardakht answers by HTTP status; its body is a JSON string (the RefId) or
 * TranResult's JSON, and nothing else is read. Every call has a timeout and carries our operation
 * key in the `X-Operation-Key` header (token:<payment>, confirm:<payment>, settle:<payment>,
 * reverse:<payment>), which Asan Pardakht ignores and the simulator keeps.
 *
 * The return names no transaction of the PSP's: every call on a paid transaction first asks
 * TranResult for it by our invoice id (as every reference does before Verify), so the reference the
 * workflow records is our invoice id, the one the return carried, and the PSP's payGateTranID is
 * asked for again by each call (mapping.ts: asanpardakhtOrderId, never stored).
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
  asanpardakhtOrderId,
  asanStatus,
  callbackUrlOf,
  isRecordableCard,
  isRecordableRrn,
  readTranResult,
  type AsanCall,
  type TranResult,
} from './mapping.ts';
import { ASANPARDAKHT_PROFILE } from './profile.ts';
import { bankHttp } from '../transport.ts';

export interface AsanpardakhtEndpoint {
  /** Origin (and path prefix) of the REST service, no trailing slash: calls go to {baseUrl}/v1/… */
  baseUrl: string;
  /** Origin of the payment page as customers' browsers reach it; default baseUrl. */
  pageBaseUrl?: string;
  /** The merchant configuration id Asan Pardakht gave (merchantConfigurationId): the terminal. */
  terminalId: string;
  userName: string;
  password: string;
  timeoutMs: number;
}

/** The REST calls' paths, as every integration writes them. */
export const ASANPARDAKHT_PATHS = {
  token: '/v1/Token',
  tranResult: '/v1/TranResult',
  verify: '/v1/Verify',
  settlement: '/v1/Settlement',
  reverse: '/v1/Reverse',
  cancel: '/v1/Cancel',
} as const satisfies Record<AsanCall, string>;

/** The page the customer's browser POSTs the RefId to: the page origin's root. */
export const ASANPARDAKHT_PAGE_PATH = '/';

/** Tehran's calendar date and wall time as Asan Pardakht's localDate: "YYYYMMDD HHMMSS". */
export function tehranLocalDate(at = new Date()): string {
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
  return `${parts.year}${parts.month}${parts.day} ${parts.hour}${parts.minute}${parts.second}`;
}

/** A RefId as it may travel in a form field and our records: letters, digits and a few marks. */
const REF_ID = /^[A-Za-z0-9_.+/=-]{1,256}$/;

/** A PSP that speaks Asan Pardakht's REST IPG: the bank simulator in test mode, Asan Pardakht in live mode. */
export class AsanpardakhtClient implements PspClient {
  readonly name = ASANPARDAKHT_PROFILE.name;
  /**
   * What Asan Pardakht offers, as its references show it (docs/psps/asanpardakht.md#capabilities):
   * a verify, then a settlement that captures; a verified transaction undone by Cancel; no refund,
   * no inquiry of its own, no daily report any reference documents.
   */
  readonly capabilities: PspCapabilities = ASANPARDAKHT_PROFILE.capabilities;
  readonly endpoint: AsanpardakhtEndpoint;

  constructor(endpoint: AsanpardakhtEndpoint) {
    this.endpoint = endpoint;
  }

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  /** merchantConfigurationId as the integrations send it: a number (AsanPardakht.IPG and BamdadPaymentCore type it int). */
  private get merchantConfigurationId(): number {
    return Number(this.endpoint.terminalId);
  }

  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    const { status, body } = await this.call('token', 'POST', ASANPARDAKHT_PATHS.token, `token:${paymentId}`, {
      merchantConfigurationId: this.merchantConfigurationId,
      serviceTypeId: 1,
      localInvoiceId: Number(asanpardakhtOrderId(paymentId)),
      amountInRials: amount,
      localDate: tehranLocalDate(),
      additionalData: '',
      callbackURL: callbackUrlOf(redirectUrl, paymentId),
      paymentId: '0',
    });
    if (status !== 200) throw this.refusal('token', status);
    if (typeof body !== 'string' || !REF_ID.test(body))
      throw new BankRefusalError(status, 'the bank answered the token request without a RefId');
    return {
      token: body,
      url: `${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}${ASANPARDAKHT_PAGE_PATH}`,
      method: 'POST',
      fields: { RefId: body },
    };
  }

  /**
   * TranResult of the payment's invoice id, then Verify of the payGateTranID it names: 200 verified
   * now, 472 (473, 475: settled since) verified before. The confirmation is TranResult's detail: its
   * amount, RRN and masked card, our invoice id as the reference (the one the return carried), and
   * `res_num` the payment when TranResult's salesOrderID is its invoice id. An RRN or card of another
   * shape than Dargah records is not made to fit: the confirmation is then Verify's status alone
   * (`basis: 'result_code'`) for the transaction TranResult named, at TranResult's amount.
   */
  async confirm(paymentId: string, refNum: string, amount: number): Promise<Confirmation> {
    void amount; // TranResult names the amount the customer paid: the workflow holds it to the recorded one.
    const key = `confirm:${paymentId}`;
    if (refNum !== asanpardakhtOrderId(paymentId))
      return { result: 'refused', code: 0, description: "the return names another payment's invoice" };
    const found = await this.lookup(paymentId, key);
    // No paid transaction by the return's invoice id (472): the customer came back from the page without
    // paying (canceled there, or a card refused and the page left); the return says no more, so the
    // payment ends canceled by the customer (docs/psps/asanpardakht.md#what-confirms-a-payment).
    if (found.result === 'refused' && found.code === 472) return { ...found, standing: 'canceled' };
    if (found.result !== 'found') return found;
    const { status } = await this.call('verify', 'POST', ASANPARDAKHT_PATHS.verify, key, this.byTransaction(found.txn));
    const { outcome, meaning } = asanStatus('verify', status);
    if (outcome === 'unavailable') throw new BankUnavailableError(`the bank could not verify (${key}): ${meaning}`);
    if (outcome === 'in_progress') return { result: 'in_progress' };
    if (outcome !== 'done' && outcome !== 'done_before')
      return { result: 'refused', code: status, description: meaning };
    const { txn } = found;
    const resNum =
      txn.salesOrderId === '' || txn.salesOrderId === refNum ? paymentId : `localInvoiceId:${txn.salesOrderId}`;
    if (isRecordableRrn(txn.rrn) && isRecordableCard(txn.cardNumber)) {
      return {
        result: 'confirmed',
        ref_num: refNum,
        res_num: resNum,
        amount: txn.amount,
        terminal: this.terminalId,
        rrn: txn.rrn,
        card_pan: txn.cardNumber,
      };
    }
    return {
      result: 'confirmed',
      basis: 'result_code',
      ref_num: refNum,
      res_num: resNum,
      amount: txn.amount,
      terminal: this.terminalId,
      rrn: null,
      card_pan: null,
    };
  }

  /** TranResult, then Settlement: 200 settled now, 474 or 476 settled before (a retry): both done. */
  async settle(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    const key = `settle:${paymentId}`;
    const txn = await this.paidTransaction(paymentId, refNum, key, 'settlement');
    const { status } = await this.call(
      'settlement',
      'POST',
      ASANPARDAKHT_PATHS.settlement,
      key,
      this.byTransaction(txn),
    );
    return this.operationAnswer('settlement', status, refNum);
  }

  /**
   * TranResult, then Reverse: 200 reversed now, 473 or 475 reversed before. Reverse refuses a
   * verified transaction (472), and a transaction Dargah reverses was verified (its confirm, or a
   * refused confirmation): Cancel undoes the verify and gives the money back, 806, 808 or 813 undone
   * before. The order is the AsanPardakht.IPG sample's.
   */
  async reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    const key = `reverse:${paymentId}`;
    const txn = await this.paidTransaction(paymentId, refNum, key, 'reverse');
    const { status } = await this.call('reverse', 'POST', ASANPARDAKHT_PATHS.reverse, key, this.byTransaction(txn));
    if (asanStatus('reverse', status).outcome !== 'use_cancel') return this.operationAnswer('reverse', status, refNum);
    const canceled = await this.call('cancel', 'POST', ASANPARDAKHT_PATHS.cancel, key, this.byTransaction(txn));
    return this.operationAnswer('cancel', canceled.status, refNum);
  }

  /** The verify family's body: the merchant configuration and the PSP's transaction id, both numbers as the integrations send them. */
  private byTransaction(txn: TranResult) {
    return { merchantConfigurationId: this.merchantConfigurationId, payGateTranId: Number(txn.payGateTranId) };
  }

  /** TranResult of the payment's invoice id: the transaction, "in progress", or a refusal (472: no paid transaction by that id). */
  private async lookup(
    paymentId: string,
    key: string,
  ): Promise<
    | { result: 'found'; txn: TranResult }
    | { result: 'in_progress' }
    | { result: 'refused'; code: number; description: string }
  > {
    const query = new URLSearchParams({
      merchantConfigurationId: this.endpoint.terminalId,
      localInvoiceId: asanpardakhtOrderId(paymentId),
    });
    const { status, body } = await this.call(
      'tranResult',
      'GET',
      `${ASANPARDAKHT_PATHS.tranResult}?${query.toString()}`,
      key,
    );
    const { outcome, meaning } = asanStatus('tranResult', status);
    if (outcome === 'unavailable')
      throw new BankUnavailableError(`the bank could not answer TranResult (${key}): ${meaning}`);
    if (outcome === 'in_progress') return { result: 'in_progress' };
    if (outcome !== 'done') return { result: 'refused', code: status, description: meaning };
    const txn = readTranResult(body);
    if (txn === undefined) return { result: 'refused', code: status, description: 'TranResult named no transaction' };
    return { result: 'found', txn };
  }

  /** The transaction a settle or reverse acts on; a TranResult that does not name it is a refusal (or, in progress, worth another try). */
  private async paidTransaction(paymentId: string, refNum: string, key: string, call: AsanCall): Promise<TranResult> {
    if (refNum !== asanpardakhtOrderId(paymentId))
      throw new BankRefusalError(0, `the bank was asked ${call} of another payment's invoice (${key})`);
    const found = await this.lookup(paymentId, key);
    if (found.result === 'in_progress')
      throw new BankUnavailableError(`the bank has not finished the transaction (${key})`);
    if (found.result === 'refused')
      throw new BankRefusalError(
        found.code,
        `the bank found no transaction for ${call} (${key}): ${found.description}`,
      );
    return found.txn;
  }

  private operationAnswer(call: AsanCall, status: number, refNum: string): BankOperationAnswer {
    const { outcome, meaning } = asanStatus(call, status);
    if (outcome === 'done' || outcome === 'done_before') return { ref_num: refNum, result_code: status };
    if (outcome === 'unavailable' || outcome === 'in_progress')
      throw new BankUnavailableError(`the bank could not do ${call}: ${meaning}`);
    throw new BankRefusalError(status, `the bank refused ${call}: ${meaning}`);
  }

  private refusal(call: AsanCall, status: number): Error {
    const { outcome, meaning } = asanStatus(call, status);
    return outcome === 'unavailable'
      ? new BankUnavailableError(`the bank could not answer ${call}: ${meaning}`)
      : new BankRefusalError(status, `the bank refused the ${call} request: ${meaning}`);
  }

  /**
   * One REST call under the timeout (transport.ts), the credentials in its headers: its status and its
   * body read as JSON ('' or a body that is not JSON: undefined). The statuses are judged by the
   * caller, by the call's own table (mapping.ts).
   */
  private async call(
    call: AsanCall,
    method: 'GET' | 'POST',
    path: string,
    operationKey: string,
    body?: Record<string, unknown>,
  ): Promise<{ status: number; body: unknown }> {
    const { status, text } = await bankHttp({
      baseUrl: this.endpoint.baseUrl,
      path,
      method,
      operationKey,
      timeoutMs: this.endpoint.timeoutMs,
      ...(body === undefined ? {} : { body }),
      headers: { usr: this.endpoint.userName, pwd: this.endpoint.password },
      label: call,
    });
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      parsed = undefined;
    }
    return { status, body: parsed };
  }
}
