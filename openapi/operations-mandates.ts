/** The mandates' operations (docs/API.md#mandates): direct debit's first half, the customer's signed permission. */
import {
  createDebitRequestSchema,
  createMandateRequestSchema,
  DebitResponseSchema,
  ListMandatesQuerySchema,
  MandateListSchema,
  MandateResponseSchema,
} from '../src/domain/mandate-schemas.ts';
import type { AmountBounds } from '../src/domain/schema.ts';
import { BODY_ERRORS, COMMON_ERRORS, type Operation } from './operation.ts';

export function mandateOperations(bounds: AmountBounds): Operation[] {
  return [
    {
      method: 'post',
      path: '/api/v1/mandates',
      operationId: 'createMandate',
      summary: 'Ask for a direct debit mandate',
      description:
        'A mandate (Payman) the customer signs once at their bank, within its limits: the largest debit, how many a day and a month, and when it ends (at least 30 days out). It starts `pending`; send the customer to `bank_page_url`, where they pick their bank and sign. They come back to `return_url` with `mandate_id` and `status` in the query; the `mandate.active` (or `mandate.declined`) webhook says the same. A mandate not signed within an hour ends `expired`.',
      tag: 'Mandates',
      auth: true,
      idempotent: true,
      body: createMandateRequestSchema(bounds),
      responses: {
        201: {
          description: 'The mandate is asked (or replayed for the same Idempotency-Key).',
          schema: MandateResponseSchema,
        },
      },
      errors: [
        ...COMMON_ERRORS,
        ...BODY_ERRORS,
        'callback_url_not_allowed',
        'callback_domain_unverified',
        'direct_debit_not_configured',
        'idempotency_key_reused',
        'idempotency_key_in_use',
      ],
      example: {
        mobile: '09121234567',
        max_amount: 5_000_000,
        max_daily_count: 1,
        max_monthly_count: 4,
        expires_at: '2027-12-01T00:00:00Z',
        return_url: 'https://shop.example/mandate-done',
        reference: 'plan-gold',
      },
    },
    {
      method: 'get',
      path: '/api/v1/mandates',
      operationId: 'listMandates',
      summary: 'List mandates',
      description: "The merchant's mandates in this key's mode, newest first, paged like payments.",
      tag: 'Mandates',
      auth: true,
      query: ListMandatesQuerySchema,
      responses: { 200: { description: 'A page of mandates.', schema: MandateListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/mandates/{id}',
      operationId: 'getMandate',
      summary: 'Retrieve a mandate',
      tag: 'Mandates',
      auth: true,
      responses: { 200: { description: 'The mandate.', schema: MandateResponseSchema } },
      errors: [...COMMON_ERRORS, 'mandate_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/mandates/{id}/cancel',
      operationId: 'cancelMandate',
      summary: 'Cancel a mandate',
      description:
        'Ends a pending or active mandate, at the provider too, and answers it `canceled` (`mandate.canceled` is sent) once every `active` or `past_due` subscription on it is `canceled` too (`cancel_reason: mandate_canceled`, `subscription.canceled` for each). A mandate already ended is answered as it is.',
      tag: 'Mandates',
      auth: true,
      responses: { 200: { description: 'The mandate after the cancel.', schema: MandateResponseSchema } },
      errors: [...COMMON_ERRORS, 'mandate_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/mandates/{id}/debits',
      operationId: 'createDebit',
      summary: 'Debit a mandate',
      description:
        "Takes `amount` rials under an active mandate, with no customer present. The mandate's limits are checked first, atomically across concurrent requests: an amount above `max_amount`, or a debit past the day's or the month's count (Tehran's calendar), is 422 `mandate_limit_exceeded` and nothing is asked of the bank or written. An admitted debit is a payment (`method: direct_debit`), answered `created`; it becomes `verified` once the provider has taken the money (with the fee of your plan, in the ledger and settlements like any payment), or `failed` (`debit_refused`) when the provider refuses, which gives the mandate's count back. `payment.verified` or `payment.failed` is sent; `GET /api/v1/payments/{id}` shows it. One Idempotency-Key is one debit: the same key and body answer the same debit.",
      tag: 'Mandates',
      auth: true,
      idempotent: true,
      body: createDebitRequestSchema(bounds),
      responses: {
        201: {
          description: 'The debit is admitted (or replayed for the same Idempotency-Key); its payment is `created`.',
          schema: DebitResponseSchema,
        },
      },
      errors: [
        ...COMMON_ERRORS,
        ...BODY_ERRORS,
        'mandate_not_found',
        'mandate_not_active',
        'mandate_limit_exceeded',
        'direct_debit_not_configured',
        'idempotency_key_reused',
        'idempotency_key_in_use',
      ],
      example: { amount: 1_500_000, merchant_reference: 'invoice-2025-07', description: 'July' },
    },
  ];
}
