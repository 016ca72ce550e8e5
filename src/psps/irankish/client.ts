/**
 * The IranKish connector's client: Iran Kish Credit Card Company's api/v3 IPG, a JSON API
 * (docs/psps/irankish.md). The same client speaks to the bank simulator run with
 * BANK_SIM_PROTOCOL=irankish (test mode) and to IranKish (live mode). Every message is held against
 * the conformance corpus (test/fixtures/psps/irankish/), which is what public integrations show of
 * IranKish, not what our simulator says.
 *
 *   token    POST {base}/api/v3/tokenization/make
 *            {request: {acceptorId, amount, billInfo, paymentId, requestId, requestTimestamp, revertUri, terminalId, transactionType},
 *             authenticationEnvelope: {data, iv}}  → {responseCode, description, status, result: {token, …}}
 *   page     POST {page}/iuiv3/IPG/Index/ tokenIdentity=…   (the customer's browser, a form)
 *   return   the page's form post: token, responseCode, requestId, retrievalReferenceNumber, systemTraceAuditNumber, … (mapping.ts)
 *   confirm  POST {base}/api/v3/confirmation/purchase        {terminalId, retrievalReferenceNumber, systemTraceAuditNumber, tokenIdentity}
 *   reverse  POST {base}/api/v3/confirmation/reversePurchase (the same four fields)
 *
 * The confirmation is the capture (capture `verify`); its reversal is asked at the verify deadline and
 * for a refund of the whole payment. No inquiry, settle or refund call (capabilities: profile.ts).
 * Every call has a timeout and carries our operation key in the `X-Operation-Key` header
 * (token:<payment>, confirm:<payment>, reverse:<payment>), which IranKish ignores and the simulator
 * keeps. The terminal's password is sealed in the envelope and never travels in the clear: it is in
 * no request, error, log or result.
 */
import type { KeyObject } from 'node:crypto';
import {
  BankRefusalError,
  type BankOperationAnswer,
  type BankToken,
  type Confirmation,
  type PspCapabilities,
  type PspClient,
} from '../psp-client.ts';
import {
  answerCode,
  answeredOk,
  authenticationEnvelope,
  envelopeText,
  IRANKISH_CODE,
  IRANKISH_TOKEN,
  irankishOrderId,
  irankishPublicKey,
  readConfirmation,
  referenceParts,
  type IrankishAnswer,
} from './mapping.ts';
import { IRANKISH_PROFILE } from './profile.ts';
import { postJsonObject } from '../transport.ts';

export interface IrankishEndpoint {
  /** Origin (and path prefix) of the API, no trailing slash: https://ikc.shaparak.ir. */
  baseUrl: string;
  /** Origin (and prefix) of the payment page as customers' browsers reach it; default baseUrl. */
  pageBaseUrl?: string;
  terminalId: string;
  /** The acceptor (merchant) number IranKish gave (acceptorId). */
  acceptorId: string;
  /** The terminal's password ("pass phrase"), hex: sealed in the envelope, never sent. */
  password: string;
  /** IranKish's RSA public key, PEM or the base64 of its DER. */
  publicKey: string;
  timeoutMs: number;
}

/** The API's paths under the base address (the corpus's http.path). */
export const IRANKISH_TOKEN_PATH = '/api/v3/tokenization/make';
export const IRANKISH_CONFIRM_PATH = '/api/v3/confirmation/purchase';
export const IRANKISH_REVERSE_PATH = '/api/v3/confirmation/reversePurchase';
/** The payment page the customer's browser POSTs the token to (tokenIdentity). */
export const IRANKISH_PAGE_PATH = '/iuiv3/IPG/Index/';

/** A PSP that speaks IranKish's api/v3 IPG: the bank simulator in test mode, IranKish in live mode. */
export class IrankishClient implements PspClient {
  readonly name = 'irankish' as const;
  /** What IranKish offers, as its references show it (docs/psps/irankish.md#capabilities). */
  readonly capabilities: PspCapabilities = IRANKISH_PROFILE.capabilities;
  private readonly publicKey: KeyObject;
  readonly endpoint: IrankishEndpoint;

  constructor(endpoint: IrankishEndpoint) {
    this.endpoint = endpoint;
    // A key or password that is not IranKish's shape is refused when the client is made, not at a customer's payment.
    this.publicKey = irankishPublicKey(endpoint.publicKey);
    envelopeText(endpoint.terminalId, endpoint.password, 0);
  }

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  /**
   * The token request: a purchase (transactionType "Purchase") of `amount` rials under the payment's
   * order id (requestId), the customer back at `redirectUrl` (revertUri), no bill and no national
   * payment id (null, as shetabit/multipay sends them), and the envelope sealing the terminal, its
   * password and the amount with IranKish's public key. Answered `responseCode` "00" and a token.
   */
  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    const answer = await this.call(IRANKISH_TOKEN_PATH, `token:${paymentId}`, {
      request: {
        acceptorId: this.endpoint.acceptorId,
        amount,
        billInfo: null,
        paymentId: null,
        requestId: irankishOrderId(paymentId),
        requestTimestamp: Math.floor(Date.now() / 1000),
        revertUri: redirectUrl,
        terminalId: this.endpoint.terminalId,
        transactionType: 'Purchase',
      },
      authenticationEnvelope: authenticationEnvelope(
        this.publicKey,
        this.endpoint.terminalId,
        this.endpoint.password,
        amount,
      ),
    });
    const result = answer.result as { token?: unknown } | null | undefined;
    const token = typeof result === 'object' && result !== null && typeof result.token === 'string' ? result.token : '';
    if (!answeredOk(answer) || !IRANKISH_TOKEN.test(token)) {
      // Done but with no token of IranKish's shape: answerCode says no refusal was named (-1).
      const { code, description } = answeredOk(answer)
        ? { code: IRANKISH_CODE.NO_CODE, description: 'a token answer without a token' }
        : answerCode(answer);
      throw new BankRefusalError(code, `the bank refused the token request: ${description}`);
    }
    return {
      token,
      url: `${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}${IRANKISH_PAGE_PATH}`,
      method: 'POST',
      fields: { tokenIdentity: token },
    };
  }

  /**
   * confirmation/purchase of the transaction the return named (`refNum`: its RRN, STAN and token,
   * irankishReference): IranKish's capture. Done, or done before (duplicateVerify), is `confirmed` on
   * the result-code basis with the amount, terminal and order the answer names; anything else is
   * `refused` with IranKish's code. A reference that is not of that shape is refused without a call.
   */
  async confirm(paymentId: string, refNum: string, _amount: number): Promise<Confirmation> {
    const parts = referenceParts(refNum);
    if (parts === undefined)
      return { result: 'refused', code: IRANKISH_CODE.NOT_FOUND, description: 'not a reference of an IranKish sale' };
    const answer = await this.call(IRANKISH_CONFIRM_PATH, `confirm:${paymentId}`, this.transaction(parts));
    return readConfirmation(answer, paymentId, refNum, this.terminalId);
  }

  /**
   * confirmation/reversePurchase of the transaction `refNum` names: the whole amount back to the
   * customer. Done answers 0; "reversed before" (2) is a retry of our own and done too; anything
   * else is a BankRefusalError with IranKish's code.
   */
  async reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    const parts = referenceParts(refNum);
    if (parts === undefined)
      throw new BankRefusalError(IRANKISH_CODE.NOT_FOUND, `payment ${paymentId} has no IranKish sale to reverse`);
    const answer = await this.call(IRANKISH_REVERSE_PATH, `reverse:${paymentId}`, this.transaction(parts));
    if (answeredOk(answer)) return { ref_num: refNum, result_code: IRANKISH_CODE.OK };
    const { code, description } = answerCode(answer);
    if (code === IRANKISH_CODE.REVERSED_BEFORE) return { ref_num: refNum, result_code: code };
    throw new BankRefusalError(code, `the bank refused the reversal: ${description}`);
  }

  /** The four fields that name a transaction to confirmation/purchase and confirmation/reversePurchase, in the sources' order. */
  private transaction(parts: { rrn: string; stan: string; token: string }) {
    return {
      terminalId: this.endpoint.terminalId,
      retrievalReferenceNumber: parts.rrn,
      systemTraceAuditNumber: parts.stan,
      tokenIdentity: parts.token,
    };
  }

  /** One JSON POST under the timeout (transport.ts): its answer's object, which must carry a responseCode. */
  private call(path: string, operationKey: string, body: Record<string, unknown>): Promise<IrankishAnswer> {
    return postJsonObject(
      { baseUrl: this.endpoint.baseUrl, path, operationKey, timeoutMs: this.endpoint.timeoutMs, body },
      'responseCode',
    );
  }
}
