/** A small HTTP client for tests: real requests to a real server, every API answer checked against the OpenAPI document. */
import { assertMatchesContract, isContractPath } from './contract.ts';

export interface TestResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

export async function request<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isContractPath(path)) assertMatchesContract(method, path, res.status, parsed);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A merchant's view of the API: every call carries its key. */
export function client(baseUrl: string, key: string) {
  return {
    get: <T = Record<string, unknown>>(path: string, o: RequestOptions = {}) =>
      request<T>(baseUrl, 'GET', `/api/v1${path}`, { key, ...o }),
    post: <T = Record<string, unknown>>(path: string, body?: unknown, o: RequestOptions = {}) =>
      request<T>(baseUrl, 'POST', `/api/v1${path}`, { key, ...(body === undefined ? {} : { body }), ...o }),
    del: <T = Record<string, unknown>>(path: string, o: RequestOptions = {}) =>
      request<T>(baseUrl, 'DELETE', `/api/v1${path}`, { key, ...o }),
  };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
