/**
 * The first PSP connector: a Shaparak PSP's internet payment gateway (IPG) over SEP (Saman
 * Electronic Payment)'s REST protocol, behind the PspClient contract (psp-client.ts). The same
 * client speaks to the bank simulator (src/bank-sim, test mode) and to a real SEP (live mode); only
 * the address and the terminal's credentials differ. Every message it sends or reads is one of the
 * conformance corpus (test/fixtures/psps/sep/), read from independent public integrations; the
 * protocol, each field's sources and what no reference settles are in docs/psps/sep.md.
 *
 *   token   POST {base}/onlinepg/onlinepg  {action:"token", TerminalId, Amount, ResNum, RedirectUrl}
 *   page    GET  {base}/OnlinePG/SendToken?token=…   (the customer's browser)
 *   return  the page's form post (State, Status, RefNum, ResNum, …) or the guide's query (Token, RefNum): mapping.ts
 *   confirm POST {base}/verifyTxnRandomSessionkey/ipg/VerifyTransaction  {RefNum, TerminalNumber}
 *   reverse POST {base}/verifyTxnRandomSessionkey/ipg/ReverseTransaction {RefNum, TerminalNumber}
 *
 * Nothing else: SEP has no settle (its verify is final), no inquiry by ResNum, no refund and no
 * report call (the capabilities below). Password goes with a call only when the terminal has one.
 * Every call has a timeout and carries our own operation key (header `X-Operation-Key`:
 * confirm:<payment>, reverse:<payment>), which the simulator uses to do each operation once; SEP
 * ignores it, and its own "repeated request" (2) answers a repeat.
 */
import {
  BankRefusalError,
  BankUnavailableError,
  type BankEndpoint,
  type BankOperationAnswer,
  type BankToken,
  type Confirmation,
  type PspCapabilities,
  type PspClient,
} from '../psp-client.ts';
import { RESULT, SEP_REF_NUM } from './mapping.ts';
import { SEP_PROFILE } from './profile.ts';
import { postJson } from '../transport.ts';

export { RESULT } from './mapping.ts';

/** SEP's answer to VerifyTransaction and ReverseTransaction (the corpus's verify-answer-*.json, reverse-answer-*.json). */
interface VerifyAnswer {
  TransactionDetail?: {
    /** A 12-digit string; a client that read it as a number may have lost a leading zero (docs/psps/sep.md). */
    RRN?: string | number;
    RefNum?: string;
    MaskedPan?: string;
    /** 64 hex digits; how SEP computes it no reference settles (docs/psps/sep.md). */
    HashedPan?: string;
    TerminalNumber?: number | string;
    OrginalAmount?: number | string;
    AffectiveAmount?: number | string;
    StraceDate?: string;
    StraceNo?: string | number;
  };
  ResultCode?: number | string;
  ResultDescription?: string;
  Success?: boolean;
}

/** A verify or reverse answer's code: its ResultCode, or the bare number some answers are (the corpus's verify-answer-bare-code.json); -1 when neither. */
export function resultCode(answer: unknown): number {
  const raw =
    typeof answer === 'number' || typeof answer === 'string' ? answer : (answer as VerifyAnswer | null)?.ResultCode;
  const code = typeof raw === 'string' && /^-?[0-9]+$/.test(raw.trim()) ? Number(raw) : raw;
  return typeof code === 'number' && Number.isSafeInteger(code) ? code : -1;
}

/** An amount field as SEP's clients see it: a number, or digits in a string; NaN otherwise. */
const wholeRials = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : Number.NaN;

/** SEP's RRN, 12 digits: a number that lost its leading zeros gets them back. */
const rrnOf = (v: unknown): string =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
    ? String(v).padStart(12, '0')
    : typeof v === 'string'
      ? v.trim()
      : '';

/** SEP's capabilities as its references show them (docs/psps/sep.md#capabilities): its profile's. */
export const SEP_CAPABILITIES: PspCapabilities = SEP_PROFILE.capabilities;

/** A PSP that speaks SEP's protocol: the bank simulator in test mode, the PSP's own IPG in live mode. */
export class SepClient implements PspClient {
  readonly name = 'sep' as const;
  readonly capabilities: PspCapabilities = SEP_CAPABILITIES;
  readonly endpoint: BankEndpoint;

  constructor(endpoint: BankEndpoint) {
    this.endpoint = endpoint;
  }

  get terminalId(): string {
    return this.endpoint.terminalId;
  }

  async requestToken(paymentId: string, amount: number, redirectUrl: string): Promise<BankToken> {
    const answer = await this.call<{ status?: number; token?: string; errorCode?: string; errorDesc?: string }>(
      '/onlinepg/onlinepg',
      `token:${paymentId}`,
      {
        action: 'token',
        TerminalId: this.endpoint.terminalId,
        Amount: amount,
        ResNum: paymentId,
        RedirectUrl: redirectUrl,
        ...this.credentials(),
      },
    );
    if (answer.status !== 1 || typeof answer.token !== 'string' || !/^[A-Za-z0-9_-]{8,64}$/.test(answer.token)) {
      throw new BankRefusalError(
        Number(answer.errorCode ?? -1),
        answer.errorDesc ?? 'the bank refused the token request',
      );
    }
    return { token: answer.token, url: this.pageUrl(answer.token), method: 'GET', fields: {} };
  }

  pageUrl(token: string): string {
    return `${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}/OnlinePG/SendToken?token=${encodeURIComponent(token)}`;
  }

  async confirm(paymentId: string, refNum: string, amount?: number): Promise<Confirmation> {
    const answer = await this.call<VerifyAnswer | number>(
      '/verifyTxnRandomSessionkey/ipg/VerifyTransaction',
      `confirm:${paymentId}`,
      this.byRef(refNum),
    );
    return readVerifyAnswer(answer, amount);
  }

  reverse(paymentId: string, refNum: string): Promise<BankOperationAnswer> {
    return this.operation(
      '/verifyTxnRandomSessionkey/ipg/ReverseTransaction',
      `reverse:${paymentId}`,
      this.byRef(refNum),
    );
  }

  /** The terminal's password on every server-to-server call, when it has one. */
  private credentials(): { Password?: string } {
    return this.endpoint.password === '' ? {} : { Password: this.endpoint.password };
  }

  /** The verify family's body: RefNum and TerminalNumber, a number as the references send it when the terminal is all digits. */
  private byRef(refNum: string) {
    const terminal = this.endpoint.terminalId;
    const asNumber = /^[0-9]{1,15}$/.test(terminal) ? Number(terminal) : Number.NaN;
    return {
      RefNum: refNum,
      TerminalNumber: Number.isSafeInteger(asNumber) ? asNumber : terminal,
      ...this.credentials(),
    };
  }

  /** The reversal: done (0), or done before (2 a repeated request, 5 already reversed); any other code is the PSP's refusal. */
  private async operation(path: string, key: string, body: Record<string, unknown>): Promise<BankOperationAnswer> {
    const answer = await this.call<VerifyAnswer | number>(path, key, body);
    const code = resultCode(answer);
    if (code !== RESULT.OK && code !== RESULT.DUPLICATE && code !== RESULT.REVERSED) {
      const description = typeof answer === 'object' && answer !== null ? answer.ResultDescription : undefined;
      throw new BankRefusalError(code, description ?? `the bank refused (${code})`);
    }
    return { ref_num: String(body.RefNum), result_code: code };
  }

  /** One JSON POST under the timeout (transport.ts), its answer read as JSON. Also the payouts' transport (payout.ts). */
  async call<T>(path: string, operationKey: string, body: Record<string, unknown>): Promise<T> {
    const { status, text } = await postJson({
      baseUrl: this.endpoint.baseUrl,
      path,
      operationKey,
      timeoutMs: this.endpoint.timeoutMs,
      body,
      secrets: [this.endpoint.password],
    });
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new BankUnavailableError(`the bank answered ${status} with no JSON to ${path} (${operationKey})`);
    }
  }
}

/**
 * SEP's verify answer as a Confirmation (the corpus's verify-answer-*.json). 0, or 2 (a repeat of
 * our own verify) with a TransactionDetail, confirms; the detail names no ResNum, so `res_num` is
 * null and the workflow matches the RefNum, amount and terminal. Its amount is the charged `amount`
 * only when both OrginalAmount and AffectiveAmount (where given) are that amount: the references
 * hold one or the other against the order, Dargah both. A bare 2 and every other code refuse.
 */
export function readVerifyAnswer(answer: VerifyAnswer | number, amount?: number): Confirmation {
  const code = resultCode(answer);
  if (code === RESULT.IN_PROGRESS) return { result: 'in_progress' };
  const body = typeof answer === 'object' && answer !== null ? answer : {};
  const d = body.TransactionDetail;
  if ((code === RESULT.OK || code === RESULT.DUPLICATE) && d !== undefined && d !== null) {
    const original = wholeRials(d.OrginalAmount);
    const affective = d.AffectiveAmount === undefined ? original : wholeRials(d.AffectiveAmount);
    const agreed =
      original === affective ? original : amount !== undefined && original === amount ? affective : original;
    const refNum = typeof d.RefNum === 'string' && SEP_REF_NUM.test(d.RefNum) ? d.RefNum : '';
    return {
      result: 'confirmed',
      ref_num: refNum,
      res_num: null,
      amount: Number.isSafeInteger(agreed) ? agreed : -1,
      terminal: String(d.TerminalNumber ?? ''),
      rrn: rrnOf(d.RRN),
      card_pan: String(d.MaskedPan ?? ''),
      // The card as SEP names it server to server: the only word on it a card restriction trusts.
      ...(typeof d.HashedPan === 'string' && /^[0-9A-Fa-f]{64}$/.test(d.HashedPan)
        ? { card_sha256: d.HashedPan.toLowerCase() }
        : {}),
    };
  }
  return { result: 'refused', code, description: body.ResultDescription ?? '' };
}
