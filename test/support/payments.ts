import { request, waitFor, type TestResponse } from './http.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { BankOutcome } from '../../src/domain/payment.ts';

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

export async function createPayment(baseUrl: string, key: string, overrides: Record<string, unknown> = {}, idempotencyKey?: string): Promise<TestResponse<CreateResponse>> {
  return request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
    key,
    body: paymentRequest(overrides),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });
}

export async function createdPayment(baseUrl: string, key: string, overrides: Record<string, unknown> = {}): Promise<Payment> {
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
export async function chooseOutcome(baseUrl: string, paymentId: string, outcome: BankOutcome): Promise<TestResponse<unknown>> {
  const answer = async (res: Response) => ({ status: res.status, headers: res.headers, body: undefined, text: await res.text() });
  const page = await fetch(`${baseUrl}/pay/${paymentId}`);
  const html = await page.text();
  const cookie = page.headers.get('set-cookie')?.split(';')[0];
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const form = new URLSearchParams({ action: 'pay', ...(token === undefined ? {} : { csrf_token: token }) });
  const pay = await fetch(`${baseUrl}/pay/${paymentId}`, {
    method: 'POST',
    body: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl, ...(cookie === undefined ? {} : { cookie }) },
    redirect: 'manual',
  });
  const location = pay.headers.get('location') ?? '';
  if (pay.status !== 303 || !location.includes('/OnlinePG/SendToken')) return answer(pay);
  return answer(await walkBankPage(location, outcome));
}

/**
 * The bank simulator's side of the customer's path: from its page (`location`, where our Pay
 * button redirected) the customer chooses `outcome`, and the bank's form posts back to our
 * return route. Answers our return route's response (not followed).
 */
export async function walkBankPage(location: string, outcome: BankOutcome): Promise<Response> {
  return postBankReturn(await chooseOnBankPage(location, outcome));
}

/** The form the bank's page shows after the customer's choice: where it posts, and its fields. */
export interface BankReturnForm {
  action: string;
  fields: URLSearchParams;
  bankOrigin: string;
}

/** The customer's choice on the bank simulator's page at `location`: answers the form that takes them back to us. */
export async function chooseOnBankPage(location: string, outcome: BankOutcome): Promise<BankReturnForm> {
  const bankPage = new URL(location);
  const chosen = await fetch(new URL('/OnlinePG/pay', bankPage.origin), {
    method: 'POST',
    body: new URLSearchParams({ token: bankPage.searchParams.get('token') ?? '', outcome }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const back = await chosen.text();
  const action = /<form method="post" action="([^"]+)"/.exec(back)?.[1]?.replace(/&#38;/g, '&');
  if (action === undefined) throw new Error(`the bank's page has no return form: ${back}`);
  const fields = new URLSearchParams([...back.matchAll(/<input type="hidden" name="([A-Za-z]+)" value="([^"]*)">/g)].map((m): [string, string] => [m[1]!, m[2]!]));
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

export async function waitForStatus(baseUrl: string, key: string, paymentId: string, status: Payment['status'], timeoutMs = 20_000): Promise<Payment> {
  return waitFor(`payment ${paymentId} to be ${status}`, async () => {
    const res = await request<{ payment: Payment }>(baseUrl, 'GET', `/api/v1/payments/${paymentId}`, { key });
    return res.body.payment.status === status ? res.body.payment : undefined;
  }, timeoutMs);
}

export async function paidPayment(baseUrl: string, key: string, overrides: Record<string, unknown> = {}): Promise<Payment> {
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
