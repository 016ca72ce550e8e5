/**
 * ZarinPal's Payman, the direct debit service of ZarinPal's v4 API (docs/psps/zarinpal-payman.md). The
 * same client speaks to the simulator (test mode) and to ZarinPal (live mode); every message is the
 * corpus's (test/fixtures/direct-debit/zarinpal/), which is what ZarinPal's page and independent
 * integrations show, not what our simulator says.
 *
 *   request   POST {api}/pg/v4/payman/request.json  {merchant_id, mobile, ssn?, expire_at, max_daily_count, max_monthly_count, max_amount, callback_url}
 *             → data.payman_authority
 *   banks     GET  {api}/pg/v4/payman/banksList.json → data.banks[{name, slug, bank_code, max_daily_amount, max_daily_count}]
 *   page      GET  {page}/pg/StartPayman/{payman_authority}/{bank_code}   (the customer's browser)
 *   return    GET  {callback_url}?payman_authority=…&status=OK|NOK
 *   verify    POST {api}/pg/v4/payman/verify.json {merchant_id, payman_authority} → data.signature (200 characters)
 *   prepare   POST {api}/pg/v4/payment/request.json {merchant_id, amount, callback_url, description, metadata} → data.authority
 *   checkout  POST {api}/pg/v4/payman/checkout.json {merchant_id, authority, signature} → data.refrence_id, data.amount
 *   cancel    POST {api}/pg/v4/payman/cancelContract.json {merchant_id, signature}
 *
 * No other call: no reference shows an inquiry of a contract or a transaction, or a refund of one.
 * Every call has a timeout and carries our operation key (X-Operation-Key), which ZarinPal ignores
 * and the simulator keeps. The signature is in no error, log or span: a message names the call and
 * the mandate or debit, never a body.
 */
import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../../../observability/tracing.ts';
import {
  ProviderRefusalError,
  ProviderUnavailableError,
  type DirectDebitProvider,
  type MandateRequest,
  type MandateReturn,
  type ProviderBank,
  type ProviderDebit,
} from '../contract.ts';
import {
  checkoutReference,
  PAYMAN_PATHS,
  PAYMAN_SIGNATURE_LENGTH,
  PAYMAN_TOKEN,
  paymanData,
  paymanDateTime,
  paymanError,
  paymanPagePath,
  paymanReturn,
} from './mapping.ts';
import { ZARINPAL_PAYMAN_PROFILE } from './profile.ts';

export interface ZarinpalPaymanEndpoint {
  /** The API's origin (https://api.zarinpal.com, or the simulator's), no trailing slash. */
  baseUrl: string;
  /** The signing page's origin as customers' browsers reach it (https://www.zarinpal.com); default baseUrl. */
  pageBaseUrl?: string;
  /** The merchant's 36-character id at ZarinPal. */
  merchantId: string;
  timeoutMs: number;
}

export class ZarinpalPaymanClient implements DirectDebitProvider {
  readonly name = ZARINPAL_PAYMAN_PROFILE.name;
  readonly endpoint: ZarinpalPaymanEndpoint;

  constructor(endpoint: ZarinpalPaymanEndpoint) {
    this.endpoint = endpoint;
  }

  async requestMandate(request: MandateRequest): Promise<{ authority: string }> {
    // Every value a string, as ZarinPal's own sample sends them; ssn only when the merchant gave one.
    const answer = await this.call('POST', PAYMAN_PATHS.request, `mandate:${request.mandateId}`, {
      merchant_id: this.endpoint.merchantId,
      mobile: request.mobile,
      ...(request.nationalCode === null ? {} : { ssn: request.nationalCode }),
      expire_at: paymanDateTime(request.expiresAt),
      max_daily_count: String(request.maxDailyCount),
      max_monthly_count: String(request.maxMonthlyCount),
      max_amount: String(request.maxAmount),
      callback_url: request.returnUrl,
    });
    const data = this.accepted(answer, 'request');
    const authority = data.payman_authority;
    if (typeof authority !== 'string' || !PAYMAN_TOKEN.test(authority))
      throw new ProviderUnavailableError('the provider answered request.json without a usable payman_authority');
    return { authority };
  }

  async banks(): Promise<ProviderBank[]> {
    const data = this.accepted(await this.call('GET', PAYMAN_PATHS.banks, 'banks', undefined), 'banksList');
    if (!Array.isArray(data.banks))
      throw new ProviderUnavailableError('the provider answered banksList.json without banks');
    const count = (value: unknown) =>
      typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
    return (data.banks as unknown[]).flatMap((bank): ProviderBank[] => {
      if (typeof bank !== 'object' || bank === null) return [];
      const { bank_code, name, max_daily_amount, max_daily_count } = bank as Record<string, unknown>;
      if (typeof bank_code !== 'string' || !PAYMAN_TOKEN.test(bank_code)) return [];
      return [
        {
          code: bank_code,
          name: typeof name === 'string' && name !== '' ? name : bank_code,
          maxDailyAmount: count(max_daily_amount),
          maxDailyCount: count(max_daily_count),
        },
      ];
    });
  }

  signingPageUrl(authority: string, bankCode: string): string {
    return `${this.endpoint.pageBaseUrl ?? this.endpoint.baseUrl}${paymanPagePath(authority, bankCode)}`;
  }

  parseReturn(query: Record<string, string>): MandateReturn | undefined {
    return paymanReturn(query);
  }

  async signature(authority: string, mandateId: string): Promise<string> {
    const answer = await this.call('POST', PAYMAN_PATHS.verify, `verify:${mandateId}`, {
      merchant_id: this.endpoint.merchantId,
      payman_authority: authority,
    });
    const data = this.accepted(answer, 'verify');
    const signature = data.signature;
    // The documented length is all that is known of its shape; anything else is no signature to store.
    if (typeof signature !== 'string' || signature.length !== PAYMAN_SIGNATURE_LENGTH || /\s/.test(signature))
      throw new ProviderUnavailableError(
        'the provider answered verify.json without a signature of the documented shape',
      );
    return signature;
  }

  async prepareDebit({
    debitId,
    amount,
    mobile,
    returnUrl,
  }: {
    debitId: string;
    amount: number;
    mobile: string;
    returnUrl: string;
  }): Promise<{ authority: string }> {
    const answer = await this.call('POST', PAYMAN_PATHS.paymentRequest, `prepare:${debitId}`, {
      merchant_id: this.endpoint.merchantId,
      amount,
      callback_url: returnUrl,
      description: `Dargah direct debit ${debitId}`,
      metadata: { mobile, order_id: debitId },
    });
    const data = this.accepted(answer, 'payment request');
    const authority = data.authority;
    if (typeof authority !== 'string' || !PAYMAN_TOKEN.test(authority))
      throw new ProviderUnavailableError('the provider answered payment/request.json without an authority');
    return { authority };
  }

  async debit({
    debitId,
    authority,
    signature,
    amount,
  }: {
    debitId: string;
    authority: string;
    signature: string;
    amount: number;
  }): Promise<ProviderDebit> {
    const answer = await this.call('POST', PAYMAN_PATHS.checkout, `checkout:${debitId}`, {
      merchant_id: this.endpoint.merchantId,
      authority,
      signature,
    });
    const data = this.accepted(answer, 'checkout');
    const reference = checkoutReference(data);
    if (reference === undefined)
      throw new ProviderUnavailableError('the provider answered checkout.json with code 100 and no reference');
    // The amount is only in ZarinPal's table and one integration: held to the debit's when present.
    const taken = data.amount === undefined ? amount : data.amount;
    if (taken !== amount)
      throw new ProviderRefusalError(-1, `the provider took ${JSON.stringify(taken)} rials for a debit of ${amount}`);
    return { reference, amount };
  }

  async cancel(signature: string, mandateId: string): Promise<void> {
    const answer = await this.call('POST', PAYMAN_PATHS.cancel, `cancel:${mandateId}`, {
      merchant_id: this.endpoint.merchantId,
      signature,
    });
    this.accepted(answer, 'cancelContract');
  }

  /** The data of an answer with code 100; an errors answer is a refusal; anything else is unavailability. */
  private accepted(answer: Record<string, unknown>, call: string): Record<string, unknown> {
    const data = paymanData(answer);
    if (data !== undefined) return data;
    const error = paymanError(answer);
    if (error !== undefined)
      throw new ProviderRefusalError(error.code, `the provider refused ${call}: ${error.message}`);
    const code =
      typeof answer.data === 'object' && answer.data !== null
        ? (answer.data as Record<string, unknown>).code
        : undefined;
    if (typeof code === 'number')
      throw new ProviderRefusalError(code, `the provider refused ${call} with code ${code}`);
    throw new ProviderUnavailableError(`the provider answered ${call} with neither data nor errors`);
  }

  /** One JSON call under the timeout, traced. No answer, a 5xx or 429, or no JSON object: ProviderUnavailableError. */
  private call(
    method: 'GET' | 'POST',
    path: string,
    operationKey: string,
    body: Record<string, unknown> | undefined,
  ): Promise<Record<string, unknown>> {
    return inSpan(
      `direct debit ${method} ${path}`,
      SpanKind.CLIENT,
      { 'http.request.method': method, 'url.path': path },
      async () => {
        let res: Response;
        let text: string;
        try {
          res = await fetch(`${this.endpoint.baseUrl}${path}`, {
            method,
            headers: {
              accept: 'application/json',
              'x-operation-key': operationKey,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            signal: AbortSignal.timeout(this.endpoint.timeoutMs),
          });
          text = await res.text();
        } catch (error) {
          // The cause's message only: the request (and the signature in it) is never in an error.
          throw new ProviderUnavailableError(
            `the provider did not answer ${path} (${operationKey}): ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        if (res.status >= 500 || res.status === 429)
          throw new ProviderUnavailableError(`the provider answered ${res.status} to ${path} (${operationKey})`);
        let answer: unknown;
        try {
          answer = JSON.parse(text);
        } catch {
          answer = undefined;
        }
        if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
          throw new ProviderUnavailableError(
            `the provider answered ${res.status} with no JSON object to ${path} (${operationKey})`,
          );
        return answer as Record<string, unknown>;
      },
    );
  }
}
