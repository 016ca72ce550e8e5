/**
 * The first PSP connector: a Shaparak PSP's internet payment gateway (IPG)
 * over SEP (Saman Electronic Payment)'s REST protocol (docs/BANK.md), behind
 * the PspClient contract (psp-client.ts). The same client speaks to the bank simulator
 * (src/bank-sim, test mode) and to a real PSP (live mode); only the address
 * and the terminal's credentials differ.
 *
 *   token   POST {base}/onlinepg/onlinepg  {action:"token", TerminalId, Amount, ResNum, RedirectUrl}
 *   page    GET  {base}/OnlinePG/SendToken?token=…   (the customer's browser)
 *   confirm POST {base}/verifyTxnRandomSessionkey/ipg/VerifyTransaction  {RefNum, TerminalNumber}
 *   settle  POST {base}/verifyTxnRandomSessionkey/ipg/SettleTransaction  {RefNum, TerminalNumber}
 *   reverse POST {base}/verifyTxnRandomSessionkey/ipg/ReverseTransaction {RefNum, TerminalNumber}
 *   refund  POST {base}/verifyTxnRandomSessionkey/ipg/RefundTransaction  {RefNum, TerminalNumber, Amount, RefundId}
 *
 * Every call has a timeout and carries our own operation key (header
 * `X-Operation-Key`: confirm:<payment>, settle:<payment>, reverse:<payment>,
 * refund:<refund>); the bank does each operation once per key and answers a
 * repeat with the first answer, so the workflow may retry freely.
 */
import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../../observability/tracing.ts';
import { BankRefusalError, BankUnavailableError, type BankEndpoint, type BankOperationAnswer, type BankToken, type Confirmation, type PspClient } from './psp-client.ts';

/** SEP's result codes that matter here (ResultCode of the verify family). */
export const RESULT = {
  OK: 0,
  /** Already done with this RefNum: SEP answers a repeated verify with 2 and the same detail. */
  DUPLICATE: 2,
  /** Our extension for "delay in verification": ask again later. */
  IN_PROGRESS: 100,
  NOT_FOUND: -2,
} as const;

interface VerifyAnswer {
  TransactionDetail?: {
    RRN?: string;
    RefNum?: string;
    ResNum?: string;
    MaskedPan?: string;
    TerminalNumber?: number | string;
    OrginalAmount?: number;
    AffectiveAmount?: number;
  };
  ResultCode?: number;
  ResultDescription?: string;
  Success?: boolean;
}

/** A PSP that speaks SEP's protocol: the bank simulator in test mode, the PSP's own IPG in live mode. */
export class SepClient implements PspClient {
  constructor(readonly endpoint: BankEndpoint) {}

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    const answer = await this.call<{ status?: number; token?: string; errorCode?: string; errorDesc?: string }>('/onlinepg/onlinepg', `token:${paymentId}`, {
      action: 'token',
      TerminalId: this.endpoint.terminalId,
      Amount: amount,
      ResNum: paymentId,
      RedirectUrl: redirectUrl,
    });
    if (answer.status !== 1 || typeof answer.token !== 'string' || !/^[A-Za-z0-9_-]{8,64}$/.test(answer.token)) {
      throw new BankRefusalError(Number(answer.errorCode ?? -1), answer.errorDesc ?? 'the bank refused the token request');
    }
    return { token: answer.token, url: this.pageUrl(answer.token) };
  }

  pageUrl(token: string): string {
    return `${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}/OnlinePG/SendToken?token=${encodeURIComponent(token)}`;
  }

  async confirm(paymentId: string, refNum: string): Promise<Confirmation> {
    const answer = await this.call<VerifyAnswer>('/verifyTxnRandomSessionkey/ipg/VerifyTransaction', `confirm:${paymentId}`, this.byRef(refNum));
    const code = answer.ResultCode ?? -1;
    if (code === RESULT.IN_PROGRESS) return { result: 'in_progress' };
    const d = answer.TransactionDetail;
    if ((code === RESULT.OK || code === RESULT.DUPLICATE) && d !== undefined) {
      return {
        result: 'confirmed',
        ref_num: String(d.RefNum ?? ''),
        res_num: String(d.ResNum ?? ''),
        amount: Number(d.OrginalAmount),
        terminal: String(d.TerminalNumber ?? ''),
        rrn: String(d.RRN ?? ''),
        card_pan: String(d.MaskedPan ?? ''),
      };
    }
    return { result: 'refused', code, description: answer.ResultDescription ?? '' };
  }

  settle(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    return this.operation('/verifyTxnRandomSessionkey/ipg/SettleTransaction', `settle:${paymentId}`, this.byRef(refNum));
  }

  reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    return this.operation('/verifyTxnRandomSessionkey/ipg/ReverseTransaction', `reverse:${paymentId}`, this.byRef(refNum));
  }

  refund(refNum: string, refundId: string, amount: number): Promise<BankOperationAnswer> {
    return this.operation('/verifyTxnRandomSessionkey/ipg/RefundTransaction', `refund:${refundId}`, { ...this.byRef(refNum), Amount: amount, RefundId: refundId });
  }

  private byRef(refNum: string) {
    return { RefNum: refNum, TerminalNumber: this.endpoint.terminalId, ...(this.endpoint.password === '' ? {} : { Password: this.endpoint.password }) };
  }

  private async operation(path: string, key: string, body: Record<string, unknown>): Promise<BankOperationAnswer> {
    const answer = await this.call<VerifyAnswer>(path, key, body);
    const code = answer.ResultCode ?? -1;
    if (code !== RESULT.OK && code !== RESULT.DUPLICATE) throw new BankRefusalError(code, answer.ResultDescription ?? `the bank refused (${code})`);
    return { ref_num: String(body.RefNum), result_code: code };
  }

  /** One JSON POST under the timeout; a network failure, a timeout or a 5xx is BankUnavailableError. Also the payouts' transport (payout.ts). */
  async call<T>(path: string, operationKey: string, body: Record<string, unknown>): Promise<T> {
    return inSpan(`bank POST ${path}`, SpanKind.CLIENT, { 'http.request.method': 'POST', 'url.path': path }, () => this.callUntraced<T>(path, operationKey, body));
  }

  private async callUntraced<T>(path: string, operationKey: string, body: Record<string, unknown>): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.endpoint.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-operation-key': operationKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.endpoint.timeoutMs),
      });
    } catch (error) {
      throw new BankUnavailableError(`the bank did not answer ${path} (${operationKey}): ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = await res.text().catch(() => '');
    if (res.status >= 500 || res.status === 429) throw new BankUnavailableError(`the bank answered ${res.status} to ${path} (${operationKey})`);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new BankUnavailableError(`the bank answered ${res.status} with no JSON to ${path} (${operationKey})`);
    }
  }
}
