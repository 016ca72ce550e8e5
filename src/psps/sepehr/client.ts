/**
 * The Sepehr connector's client: Bank Saderat's IPG (Sepehr Electronic Payment, formerly Mabna Card
 * Aria), a JSON API (docs/psps/sepehr.md). The same client speaks to the bank simulator run with
 * BANK_SIM_PROTOCOL=sepehr (test mode) and to Sepehr (live mode). Every message is held against the
 * conformance corpus (test/fixtures/psps/sepehr/), which is what public integrations show of Sepehr,
 * not what our simulator says.
 *
 *   token    POST {base}/V1/PeymentApi/GetToken {Amount, callbackURL, invoiceID, terminalID} → {Status, Accesstoken}
 *   page     POST {page}/Pay  token, TerminalID              (the customer's browser, a form)
 *   return   the page's form post: respcode, invoiceid, digitalreceipt, … (mapping.ts)
 *   confirm  POST {base}/V1/PeymentApi/Advice   {digitalreceipt, Tid} → {Status Ok|Duplicate|NOK, ReturnId, Message}
 *   reverse  POST {base}/V1/PeymentApi/Rollback {digitalreceipt, Tid} → the same
 *
 * Advice is the verify and captures (capture `verify`): asked at the customer's return. Rollback gives
 * the whole payment back (the verify deadline's reversal, a refund of the whole payment) where Sepehr
 * has enabled it for the merchant. No inquiry, settle or partial refund: no reference shows one
 * (capabilities: profile.ts). Sepehr knows a merchant by its terminal and its registered IP address:
 * no secret travels. Every call has a timeout and carries our operation key in the `X-Operation-Key`
 * header (token:, confirm:, reverse: and the payment's id), which Sepehr ignores and the simulator keeps.
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
  anyCase,
  readAdviceAnswer,
  readAnswer,
  SEPEHR_CODE,
  SEPEHR_RECEIPT,
  SEPEHR_TOKEN,
  sepehrCodeMeaning,
  sepehrOrderId,
  wholeNumber,
} from './mapping.ts';
import { SEPEHR_PROFILE } from './profile.ts';
import { postJsonObject } from '../transport.ts';

export interface SepehrEndpoint {
  /** Origin (and path prefix) of the API, no trailing slash: Sepehr's port 8081. */
  baseUrl: string;
  /** Origin (and prefix) of the payment page as customers' browsers reach it (Sepehr's port 8080); default baseUrl. */
  pageBaseUrl?: string;
  terminalId: string;
  timeoutMs: number;
}

/** The API's paths under the base address (the corpus's http.path). */
export const SEPEHR_TOKEN_PATH = '/V1/PeymentApi/GetToken';
export const SEPEHR_ADVICE_PATH = '/V1/PeymentApi/Advice';
export const SEPEHR_ROLLBACK_PATH = '/V1/PeymentApi/Rollback';
/** The payment page the customer's browser posts the token to. */
export const SEPEHR_PAGE_PATH = '/Pay';

/** A terminal id as the sources send it: a number (Parbad's long) when it is digits, else as it is. */
const terminalValue = (terminalId: string): number | string =>
  /^[1-9][0-9]{0,15}$/.test(terminalId) ? Number(terminalId) : terminalId;

/** A PSP that speaks Sepehr's IPG: the bank simulator in test mode, Sepehr in live mode. */
export class SepehrClient implements PspClient {
  readonly name = 'sepehr' as const;
  /** What Sepehr offers, as its references show it (docs/psps/sepehr.md#capabilities). */
  readonly capabilities: PspCapabilities = SEPEHR_PROFILE.capabilities;
  readonly endpoint: SepehrEndpoint;

  constructor(endpoint: SepehrEndpoint) {
    this.endpoint = endpoint;
  }

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  /**
   * GetToken for the payment's order id (invoiceID) and amount in rials; the customer's way to the page
   * is a form POST of the token and our terminal (pay-redirect.json). Any Status but 0, or no token of
   * a token's shape, is a BankRefusalError with the Status as its code.
   */
  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    const answer = await this.call(SEPEHR_TOKEN_PATH, `token:${paymentId}`, {
      Amount: amount,
      callbackURL: redirectUrl,
      invoiceID: sepehrOrderId(paymentId),
      terminalID: terminalValue(this.endpoint.terminalId),
    });
    const code = wholeNumber(anyCase(answer, 'Status'));
    const token = anyCase(answer, 'Accesstoken');
    if (code !== SEPEHR_CODE.OK || typeof token !== 'string' || !SEPEHR_TOKEN.test(token)) {
      const refusal = Number.isNaN(code) || code === SEPEHR_CODE.OK ? SEPEHR_CODE.UNREADABLE : code;
      throw new BankRefusalError(
        refusal,
        `the bank refused the token request: ${code === SEPEHR_CODE.OK ? 'an answer without a token' : sepehrCodeMeaning(refusal)}`,
      );
    }
    return {
      token,
      url: `${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}${SEPEHR_PAGE_PATH}`,
      method: 'POST',
      fields: { token, TerminalID: this.endpoint.terminalId },
    };
  }

  /**
   * Advice of the digital receipt the customer came back with (`refNum`), for our terminal: Ok, or
   * Duplicate (advised before: a retry of our own), confirms that receipt for the amount its ReturnId
   * names; NOK refuses with its code. The answer names no RRN and no card (readAdviceAnswer).
   */
  async confirm(paymentId: string, refNum: string, _amount: number): Promise<Confirmation> {
    if (!SEPEHR_RECEIPT.test(refNum))
      return { result: 'refused', code: SEPEHR_CODE.NOT_FOUND, description: 'no digital receipt to verify' };
    const answer = await this.call(SEPEHR_ADVICE_PATH, `confirm:${paymentId}`, {
      digitalreceipt: refNum,
      Tid: terminalValue(this.endpoint.terminalId),
    });
    const confirmation = readAdviceAnswer(answer, paymentId, refNum, this.terminalId);
    if (confirmation === undefined)
      throw new BankUnavailableError(
        `the bank answered ${SEPEHR_ADVICE_PATH} with no Status it has (confirm:${paymentId})`,
      );
    return confirmation;
  }

  /**
   * Rollback of the digital receipt: the whole payment back to the customer. Ok is done, Duplicate done
   * before (a retry of our own); NOK is a BankRefusalError with its code (-6: Sepehr has not enabled
   * Rollback for the merchant), -2 included: the sources differ on whether it means "reversed before",
   * and taking it for done could record as given back a payment Sepehr still holds.
   */
  async reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    if (!SEPEHR_RECEIPT.test(refNum))
      throw new BankRefusalError(SEPEHR_CODE.NOT_FOUND, `no digital receipt to roll back for payment ${paymentId}`);
    const answer = readAnswer(
      await this.call(SEPEHR_ROLLBACK_PATH, `reverse:${paymentId}`, {
        digitalreceipt: refNum,
        Tid: terminalValue(this.endpoint.terminalId),
      }),
    );
    if (answer.status === 'unknown')
      throw new BankUnavailableError(
        `the bank answered ${SEPEHR_ROLLBACK_PATH} with no Status it has (reverse:${paymentId})`,
      );
    if (answer.status === 'nok')
      throw new BankRefusalError(
        answer.code,
        `the bank refused the rollback: ${answer.message || sepehrCodeMeaning(answer.code)}`,
      );
    return { ref_num: refNum, result_code: SEPEHR_CODE.OK };
  }

  /** One JSON POST under the timeout (transport.ts): its answer's object, which must carry a Status (in any case). */
  private call(path: string, operationKey: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return postJsonObject(
      { baseUrl: this.endpoint.baseUrl, path, operationKey, timeoutMs: this.endpoint.timeoutMs, body },
      'Status',
      (answer) => anyCase(answer, 'Status') !== undefined,
    );
  }
}
