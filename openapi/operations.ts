/**
 * The API's operations, described once with the very schema objects the
 * routes validate with. The OpenAPI document is assembled from this list,
 * and a test checks that it names exactly the routes the routers serve.
 */
import type { TSchema } from '@sinclair/typebox';
import { HealthSchema, NotReadySchema, ReadySchema } from '../src/api/schemas.ts';
import {
  CreatePaymentResponseSchema,
  createPaymentRequestSchema,
  ListPaymentsQuerySchema,
  PaymentListSchema,
  PaymentResponseSchema,
  VerifyRequestSchema,
} from '../src/domain/payment-schemas.ts';
import { createRefundRequestSchema, ListRefundsQuerySchema, RefundListSchema, RefundResponseSchema } from '../src/domain/refund-schemas.ts';
import type { AmountBounds } from '../src/domain/schema.ts';
import type { ErrorCode } from '../src/errors.ts';
import {
  CreateWebhookEndpointRequestSchema,
  DeletedWebhookEndpointSchema,
  EventListSchema,
  EventWithAttemptsSchema,
  ListEventsQuerySchema,
  ListWebhookEndpointsQuerySchema,
  RedeliverRequestSchema,
  RedeliverResponseSchema,
  RotateSecretRequestSchema,
  WebhookEndpointListSchema,
  WebhookEndpointResponseSchema,
  WebhookEndpointWithSecretSchema,
} from '../src/domain/webhook-schemas.ts';

export interface Operation {
  method: 'get' | 'post' | 'delete';
  /** OpenAPI path template, e.g. /api/v1/payments/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Needs `Authorization: Bearer <key>`. */
  auth: boolean;
  /** Accepts an Idempotency-Key header. */
  idempotent?: boolean;
  query?: TSchema;
  body?: TSchema;
  /** Success responses by status; `schema` undefined for a body-less response. */
  responses: Record<number, { description: string; schema?: TSchema; contentType?: string }>;
  /** Every documented error this operation can answer with. */
  errors: ErrorCode[];
  /** Example request body. */
  example?: unknown;
  /** The body may be left out entirely. */
  bodyOptional?: boolean;
}

/** Errors every authenticated JSON operation can answer with. */
const COMMON_ERRORS: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'live_mode_not_enabled', 'rate_limited', 'internal_error', 'service_unavailable'];
const BODY_ERRORS: ErrorCode[] = ['invalid_json', 'payload_too_large', 'unsupported_media_type', 'validation_failed'];

export function operations(bounds: AmountBounds): Operation[] {
  return [
    {
      method: 'post',
      path: '/api/v1/payments',
      operationId: 'createPayment',
      summary: 'Create a payment',
      description:
        'Registers a payment and starts its workflow. Send the customer to `payment_url`. Deliver nothing until verify succeeds.',
      tag: 'Payments',
      auth: true,
      idempotent: true,
      body: createPaymentRequestSchema(bounds),
      responses: { 201: { description: 'The payment was created (or replayed for the same Idempotency-Key).', schema: CreatePaymentResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'callback_url_not_allowed', 'idempotency_key_reused', 'idempotency_key_in_use'],
      example: {
        amount: 1_500_000,
        callback_url: 'https://shop.example/checkout/return?order=1042',
        merchant_reference: 'order-1042',
        description: 'Two notebooks',
        mobile: '09121234567',
      },
    },
    {
      method: 'get',
      path: '/api/v1/payments',
      operationId: 'listPayments',
      summary: 'List payments',
      description: 'Newest first. Pass `next_cursor` as `cursor` for the next page.',
      tag: 'Payments',
      auth: true,
      query: ListPaymentsQuerySchema,
      responses: { 200: { description: 'A page of payments.', schema: PaymentListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/payments/{id}',
      operationId: 'getPayment',
      summary: 'Retrieve a payment',
      tag: 'Payments',
      auth: true,
      responses: { 200: { description: 'The payment.', schema: PaymentResponseSchema } },
      errors: [...COMMON_ERRORS, 'payment_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/payments/{id}/verify',
      operationId: 'verifyPayment',
      summary: 'Verify a payment',
      description:
        'Finalises a paid payment with the order amount. Call it from your server before `verify_deadline_at`; only a successful answer means you may deliver. Verifying again with the same amount answers the same.',
      tag: 'Payments',
      auth: true,
      body: VerifyRequestSchema,
      responses: { 200: { description: 'The payment is verified.', schema: PaymentResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'payment_not_found', 'amount_mismatch', 'payment_not_paid', 'payment_pending', 'verify_deadline_passed'],
      example: { amount: 1_500_000 },
    },
    {
      method: 'post',
      path: '/api/v1/payments/{id}/refunds',
      operationId: 'createRefund',
      summary: 'Refund a payment',
      description:
        'Refunds a verified payment in part or in full (default: everything not yet refunded). Answers as soon as the refund is recorded `pending`; it ends `succeeded` or `failed` (poll the refund or listen for `refund.*` webhooks). Concurrent refunds never add up to more than was paid.',
      tag: 'Refunds',
      auth: true,
      idempotent: true,
      body: createRefundRequestSchema({ min: 1, max: bounds.max }),
      bodyOptional: true,
      responses: { 201: { description: 'The refund is recorded (or replayed for the same Idempotency-Key).', schema: RefundResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'payment_not_found', 'payment_not_refundable', 'refund_exceeds_amount', 'idempotency_key_reused', 'idempotency_key_in_use'],
      example: { amount: 500_000, reason: 'One notebook returned' },
    },
    {
      method: 'get',
      path: '/api/v1/payments/{id}/refunds',
      operationId: 'listPaymentRefunds',
      summary: "List a payment's refunds",
      tag: 'Refunds',
      auth: true,
      query: ListRefundsQuerySchema,
      responses: { 200: { description: 'A page of refunds.', schema: RefundListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed', 'payment_not_found'],
    },
    {
      method: 'get',
      path: '/api/v1/refunds/{id}',
      operationId: 'getRefund',
      summary: 'Retrieve a refund',
      tag: 'Refunds',
      auth: true,
      responses: { 200: { description: 'The refund.', schema: RefundResponseSchema } },
      errors: [...COMMON_ERRORS, 'refund_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/webhook_endpoints',
      operationId: 'createWebhookEndpoint',
      summary: 'Register a webhook endpoint',
      description: 'The `whsec_` signing secret is in this answer only: store it. Live mode accepts only https URLs on public addresses.',
      tag: 'Webhooks',
      auth: true,
      body: CreateWebhookEndpointRequestSchema,
      responses: { 201: { description: 'The endpoint and its signing secret.', schema: WebhookEndpointWithSecretSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS],
      example: { url: 'https://shop.example/webhooks/dargah', events: ['payment.paid', 'payment.verified'] },
    },
    {
      method: 'get',
      path: '/api/v1/webhook_endpoints',
      operationId: 'listWebhookEndpoints',
      summary: 'List webhook endpoints',
      tag: 'Webhooks',
      auth: true,
      query: ListWebhookEndpointsQuerySchema,
      responses: { 200: { description: 'A page of endpoints.', schema: WebhookEndpointListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'delete',
      path: '/api/v1/webhook_endpoints/{id}',
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      tag: 'Webhooks',
      auth: true,
      responses: { 200: { description: 'The endpoint is deleted; nothing more is sent to it.', schema: DeletedWebhookEndpointSchema } },
      errors: [...COMMON_ERRORS, 'not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/webhook_endpoints/{id}/enable',
      operationId: 'enableWebhookEndpoint',
      summary: 'Enable a disabled webhook endpoint',
      description:
        'An endpoint is disabled when its receiver answers 410 Gone or when a delivery fails every attempt of its schedule (a `webhook_endpoint.disabled` event tells your other endpoints). Enable it once the receiver works: new events reach it again; send what it missed with redeliver. Enabling an enabled endpoint changes nothing.',
      tag: 'Webhooks',
      auth: true,
      responses: { 200: { description: 'The endpoint, enabled.', schema: WebhookEndpointResponseSchema } },
      errors: [...COMMON_ERRORS, 'not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/webhook_endpoints/{id}/rotate_secret',
      operationId: 'rotateWebhookSecret',
      summary: "Rotate an endpoint's signing secret",
      description: 'Returns the new secret (shown once). Until the old one expires, deliveries carry both signatures.',
      tag: 'Webhooks',
      auth: true,
      body: RotateSecretRequestSchema,
      bodyOptional: true,
      responses: { 200: { description: 'The endpoint and its new signing secret.', schema: WebhookEndpointWithSecretSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'not_found'],
    },
    {
      method: 'get',
      path: '/api/v1/events',
      operationId: 'listEvents',
      summary: 'List events',
      tag: 'Webhooks',
      auth: true,
      query: ListEventsQuerySchema,
      responses: { 200: { description: 'A page of events, newest first.', schema: EventListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/events/{id}',
      operationId: 'getEvent',
      summary: 'Retrieve an event with its delivery attempts',
      tag: 'Webhooks',
      auth: true,
      responses: { 200: { description: 'The event and every delivery attempt.', schema: EventWithAttemptsSchema } },
      errors: [...COMMON_ERRORS, 'not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/events/{id}/redeliver',
      operationId: 'redeliverEvent',
      summary: 'Send an event again',
      description:
        'Starts a new delivery (with the same `webhook-id`) to one endpoint or every subscribed, enabled one. A merchant may ask for `WEBHOOK_REDELIVERIES_PER_MINUTE` redeliveries a minute per mode (30 by default); beyond that the answer is 429 `rate_limited` with `Retry-After`.',
      tag: 'Webhooks',
      auth: true,
      body: RedeliverRequestSchema,
      bodyOptional: true,
      responses: { 202: { description: 'Deliveries started.', schema: RedeliverResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'not_found'],
    },
    {
      method: 'get',
      path: '/api/v1/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      tag: 'Service',
      auth: false,
      responses: { 200: { description: 'The OpenAPI 3.1 document of this API.', contentType: 'application/json' } },
      errors: [],
    },
    {
      method: 'get',
      path: '/healthz',
      operationId: 'getHealth',
      summary: 'Liveness',
      description: 'The process answers.',
      tag: 'Service',
      auth: false,
      responses: { 200: { description: 'The process is up.', schema: HealthSchema } },
      errors: [],
    },
    {
      method: 'get',
      path: '/readyz',
      operationId: 'getReadiness',
      summary: 'Readiness',
      description: 'Ready when MySQL and Temporal both answer.',
      tag: 'Service',
      auth: false,
      responses: {
        200: { description: 'Ready to serve.', schema: ReadySchema },
        503: { description: 'A dependency is unreachable.', schema: NotReadySchema },
      },
      errors: [],
    },
  ];
}
