/**
 * The first PSP connector: a Shaparak PSP's internet payment gateway (IPG)
 * over SEP (Saman Electronic Payment)'s REST protocol (docs/BANK.md), behind
 * the PspClient contract (psp-client.ts). The same client speaks to the bank simulator
 * (src/bank-sim, test mode) and to a real PSP (live mode); only the address
 * and the terminal's credentials differ. Its messages' meanings are in
 * mapping.ts; the protocol and what Dargah does with each code in docs/psps/sep.md.
 *
 *   token   POST {base}/onlinepg/onlinepg  {action:"token", TerminalId, Amount, ResNum, RedirectUrl}
 *   (every server-to-server call also carries Password when the terminal has one)
 *   page    GET  {base}/OnlinePG/SendToken?token=…   (the customer's browser)
 *   confirm POST {base}/verifyTxnRandomSessionkey/ipg/VerifyTransaction  {RefNum, TerminalNumber}
 *   inquire POST {base}/verifyTxnRandomSessionkey/ipg/InquiryTransaction {ResNum, TerminalNumber}
 *   settle  POST {base}/verifyTxnRandomSessionkey/ipg/SettleTransaction  {RefNum, TerminalNumber}
 *   reverse POST {base}/verifyTxnRandomSessionkey/ipg/ReverseTransaction {RefNum, TerminalNumber}
 *   refund  POST {base}/verifyTxnRandomSessionkey/ipg/RefundTransaction  {RefNum, TerminalNumber, Amount, RefundId}
 *   report  POST {base}/verifyTxnRandomSessionkey/ipg/TransactionReport  {TerminalNumber, Date}  → CSV (report.ts, modelled)
 *
 * Every call has a timeout and carries our own operation key (header
 * `X-Operation-Key`: confirm:<payment>, inquire:<payment>, settle:<payment>,
 * reverse:<payment>, refund:<refund>); the bank does each operation once per key and answers a
 * repeat with the first answer, so the workflow may retry freely.
 */
import { SpanKind } from '@opentelemetry/api';
import type { BankCallback } from '../../../domain/payment-workflow.ts';
import { inSpan } from '../../../observability/tracing.ts';
import {
  BankRefusalError,
  BankUnavailableError,
  type BankEndpoint,
  type BankOperationAnswer,
  type BankReportLine,
  type BankToken,
  type Confirmation,
  type Inquiry,
  type PspCapabilities,
  type PspClient,
} from '../psp-client.ts';
import { INQUIRY_STANDING, RESULT, sepCallback } from './mapping.ts';
import { parseSepReport } from './report.ts';

export { RESULT } from './mapping.ts';

interface VerifyAnswer {
  TransactionDetail?: {
    RRN?: string;
    RefNum?: string;
    ResNum?: string;
    MaskedPan?: string;
    /** The SHA-256 of the full card, hex (the simulator fills it; SEP's documents name the field). */
    HashedPan?: string;
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
  readonly name = 'sep' as const;
  /**
   * What SEP offers as its merchant guide (v4.1) and the public integrations show it (issue 41): its
   * VerifyTransaction is final, ReverseTransaction undoes it within 50 minutes, a sale not verified
   * within 30 is reversed by SEP itself; no refund call, no inquiry by ResNum, no daily report call.
   */
  readonly capabilities: PspCapabilities = { capture: 'verify', reversalWindowMs: 50 * 60_000, unverifiedReversalMs: 30 * 60_000, refund: 'none', inquiry: false, dailyReport: false };

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
      ...this.credentials(),
    });
    if (answer.status !== 1 || typeof answer.token !== 'string' || !/^[A-Za-z0-9_-]{8,64}$/.test(answer.token)) {
      throw new BankRefusalError(Number(answer.errorCode ?? -1), answer.errorDesc ?? 'the bank refused the token request');
    }
    return { token: answer.token, url: this.pageUrl(answer.token), method: 'GET', fields: {} };
  }

  parseCallback(fields: Record<string, string>, paymentId?: string): BankCallback | undefined {
    return sepCallback(fields, paymentId);
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
        // The card as SEP names it server to server: the only word on it a card restriction trusts.
        ...(typeof d.HashedPan === 'string' && /^[0-9A-Fa-f]{64}$/.test(d.HashedPan) ? { card_sha256: d.HashedPan.toLowerCase() } : {}),
      };
    }
    return { result: 'refused', code, description: answer.ResultDescription ?? '' };
  }

  async inquire(paymentId: string): Promise<Inquiry> {
    const answer = await this.call<{ ResultCode?: number; Status?: string }>('/verifyTxnRandomSessionkey/ipg/InquiryTransaction', `inquire:${paymentId}`, {
      ResNum: paymentId,
      TerminalNumber: this.endpoint.terminalId,
      ...this.credentials(),
    });
    if (answer.ResultCode !== RESULT.OK) return { standing: 'open' }; // unknown to the bank: nothing it decided
    const status = String(answer.Status ?? '');
    return { standing: Object.hasOwn(INQUIRY_STANDING, status) ? INQUIRY_STANDING[status]! : 'open' };
  }

  settle(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    return this.operation('/verifyTxnRandomSessionkey/ipg/SettleTransaction', `settle:${paymentId}`, this.byRef(refNum));
  }

  reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    return this.operation('/verifyTxnRandomSessionkey/ipg/ReverseTransaction', `reverse:${paymentId}`, this.byRef(refNum));
  }

  refund(paymentId: string, refNum: string, refundId: string, amount: number): Promise<BankOperationAnswer> {
    void paymentId;
    return this.operation('/verifyTxnRandomSessionkey/ipg/RefundTransaction', `refund:${refundId}`, { ...this.byRef(refNum), Amount: amount, RefundId: refundId });
  }

  /** The terminal's transactions of the Tehran day `day`: SEP's CSV report (report.ts); an answer that is not one is BankUnavailableError. */
  async dailyReport(day: string): Promise<BankReportLine[]> {
    const path = '/verifyTxnRandomSessionkey/ipg/TransactionReport';
    const key = `report:${this.endpoint.terminalId}:${day}`;
    const { status, text } = await inSpan(`bank POST ${path}`, SpanKind.CLIENT, { 'http.request.method': 'POST', 'url.path': path }, () =>
      this.post(path, key, { TerminalNumber: this.endpoint.terminalId, Date: day, ...this.credentials() }),
    );
    if (status !== 200) throw new BankUnavailableError(`the bank answered ${status} to ${path} (${key})`);
    return parseSepReport(text, this.endpoint.terminalId, day);
  }

  /** The terminal's password on every server-to-server call, when it has one. */
  private credentials(): { Password?: string } {
    return this.endpoint.password === '' ? {} : { Password: this.endpoint.password };
  }

  private byRef(refNum: string) {
    return { RefNum: refNum, TerminalNumber: this.endpoint.terminalId, ...this.credentials() };
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
    const { status, text } = await this.post(path, operationKey, body);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new BankUnavailableError(`the bank answered ${status} with no JSON to ${path} (${operationKey})`);
    }
  }

  /** One POST under the timeout: the answer's status and text; no answer, a 5xx or a 429 is BankUnavailableError. */
  private async post(path: string, operationKey: string, body: Record<string, unknown>): Promise<{ status: number; text: string }> {
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
    return { status: res.status, text };
  }
}
