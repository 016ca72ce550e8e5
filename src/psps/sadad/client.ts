/**
 * The third PSP connector: Sadad, Bank Melli Iran's internet payment gateway, a JSON API
 * (docs/psps/sadad.md). The same client speaks to the bank simulator run with
 * BANK_SIM_PROTOCOL=sadad (test mode) and to Sadad (live mode). Every message is held against the
 * conformance corpus (test/fixtures/psps/sadad/), which is what public integrations show of Sadad,
 * not what our simulator says.
 *
 *   token   POST {base}/api/v0/Request/PaymentRequest {TerminalId, MerchantId, Amount, SignData, ReturnUrl, LocalDateTime, OrderId}
 *           → {ResCode, Token, Description}     SignData = 3DES(TerminalId;OrderId;Amount)
 *   page    GET  {page}/Purchase?Token=…          (the customer's browser)
 *   return  the page's form post: OrderId, token, ResCode (mapping.ts)
 *   return  the page's form post: OrderId, token, ResCode (mapping.ts)
 *   settle  POST {base}/api/v0/Advice/Verify {Token, SignData} → {ResCode, Amount, RetrivalRefNo, SystemTraceNo, OrderId, Description}
 *           SignData = 3DES(Token); 100: verified before
 *
 * Advice/Verify is final and Sadad has no reversal, so it is asked only at the merchant's verify
 * (capture `merchant_verify`: the client's `settle`), never at the customer's return: `confirm` asks
 * Sadad nothing and answers on the return's own fields, and `reverse` of a payment never verified at
 * Sadad asks nothing either (Sadad gives back by itself a payment nobody verifies within 15 minutes).
 * docs/psps/sadad.md#why-the-verify-waits-for-the-merchant. No inquiry or refund call of this API
 * (capabilities: profile.ts). Every call has a timeout and carries our operation key in the
 * `X-Operation-Key` header (token:<payment>, settle:<payment>), which Sadad ignores and the simulator
 * keeps. The terminal's key signs and never travels: it is in no request, error, log or result.
 */
import { isGenuineConfirmation } from '../../domain/bank-confirmation.ts';
import {
  BankRefusalError,
  type BankOperationAnswer,
  type BankToken,
  type Confirmation,
  type PspCapabilities,
  type PspClient,
} from '../psp-client.ts';

import {
  readVerifyAnswer,
  SADAD_CODE,
  SADAD_TOKEN,
  sadadCodeMeaning,
  sadadKey,
  sadadLocalDateTime,
  sadadOrderId,
  sadadSignature,
  wholeNumber,
} from './mapping.ts';
import { SADAD_PROFILE } from './profile.ts';
import { postJsonObject } from '../transport.ts';

export interface SadadEndpoint {
  /** Origin (and path prefix: Sadad's `/VPG` where the terminal's address has it) of the API, no trailing slash. */
  baseUrl: string;
  /** Origin (and prefix) of the purchase page as customers' browsers reach it; default baseUrl. */
  pageBaseUrl?: string;
  terminalId: string;
  /** The merchant number Sadad gave (MerchantId). */
  merchantId: string;
  /** The terminal's key, base64 of 24 bytes, as Sadad gives it: it signs and is never sent. */
  key: string;
  timeoutMs: number;
}

/** The API's paths under the base address (the corpus's http.path). */
export const SADAD_TOKEN_PATH = '/api/v0/Request/PaymentRequest';
export const SADAD_VERIFY_PATH = '/api/v0/Advice/Verify';
/** The purchase page the customer's browser GETs with the token. */
export const SADAD_PAGE_PATH = '/Purchase';

/** A PSP that speaks Sadad's IPG: the bank simulator in test mode, Sadad in live mode. */
export class SadadClient implements PspClient {
  readonly name = 'sadad' as const;
  /**
   * What Sadad offers, as its references show it (docs/psps/sadad.md#capabilities): the verify is
   * final; no reversal, refund or inquiry; an unverified payment given back by Sadad after 15 minutes.
   */
  readonly capabilities: PspCapabilities = SADAD_PROFILE.capabilities;
  private readonly key: Buffer;
  readonly endpoint: SadadEndpoint;

  constructor(endpoint: SadadEndpoint) {
    this.endpoint = endpoint;
    // A key that is not Sadad's shape is refused when the client is made, not at a customer's payment.
    this.key = sadadKey(endpoint.key);
  }

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  /**
   * The token request, its fields in the order of Sadad's own PHP sample (Sadad's code 1000 is "the
   * parameters are in the wrong order"). OrderId is the payment's numeric order id: a retry after a
   * lost answer is refused by Sadad as a repeated order (1011), and the payment fails its token.
   */
  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    const orderId = sadadOrderId(paymentId);
    const answer = await this.call(SADAD_TOKEN_PATH, `token:${paymentId}`, {
      TerminalId: this.endpoint.terminalId,
      MerchantId: this.endpoint.merchantId,
      Amount: amount,
      SignData: sadadSignature(`${this.endpoint.terminalId};${orderId};${amount}`, this.key),
      ReturnUrl: redirectUrl,
      LocalDateTime: sadadLocalDateTime(),
      OrderId: Number(orderId),
    });
    const code = wholeNumber(answer.ResCode);
    const token = typeof answer.Token === 'string' ? answer.Token : '';
    if (code !== SADAD_CODE.OK || !SADAD_TOKEN.test(token)) {
      const description =
        typeof answer.Description === 'string' && answer.Description !== ''
          ? answer.Description
          : sadadCodeMeaning(code);
      throw new BankRefusalError(
        Number.isNaN(code) ? SADAD_CODE.FAILED : code,
        `the bank refused the token request: ${description}`,
      );
    }
    return {
      token,
      url: `${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}${SADAD_PAGE_PATH}?Token=${encodeURIComponent(token)}`,
      method: 'GET',
      fields: {},
    };
  }

  /**
   * The customer's return, confirmed on its own fields and nothing else: Sadad is asked nothing here,
   * since its Advice/Verify is final and, with no reversal, a payment verified now could never be
   * given back (neither one the merchant never verifies nor one Dargah refuses). The return was read
   * by the connector's parseReturn (ResCode 0, this payment's OrderId, a token) and the workflow held its token to
   * the one Sadad gave this payment; the confirmation is of the `result_code` basis for that token,
   * the charged amount recorded for the payment (`amount`, the one its token was asked for) and our
   * terminal. Sadad's own word comes at the merchant's verify (settle). This is the one PSP whose
   * `paid` rests on the return until then (docs/psps/sadad.md#why-the-verify-waits-for-the-merchant).
   */
  confirm(paymentId: string, refNum: string, amount: number): Promise<Confirmation> {
    return Promise.resolve({
      result: 'confirmed',
      basis: 'result_code',
      ref_num: refNum,
      res_num: paymentId,
      amount,
      terminal: this.terminalId,
      rrn: null,
      card_pan: null,
    });
  }

  /**
   * Advice/Verify of the token the customer came back with (`refNum`: Sadad names a transaction by
   * its token), signed, at the merchant's verify: Sadad's capture. 0 verified now, 100 verified before
   * (a retry of our own); the answer's own Amount and OrderId are held to the payment's as the
   * workflow's judgment holds a confirmation (isGenuineConfirmation): `amount` is the charged amount
   * recorded for the payment. Anything else is a BankRefusalError: Sadad's code (-1 no such
   * transaction, 101 too late: Sadad gave the money back itself), or NOT_THIS_PAYMENT for a verify
   * that names another amount or order.
   */
  async settle(paymentId: string, refNum: string, amount: number): Promise<BankOperationAnswer> {
    const answer = await this.call(SADAD_VERIFY_PATH, `settle:${paymentId}`, {
      Token: refNum,
      SignData: sadadSignature(refNum, this.key),
    });
    const confirmation = readVerifyAnswer(answer, paymentId, refNum, this.terminalId);
    if (confirmation.result === 'refused')
      throw new BankRefusalError(confirmation.code, `the bank refused the verify: ${confirmation.description}`);
    if (
      confirmation.result !== 'confirmed' ||
      !isGenuineConfirmation({ ...confirmation, terminal_matches: true }, { id: paymentId, amount }, refNum)
    ) {
      throw new BankRefusalError(
        SADAD_CODE.NOT_THIS_PAYMENT,
        "the bank's verify names another amount or order than the payment's",
      );
    }
    return { ref_num: refNum, result_code: wholeNumber(answer.ResCode) };
  }

  /**
   * Sadad has no reversal any reference shows (iran-payment-laravel: "IPG does not support
   * reversal"; a verified payment cannot be reversed), and a connector calls nothing no reference
   * shows: refused at once, without a call (docs/psps/sadad.md#no-reversal). The verify deadline's
   * reversal of a payment nobody verified never comes here: the bank activity asks Sadad nothing for
   * it (capture `merchant_verify`), since Sadad gives that money back by itself.
   */
  reverse(paymentId: string): Promise<BankOperationAnswer> {
    return Promise.reject(
      new BankRefusalError(
        SADAD_CODE.NO_SUCH_OPERATION,
        `Sadad has no reversal: payment ${paymentId} stays with the merchant (a refund is made outside Dargah)`,
      ),
    );
  }

  /** One JSON POST under the timeout (transport.ts): its answer's object, which must carry a ResCode. */
  private call(path: string, operationKey: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return postJsonObject(
      { baseUrl: this.endpoint.baseUrl, path, operationKey, timeoutMs: this.endpoint.timeoutMs, body },
      'ResCode',
    );
  }
}
