/**
 * A typed client generated from the OpenAPI document (openapi-typescript
 * types + openapi-fetch) drives the merchant's whole flow. Its errors
 * surface as an exception carrying code, message and request_id, as the
 * spec asks of a client.
 */
import assert from 'node:assert/strict';
import createClient from 'openapi-fetch';
import type { paths } from '../../openapi/generated/schema.d.ts';
import { readFileSync } from 'node:fs';
import { CLIENT_TYPES_FILE, clientTypesText } from '../../openapi/client-types.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { chooseOutcome } from '../support/payments.ts';
import { REFUND_IBAN } from '../support/refunds.ts';

class GatewayError extends Error {
  override name = 'GatewayError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string;
  constructor(status: number, code: string, message: string, requestId: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

function gatewayClient(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` } });
  client.use({
    async onResponse({ response }) {
      if (response.ok) return undefined;
      const body = (await response.clone().json()) as { code: string; message: string; request_id: string };
      throw new GatewayError(response.status, body.code, body.message, body.request_id);
    },
  });
  return client;
}

describe('a client generated from the OpenAPI document', () => {
  it('is generated from the committed document (run `npm run openapi` after changing the API)', async () => {
    assert.equal(readFileSync(CLIENT_TYPES_FILE, 'utf8'), await clientTypesText());
  });

  it('drives the merchant flow: create, pay through the test bank, verify, read, refund', async () => {
    const { baseUrl } = await getHarness();
    const { key } = await newMerchant();
    const api = gatewayClient(baseUrl, key);

    const created = await api.POST('/api/v1/payments', {
      params: { header: { 'Idempotency-Key': 'client-order-1' } },
      body: {
        amount: 2_500_000,
        callback_url: 'http://localhost:8000/return',
        merchant_reference: 'client-order-1',
        description: 'Typed client',
      },
    });
    assert.equal(created.response.status, 201);
    const payment = created.data!.payment;
    assert.equal(payment.status, 'created');
    assert.ok(created.data!.payment_url.endsWith(`/pay/${payment.id}`));

    assert.equal((await chooseOutcome(baseUrl, payment.id, 'success')).status, 303);
    let status: string = payment.status;
    for (let i = 0; i < 100 && status !== 'paid'; i++) {
      const read = await api.GET('/api/v1/payments/{id}', { params: { path: { id: payment.id } } });
      status = read.data!.payment.status;
      if (status !== 'paid') await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 'paid');

    const verified = await api.POST('/api/v1/payments/{id}/verify', {
      params: { path: { id: payment.id } },
      body: { amount: 2_500_000 },
    });
    assert.equal(verified.data!.payment.status, 'verified');
    assert.ok(verified.data!.payment.fee > 0);

    const list = await api.GET('/api/v1/payments', { params: { query: { merchant_reference: 'client-order-1' } } });
    assert.deepEqual(
      list.data!.data.map((p) => p.id),
      [payment.id],
    );

    // A part of a SEP payment (no refund operation at SEP): paid to the customer's IBAN the merchant gives,
    // once the operator approved it (held for it until then).
    const refund = await api.POST('/api/v1/payments/{id}/refunds', {
      params: { path: { id: payment.id } },
      body: { amount: 500_000, destination_iban: REFUND_IBAN },
    });
    assert.deepEqual(
      [
        refund.data!.refund.amount,
        refund.data!.refund.method,
        refund.data!.refund.destination_iban,
        refund.data!.refund.status,
        refund.data!.refund.held_for,
      ],
      [500_000, 'iban_payout', REFUND_IBAN, 'awaiting_approval', 'typed_iban'],
    );
  });

  it('turns every error answer into an exception with code, message and request_id', async () => {
    const { baseUrl } = await getHarness();
    const { key } = await newMerchant();
    const api = gatewayClient(baseUrl, key);
    const created = await api.POST('/api/v1/payments', {
      body: { amount: 50_000, callback_url: 'http://localhost:8000/return', merchant_reference: 'client-order-2' },
    });
    await assert.rejects(
      api.POST('/api/v1/payments/{id}/verify', {
        params: { path: { id: created.data!.payment.id } },
        body: { amount: 50_000 },
      }),
      (error: unknown) =>
        error instanceof GatewayError &&
        error.status === 409 &&
        error.code === 'payment_not_paid' &&
        error.message.length > 0 &&
        /^req_[0-9a-f]{32}$/.test(error.requestId),
    );
    await assert.rejects(
      gatewayClient(baseUrl, 'sk_test_wrong').GET('/api/v1/payments'),
      (error: unknown) => error instanceof GatewayError && error.status === 401 && error.code === 'invalid_api_key',
    );
  });
});
