import { request, waitFor, type TestResponse } from './http.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { BankOutcome } from '../../src/domain/payment.ts';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import type { Client } from '@temporalio/client';
import { chooseOnSimulatorReturn } from '../../src/adapters/bank-customer.ts';

export interface CreateResponse {
  payment: Payment;
  payment_url: string;
}

let counter = 0;
export function paymentRequest(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    amount: 150_000,
    callback_url: 'http://localhost:8000/return?cart=7',
    merchant_reference: `order-${Date.now()}-${counter}`,
    description: 'Two notebooks',
    mobile: '09121234567',
    ...overrides,
  };
}

export async function createPayment(
  baseUrl: string,
  key: string,
  overrides: Record<string, unknown> = {},
  idempotencyKey?: string,
): Promise<TestResponse<CreateResponse>> {
  return request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
    key,
    body: paymentRequest(overrides),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
}

export async function createdPayment(
  baseUrl: string,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<Payment> {
  const res = await createPayment(baseUrl, key, overrides);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.payment;
}

/**
 * The customer's whole path, as a browser takes it: our payment page's Pay button (with its CSRF
 * token) → the bank simulator's page, where `outcome` is chosen → the bank's form back to our
 * return route. Answers our answer to the step that ended the path: the return route's 303 to
 * the result page, or the Pay button's refusal.
 */
export async function chooseOutcome(
  baseUrl: string,
  paymentId: string,
  outcome: BankOutcome,
  card?: string,
): Promise<TestResponse<unknown>> {
  const answer = async (res: Response) => ({
    status: res.status,
    headers: res.headers,
    body: undefined,
    text: await res.text(),
  });
  const pay = await pressPay(baseUrl, paymentId);
  const location = pay.headers.get('location') ?? '';
  if (pay.status === 200) {
    // A PSP whose page takes a form POST (Mellat): our page carries the form; the customer submits it.
    const html = await pay.text();
    const form = bankRedirectForm(html);
    if (form === undefined) return { status: pay.status, headers: pay.headers, body: undefined, text: html };
    return answer(await walkPostedBankPage(baseUrl, paymentId, form, outcome));
  }
  if (pay.status !== 303 || !location.includes('/OnlinePG/SendToken')) return answer(pay);
  return answer(await walkBankPage(location, outcome, card));
}

/** Our page's form to a PSP's page that takes a POST (bank-redirect.eta): its address and fields. */
export function bankRedirectForm(
  html: string,
): { url: string; method: 'POST'; fields: Record<string, string> } | undefined {
  const url = /<form method="post" action="([^"]+)" id="bank-redirect">/.exec(html)?.[1]?.replace(/&#38;/g, '&');
  if (url === undefined) return undefined;
  return {
    url,
    method: 'POST',
    fields: Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([A-Za-z]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
    ),
  };
}

/** The customer at a POST-taking PSP's page (the Mellat simulator): chooses `outcome`; the bank's form comes back to our return route. */
export async function walkPostedBankPage(
  baseUrl: string,
  paymentId: string,
  form: { url: string; method: 'POST'; fields: Record<string, string> },
  outcome: BankOutcome,
): Promise<Response> {
  const bankOrigin = new URL(form.url).origin;
  // The bank's page sends the customer back to the return address the session's token was asked with (signed).
  const { fields, returnUrl } = await chooseOnSimulatorReturn(bankOrigin, form, outcome, 5_000);
  return postBankReturn({
    action: returnUrl === '' ? `${baseUrl}/pay/${paymentId}/return` : returnUrl,
    fields: new URLSearchParams(fields),
    bankOrigin,
  });
}

/** Our payment page's Pay button, pressed as a browser does (the page's CSRF token and cookie, and `headers`): answers the response (not followed). */
export async function pressPay(
  baseUrl: string,
  paymentId: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const page = await fetch(`${baseUrl}/pay/${paymentId}`);
  const html = await page.text();
  // A page the gateway could not show (a 503 while a dependency is down) has no form to press: the
  // customer sees that answer, not a refusal of a form they never had.
  if (page.status !== 200) return new Response(html, { status: page.status, headers: page.headers });
  const cookie = page.headers.get('set-cookie')?.split(';')[0];
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const form = new URLSearchParams({ action: 'pay', ...(token === undefined ? {} : { csrf_token: token }) });
  return fetch(`${baseUrl}/pay/${paymentId}`, {
    method: 'POST',
    body: form.toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: baseUrl,
      ...(cookie === undefined ? {} : { cookie }),
      ...headers,
    },
    redirect: 'manual',
  });
}

/** Where a customer's Pay ended: a bank page that works (the PSP's, with the payment's amount and the choices), or what they saw instead. */
export type PayLanding =
  | {
      reached: 'bank_page';
      psp: 'sep' | 'mellat';
      sep?: string;
      mellat?: { url: string; method: 'POST'; fields: Record<string, string> };
    }
  | { reached: 'error'; status: number; text: string };

/**
 * The customer presses Pay once and follows where it leads, as a browser does: SEP's page by our
 * redirect, Mellat's by posting our page's form to it. A landing on the bank's page counts only when
 * that page answers with the payment's choices; anything else (a 5xx, our error page) is what the
 * customer saw. Nothing is retried.
 */
export async function payToBankPage(baseUrl: string, paymentId: string): Promise<PayLanding> {
  const pay = await pressPay(baseUrl, paymentId);
  const location = pay.headers.get('location') ?? '';
  let page: Response;
  let landing: PayLanding & { reached: 'bank_page' };
  if (pay.status === 303 && location.includes('/OnlinePG/SendToken')) {
    page = await fetch(location);
    landing = { reached: 'bank_page', psp: 'sep', sep: location };
  } else {
    const html = await pay.text();
    const form = pay.status === 200 ? bankRedirectForm(html) : undefined;
    if (form === undefined) return { reached: 'error', status: pay.status, text: html.slice(0, 300) };
    page = await fetch(form.url, {
      method: 'POST',
      body: new URLSearchParams(form.fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    landing = { reached: 'bank_page', psp: 'mellat', mellat: form };
  }
  const text = await page.text();
  if (page.status !== 200 || !text.includes('id="amount"') || !text.includes('value="success"'))
    return { reached: 'error', status: page.status, text: text.slice(0, 300) };
  return landing;
}

/** The customer, on the bank page `landing` reached, chooses `outcome`; answers our return route's response. */
export async function chooseOnLanding(
  baseUrl: string,
  paymentId: string,
  landing: PayLanding & { reached: 'bank_page' },
  outcome: BankOutcome,
): Promise<Response> {
  if (landing.mellat !== undefined) return walkPostedBankPage(baseUrl, paymentId, landing.mellat, outcome);
  return walkBankPage(landing.sep ?? '', outcome);
}

/**
 * What anyone with the payment's URL can reach: the bank page's address, behind its Pay button,
 * which carries the payment's bank token.
 */
export async function bankPageOf(baseUrl: string, paymentId: string): Promise<string> {
  const pay = await pressPay(baseUrl, paymentId);
  const location = pay.headers.get('location') ?? '';
  if (pay.status !== 303 || !location.includes('/OnlinePG/SendToken?token='))
    throw new Error(`the Pay button did not send the customer to the bank: ${pay.status}`);
  return location;
}

/** A return forged from another site: the state of the forger's choice, the payment's id and the bank token of `bankPage`, no RefNum. */
export function forgeBankReturn(
  baseUrl: string,
  paymentId: string,
  bankPage: string,
  state: 'Failed' | 'CanceledByUser',
): Promise<Response> {
  const token = new URL(bankPage).searchParams.get('token') ?? '';
  return fetch(`${baseUrl}/pay/${paymentId}/return`, {
    method: 'POST',
    body: new URLSearchParams({
      State: state,
      Status: state === 'Failed' ? '3' : '1',
      RefNum: '',
      ResNum: paymentId,
      Token: token,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://attacker.example' },
    redirect: 'manual',
  });
}

/** How many returns from the bank the payment's workflow has answered (its bank callback Updates that completed). */
export async function returnsAnswered(temporal: Client, paymentId: string): Promise<number> {
  const events = (await temporal.workflow.getHandle(paymentWorkflowId(paymentId)).fetchHistory()).events ?? [];
  const callbacks = new Set(
    events
      .filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'bankCallback')
      .map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.protocolInstanceId),
  );
  return events.filter((e) => callbacks.has(e.workflowExecutionUpdateCompletedEventAttributes?.meta?.updateId)).length;
}

/**
 * The bank simulator's side of the customer's path: from its page (`location`, where our Pay
 * button redirected) the customer chooses `outcome`, and the bank's form posts back to our
 * return route. Answers our return route's response (not followed).
 */
export async function walkBankPage(location: string, outcome: BankOutcome, card?: string): Promise<Response> {
  return postBankReturn(await chooseOnBankPage(location, outcome, card));
}

/** The form the bank's page shows after the customer's choice: where it posts, and its fields. */
export interface BankReturnForm {
  action: string;
  fields: URLSearchParams;
  bankOrigin: string;
}

/**
 * The customer's choice on the bank simulator's page at `location`, paying with `card` typed in its
 * card field (none: the field's default card): answers the form that takes them back to us.
 */
export async function chooseOnBankPage(location: string, outcome: BankOutcome, card?: string): Promise<BankReturnForm> {
  const bankPage = new URL(location);
  const chosen = await fetch(new URL('/OnlinePG/pay', bankPage.origin), {
    method: 'POST',
    body: new URLSearchParams({
      token: bankPage.searchParams.get('token') ?? '',
      outcome,
      ...(card === undefined ? {} : { card }),
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const back = await chosen.text();
  const action = /<form method="post" action="([^"]+)"/.exec(back)?.[1]?.replace(/&#38;/g, '&');
  if (action === undefined) throw new Error(`the bank's page has no return form: ${back}`);
  const fields = new URLSearchParams(
    [...back.matchAll(/<input type="hidden" name="([A-Za-z]+)" value="([^"]*)">/g)].map((m): [string, string] => [
      m[1]!,
      m[2]!,
    ]),
  );
  return { action, fields, bankOrigin: bankPage.origin };
}

/** The bank's return form posted to our return route (again, when a customer resubmits it). */
export function postBankReturn(form: BankReturnForm): Promise<Response> {
  return fetch(form.action, {
    method: 'POST',
    body: form.fields.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: form.bankOrigin },
    redirect: 'manual',
  });
}

export async function waitForStatus(
  baseUrl: string,
  key: string,
  paymentId: string,
  status: Payment['status'],
  timeoutMs = 20_000,
): Promise<Payment> {
  return waitFor(
    `payment ${paymentId} to be ${status}`,
    async () => {
      const res = await request<{ payment: Payment }>(baseUrl, 'GET', `/api/v1/payments/${paymentId}`, { key });
      return res.body.payment.status === status ? res.body.payment : undefined;
    },
    timeoutMs,
  );
}

export async function paidPayment(
  baseUrl: string,
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<Payment> {
  return payAtBank(baseUrl, key, await createdPayment(baseUrl, key, overrides));
}

/** The customer pays `payment` through our page and the bank simulator; answers it once recorded `paid`. */
export async function payAtBank(baseUrl: string, key: string, payment: Payment): Promise<Payment> {
  // A cold or busy worker may not answer the Pay (the bank's token is an activity's answer) within
  // the API's bound on a Temporal call: 503, and the customer tries again, as a person would.
  let res = await chooseOutcome(baseUrl, payment.id, 'success');
  for (let retry = 0; res.status === 503 && retry < 10; retry++) {
    await new Promise((r) => setTimeout(r, 1_000));
    res = await chooseOutcome(baseUrl, payment.id, 'success');
  }
  if (res.status !== 303) throw new Error(`bank outcome failed: ${res.status}`);
  return waitForStatus(baseUrl, key, payment.id, 'paid');
}
