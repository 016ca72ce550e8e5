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

/** The customer's choice on the test bank page, as the browser's form post sends it. */
export async function chooseOutcome(baseUrl: string, paymentId: string, outcome: BankOutcome): Promise<TestResponse<unknown>> {
  const page = await fetch(`${baseUrl}/pay/${paymentId}`);
  const html = await page.text();
  const cookie = page.headers.get('set-cookie')?.split(';')[0];
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const form = new URLSearchParams({ outcome, ...(token === undefined ? {} : { csrf_token: token }) });
  const res = await fetch(`${baseUrl}/pay/${paymentId}`, {
    method: 'POST',
    body: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl, ...(cookie === undefined ? {} : { cookie }) },
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, body: undefined, text: await res.text() };
}

export async function waitForStatus(baseUrl: string, key: string, paymentId: string, status: Payment['status'], timeoutMs = 20_000): Promise<Payment> {
  return waitFor(`payment ${paymentId} to be ${status}`, async () => {
    const res = await request<{ payment: Payment }>(baseUrl, 'GET', `/api/v1/payments/${paymentId}`, { key });
    return res.body.payment.status === status ? res.body.payment : undefined;
  }, timeoutMs);
}

export async function paidPayment(baseUrl: string, key: string, overrides: Record<string, unknown> = {}): Promise<Payment> {
  const payment = await createdPayment(baseUrl, key, overrides);
  const res = await chooseOutcome(baseUrl, payment.id, 'success');
  if (res.status !== 303) throw new Error(`bank outcome failed: ${res.status}`);
  return waitForStatus(baseUrl, key, payment.id, 'paid');
}
