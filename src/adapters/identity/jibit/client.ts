/**
 * The identity provider connector for Jibit's identity service (docs/identity.md). The same client
 * speaks to the bank simulator's identity module (BANK_SIM_PROTOCOL=jibit-identity, test mode) and to
 * Jibit (live mode). Every message is held against the conformance corpus
 * (test/fixtures/identity/jibit/), which is what public integrations show of Jibit, not what our
 * simulator says.
 *
 *   token  POST {base}/v1/tokens/generate {apiKey, secretKey} → {accessToken, refreshToken}
 *   card   GET  {base}/v1/cards?number=<16 digits>&iban=true   (Bearer) → {number, type, ibanInfo}
 *   iban   GET  {base}/v1/ibans?value=IR…                      (Bearer) → {value, ibanInfo}
 *   error  4xx {code, message}; a token Jibit no longer takes: 401/403 or code `forbidden`
 *
 * Only these three calls: no reference shows anything else this needs (the token refresh call some
 * integrations show is not used: a new token is asked for instead, docs/identity.md). Every call has a
 * timeout; no answer, a timeout, a 5xx or 429, an answer that cannot be read, and Jibit's codes that
 * say it cannot answer now are IdentityUnavailableError; Jibit's other codes are IdentityRefusalError
 * with that code. A card number is sent in the query, as every reference sends it, and is said
 * nowhere else: errors and spans name it masked (first 6, last 4), never the URL; the API key and
 * secret key are in the token request's body and nowhere else.
 */
import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../../../observability/tracing.ts';
import {
  IdentityRefusalError,
  IdentityUnavailableError,
  type CardAccount,
  type IbanAccount,
  type IdentityProvider,
} from '../contract.ts';
import {
  CARD_NUMBER,
  IDENTITY_INPUT_CODE,
  JIBIT_CARDS_PATH,
  JIBIT_FORBIDDEN,
  JIBIT_IBANS_PATH,
  JIBIT_TOKEN_PATH,
  JIBIT_UNAVAILABLE_CODES,
  maskCard,
  maskIban,
  readCardAnswer,
  readError,
  readIbanAnswer,
  SHEBA,
  type JibitReading,
} from './mapping.ts';

export interface JibitEndpoint {
  /** Base address, no trailing slash: Jibit's `https://napi.jibit.ir/ide`, or the simulator's `http://127.0.0.1:3120/ide`. */
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  /** The longest one call (the token's, an inquiry's) may take. */
  timeoutMs: number;
}

/**
 * How long a token is used before a new one is asked for: under the 24 hours the jibit-ir-sdk records
 * as Identicator's access-token lifetime. A token refused earlier (401/403, `forbidden`) is replaced at once.
 */
const TOKEN_REUSE_MS = 12 * 60 * 60 * 1000;

interface Answer {
  status: number;
  body: unknown;
}

/** A provider that speaks Jibit's identity API: the simulator in test mode, Jibit in live mode. */
export class JibitIdentityClient implements IdentityProvider {
  readonly name = 'jibit';
  private token: { value: string; at: number } | undefined;
  private pendingToken: Promise<string> | undefined;
  private readonly endpoint: JibitEndpoint;

  constructor(endpoint: JibitEndpoint) {
    this.endpoint = endpoint;
  }

  async cardToIban(cardNumber: string): Promise<CardAccount> {
    const card = typeof cardNumber === 'string' ? cardNumber : '';
    if (!CARD_NUMBER.test(card))
      throw new IdentityRefusalError(
        IDENTITY_INPUT_CODE.CARD,
        'a card number is 16 digits; the provider was not asked',
      );
    const said = `card ${maskCard(card)}`;
    const query = new URLSearchParams({ number: card, iban: 'true' });
    const answer = await this.inquire(JIBIT_CARDS_PATH, query, said);
    return this.judge(answer, said, (body) => readCardAnswer(body, card));
  }

  async ibanOwner(iban: string): Promise<IbanAccount> {
    const value = typeof iban === 'string' ? iban : '';
    if (!SHEBA.test(value))
      throw new IdentityRefusalError(
        IDENTITY_INPUT_CODE.IBAN,
        'an IBAN is IR and 24 digits; the provider was not asked',
      );
    const said = `IBAN ${maskIban(value)}`;
    const answer = await this.inquire(JIBIT_IBANS_PATH, new URLSearchParams({ value }), said);
    return this.judge(answer, said, (body) => readIbanAnswer(body, value));
  }

  /** An inquiry's answer as Dargah takes it: the account, Jibit's refusal, or the provider unavailable. */
  private judge<T>(answer: Answer, said: string, read: (body: unknown) => JibitReading<T>): T {
    if (answer.status >= 200 && answer.status < 300) {
      const reading = read(answer.body);
      if (reading.kind === 'account') return reading.account;
      throw new IdentityUnavailableError(`the identity provider's answer about ${said} could not be read`);
    }
    const error = readError(answer.body);
    if (answer.status >= 400 && answer.status < 500 && error !== undefined) {
      if (JIBIT_UNAVAILABLE_CODES.has(error.code))
        throw new IdentityUnavailableError(`the identity provider cannot answer about ${said} now (${error.code})`);
      throw new IdentityRefusalError(
        error.code,
        `the identity provider refused the inquiry of ${said} (${error.code})`,
      );
    }
    throw new IdentityUnavailableError(`the identity provider answered ${answer.status} about ${said}`);
  }

  /** A GET of an inquiry with the current token; a token Jibit no longer takes is replaced, and the inquiry asked again, once. */
  private async inquire(path: string, query: URLSearchParams, said: string): Promise<Answer> {
    let answer = await this.get(path, query, await this.currentToken(), said);
    if (this.tokenRefused(answer)) {
      this.token = undefined;
      answer = await this.get(path, query, await this.currentToken(), said);
      if (this.tokenRefused(answer))
        throw new IdentityUnavailableError(`the identity provider does not take our token (${said} not asked)`);
    }
    return answer;
  }

  private tokenRefused(answer: Answer): boolean {
    return answer.status === 401 || answer.status === 403 || readError(answer.body)?.code === JIBIT_FORBIDDEN;
  }

  /** The token in use, or a new one (one request at a time however many inquiries wait for it). */
  private currentToken(): Promise<string> {
    if (this.token !== undefined && Date.now() - this.token.at < TOKEN_REUSE_MS)
      return Promise.resolve(this.token.value);
    this.pendingToken ??= this.generateToken().finally(() => {
      this.pendingToken = undefined;
    });
    return this.pendingToken;
  }

  private async generateToken(): Promise<string> {
    const answer = await this.call(JIBIT_TOKEN_PATH, 'the token', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ apiKey: this.endpoint.apiKey, secretKey: this.endpoint.secretKey }),
    });
    const body = answer.body as { accessToken?: unknown } | null;
    const value = typeof body?.accessToken === 'string' ? body.accessToken : '';
    if (answer.status !== 200 || value === '') {
      // Our credentials or our account at Jibit: the operator's to mend, never the customer's; the keys are not said.
      const code = readError(answer.body)?.code;
      throw new IdentityUnavailableError(
        `the identity provider gave no token (${answer.status}${code === undefined ? '' : ` ${code}`}): check IDENTITY_API_KEY and IDENTITY_SECRET_KEY`,
      );
    }
    this.token = { value, at: Date.now() };
    return value;
  }

  private get(path: string, query: URLSearchParams, token: string, said: string): Promise<Answer> {
    return this.call(
      path,
      said,
      { method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${token}` } },
      query,
    );
  }

  /** One HTTP call under the timeout, traced by its path only (the query holds the card or IBAN). */
  private call(path: string, said: string, init: RequestInit, query?: URLSearchParams): Promise<Answer> {
    const method = init.method ?? 'GET';
    return inSpan(
      `identity ${method} ${path}`,
      SpanKind.CLIENT,
      { 'http.request.method': method, 'url.path': path },
      async () => {
        let res: Response;
        let text: string;
        try {
          res = await fetch(`${this.endpoint.baseUrl}${path}${query === undefined ? '' : `?${query.toString()}`}`, {
            ...init,
            signal: AbortSignal.timeout(this.endpoint.timeoutMs),
          });
          text = await res.text();
        } catch (error) {
          // The error's name only: neither the URL (the card is in its query) nor the request is said.
          const why = error instanceof Error && error.name === 'TimeoutError' ? 'no answer in time' : 'no answer';
          throw new IdentityUnavailableError(`the identity provider gave ${why} to ${method} ${path} (${said})`);
        }
        let body: unknown = null;
        try {
          body = text === '' ? null : JSON.parse(text);
        } catch {
          body = null;
        }
        if (res.status >= 500 || res.status === 429)
          throw new IdentityUnavailableError(
            `the identity provider answered ${res.status} to ${method} ${path} (${said})`,
          );
        return { status: res.status, body };
      },
    );
  }
}
