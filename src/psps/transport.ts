/**
 * The connectors' one transport kit: how a client reaches its PSP, so that each connector holds only
 * its protocol (which fields, which codes) and none owns a copy of the plumbing. Every call here:
 *
 * - runs under the call's timeout (BANK_TIMEOUT_MS, given to the client as `timeoutMs`);
 * - carries our operation key in the `X-Operation-Key` header (token:<payment>, confirm:<payment>, …),
 *   which the PSPs ignore and the simulator keeps, so that it does each operation once;
 * - is traced as a client span (`bank POST <path>`, `bank SOAP <operation>`);
 * - maps what is no answer (a refused connection, a timeout, a cut answer, a 5xx, a 429, a SOAP fault)
 *   to BankUnavailableError, which the activity retries, and leaves the PSP's refusals to the connector;
 * - never puts the request in an error: a request carries the terminal's secrets (a password in the
 *   body or the headers, a bearer token), so an error names the call and our operation key, and a
 *   transport's own message is given only with every secret of the call masked out.
 *
 * JSON: `postJson` (the answer's status and text), `postJsonObject` (the answer as an object that has
 * the protocol's result field), `bankHttp` (any method, the statuses judged by the caller). SOAP:
 * `SoapService`, one service's client from its WSDL, made once, and its calls.
 */
import { SpanKind } from '@opentelemetry/api';
import { createClientAsync, type Client, type IOptions } from 'soap';
import { inSpan } from '../observability/tracing.ts';
import { BankUnavailableError } from './psp-client.ts';

/** One HTTP call of a connector. */
export interface BankHttpRequest {
  /** The PSP's base address, no trailing slash. */
  baseUrl: string;
  /** The path under it (and its query, which the span leaves out). */
  path: string;
  method: 'GET' | 'POST';
  /** Our operation key, sent as X-Operation-Key and named in every error. */
  operationKey: string;
  timeoutMs: number;
  /** The JSON body, if any. */
  body?: Record<string, unknown>;
  /** Headers besides accept, content-type and the operation key: credentials, a bearer token. Never in an error. */
  headers?: Record<string, string>;
  /** Secrets sent in the body (a password), masked out of an error's text as the headers' values are. */
  secrets?: readonly string[];
  /** What an error calls the request (the protocol's name of the call); default its path. */
  label?: string;
}

export interface BankHttpAnswer {
  status: number;
  text: string;
}

/** `text` with every secret (of 4 characters or more: shorter ones would mask ordinary words) replaced by "***". */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  return secrets
    .filter((secret) => secret.length >= 4)
    .reduce((masked, secret) => masked.split(secret).join('***'), text);
}

/**
 * One HTTP call under the timeout, traced: the answer's status and text, whatever the status (the
 * caller judges it). No answer, a timeout or an answer cut before its end is BankUnavailableError.
 */
export function bankHttp(request: BankHttpRequest): Promise<BankHttpAnswer> {
  const { baseUrl, path, method, operationKey, timeoutMs, body, headers = {} } = request;
  const pathOnly = path.split('?')[0]!;
  return inSpan(
    `bank ${method} ${pathOnly}`,
    SpanKind.CLIENT,
    { 'http.request.method': method, 'url.path': pathOnly },
    async () => {
      try {
        const res = await fetch(`${baseUrl}${path}`, {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            accept: 'application/json',
            'x-operation-key': operationKey,
            ...headers,
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        return { status: res.status, text: await res.text() };
      } catch (error) {
        const why = maskSecrets(error instanceof Error ? error.message : String(error), [
          ...Object.values(headers),
          ...(request.secrets ?? []),
        ]);
        throw new BankUnavailableError(`the bank did not answer ${request.label ?? path} (${operationKey}): ${why}`);
      }
    },
  );
}

/** A JSON POST of a connector: a BankHttpRequest whose method is POST and whose body is JSON. */
export type JsonPost = Omit<BankHttpRequest, 'method' | 'body'> & {
  body: Record<string, unknown>;
  /** Statuses besides a 5xx and 429 that say the PSP cannot answer now (PEP's 401: its bearer token refused). */
  unavailableStatuses?: readonly number[];
};

/** One JSON POST under the timeout, traced: its status and text. No answer, a 5xx, a 429 (or one of `unavailableStatuses`) is BankUnavailableError. */
export async function postJson(post: JsonPost): Promise<BankHttpAnswer> {
  const answer = await bankHttp({ ...post, method: 'POST' });
  if (answer.status >= 500 || answer.status === 429 || post.unavailableStatuses?.includes(answer.status))
    throw new BankUnavailableError(`the bank answered ${answer.status} to ${post.path} (${post.operationKey})`);
  return answer;
}

/**
 * One JSON POST (postJson) whose answer must be a JSON object carrying the protocol's result field
 * (`field`, found by `has`: by default the field itself): that object. An answer without it says
 * nothing (a proxy's page, an answer cut short) and is BankUnavailableError.
 */
export async function postJsonObject(
  post: JsonPost,
  field: string,
  has: (answer: Record<string, unknown>) => boolean = (answer) => Object.hasOwn(answer, field),
): Promise<Record<string, unknown>> {
  const { status, text } = await postJson(post);
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer) || !has(answer as Record<string, unknown>))
    throw new BankUnavailableError(
      `the bank answered ${status} with no ${field} to ${post.path} (${post.operationKey})`,
    );
  return answer as Record<string, unknown>;
}

type SoapCall = (
  args: Record<string, unknown>,
  options: Record<string, unknown>,
  extraHeaders: Record<string, string>,
) => Promise<[Record<string, unknown> | null, ...unknown[]]>;

/**
 * One SOAP service of a PSP, spoken with the `soap` package from the service's own WSDL
 * ({url}?wsdl), its endpoint the service's address. The client is made once; a failure to get it is
 * forgotten, so the next call tries again.
 */
export class SoapService {
  private client: Promise<Client> | undefined;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly options: IOptions;

  constructor(
    url: string,
    timeoutMs: number,
    /** The `soap` package's options besides the WSDL's timeout (a customDeserializer). */
    options: IOptions = {},
  ) {
    this.url = url;
    this.timeoutMs = timeoutMs;
    this.options = options;
  }

  /**
   * One SOAP call under the timeout, traced: the answer's body object (null for an empty one). No
   * answer, a fault, a 5xx or an answer begun and never finished is BankUnavailableError, named by
   * the HTTP status or the transport's code only: a SOAP error can carry the request, and the
   * request carries the terminal's password.
   */
  call(
    operation: string,
    operationKey: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null> {
    return inSpan(
      `bank SOAP ${operation}`,
      SpanKind.CLIENT,
      { 'rpc.system': 'soap', 'rpc.method': operation },
      async () => {
        try {
          const client = await this.soapClient();
          const invoke = (client as unknown as Record<string, SoapCall>)[`${operation}Async`];
          if (invoke === undefined) throw new Error(`the service has no ${operation}`);
          const [answer] = await invoke.call(
            client,
            args,
            { timeout: this.timeoutMs },
            { 'x-operation-key': operationKey },
          );
          return answer;
        } catch (error) {
          const { response, code } = error as { response?: { status?: number }; code?: string };
          // A 2xx that failed is an answer begun and never finished (a slow PSP past the timeout, a cut connection).
          const status = response?.status;
          const why =
            status !== undefined
              ? status >= 300
                ? `: HTTP ${status}`
                : ': an incomplete answer'
              : typeof code === 'string'
                ? `: ${code}`
                : '';
          throw new BankUnavailableError(`the bank did not answer ${operation} (${operationKey})${why}`);
        }
      },
    );
  }

  private soapClient(): Promise<Client> {
    this.client ??= createClientAsync(`${this.url}?wsdl`, {
      ...this.options,
      wsdl_options: { timeout: this.timeoutMs },
    }).then(
      (client) => {
        client.setEndpoint(this.url);
        return client;
      },
      (error: unknown) => {
        this.client = undefined;
        throw error;
      },
    );
    return this.client;
  }
}
