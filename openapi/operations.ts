/**
 * The API's operations, described once with the very schema objects the
 * routes validate with. The OpenAPI document is assembled from this list,
 * and a test checks that it names exactly the routes the routers serve.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { HealthSchema, NotReadySchema, ReadySchema } from '../src/api/schemas.ts';
import {
  AdvanceClockRequestSchema,
  BankOutcomeRequestSchema,
  CreatePaymentResponseSchema,
  createPaymentRequestSchema,
  FeePreviewSchema,
  feePreviewQuerySchema,
  ListPaymentsQuerySchema,
  PaymentListSchema,
  PaymentResponseSchema,
  UpdatePaymentRequestSchema,
  VerifyRequestSchema,
} from '../src/domain/payment-schemas.ts';
import { createPaymentLinkRequestSchema, ListPaymentLinksQuerySchema, PaymentLinkListSchema, PaymentLinkResponseSchema } from '../src/domain/payment-link.ts';
import { createRefundRequestSchema, ListAllRefundsQuerySchema, ListRefundsQuerySchema, RefundListSchema, RefundResponseSchema } from '../src/domain/refund-schemas.ts';
import { PAYMENTS_REPORT_COLUMNS, PaymentsReportQuerySchema, REPORT_MAX_DAYS } from '../src/domain/report-schemas.ts';
import type { AmountBounds } from '../src/domain/schema.ts';
import { BalanceResponseSchema, ListSettlementsQuerySchema, SETTLEMENT_CSV_COLUMNS, SettlementListSchema, SettlementWithLinesSchema } from '../src/domain/settlement-schemas.ts';
import type { ErrorCode } from '../src/errors.ts';
import { BeneficiaryListSchema, BeneficiaryResponseSchema, CreateBeneficiaryRequestSchema } from '../src/domain/split-schemas.ts';
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
  /**
   * Success responses by status; `schema` undefined for a body-less response.
   * The body is JSON unless `contentType` says otherwise; `headers` are
   * response headers beyond the ones every response has.
   */
  responses: Record<number, { description: string; schema?: TSchema; contentType?: string; example?: unknown; headers?: Record<string, { description: string; example?: string }> }>;
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
        'Registers a payment and starts its workflow. Send the customer to `payment_url`. Deliver nothing until verify succeeds. ' +
        "`fee_payer: customer` charges the customer `amount` + the fee (fixed now from your fee plan; see `GET /api/v1/fees`) and leaves you the whole amount; verify still takes `amount`.",
      tag: 'Payments',
      auth: true,
      idempotent: true,
      body: createPaymentRequestSchema(bounds),
      responses: { 201: { description: 'The payment was created (or replayed for the same Idempotency-Key).', schema: CreatePaymentResponseSchema } },
      errors: [
        ...COMMON_ERRORS,
        ...BODY_ERRORS,
        'callback_url_not_allowed',
        'callback_domain_unverified',
        'split_exceeds_amount',
        'beneficiary_not_approved',
        'charged_amount_exceeds_max',
        'idempotency_key_reused',
        'idempotency_key_in_use',
      ],
      example: {
        amount: 1_500_000,
        callback_url: 'https://shop.example/checkout/return?order=1042',
        merchant_reference: 'order-1042',
        description: 'Two notebooks',
        mobile: '09121234567',
        metadata: { order_id: '1042' },
        fee_payer: 'merchant',
      },
    },
    {
      method: 'get',
      path: '/api/v1/fees',
      operationId: 'previewFee',
      summary: 'Preview the fee of an amount',
      description:
        "What a payment of `amount` would cost under your fee plan: the fee, what the customer will be charged at the bank and what you receive at verify. " +
        'With `fee_payer=merchant` (the default) the customer is charged the amount and the fee comes out of it; with `fee_payer=customer` the customer is charged amount + fee and you receive the whole amount. ' +
        'A customer-pays payment fixes its fee when it is created, so a later change of your fee plan does not change it.',
      tag: 'Payments',
      auth: true,
      query: feePreviewQuerySchema(bounds),
      responses: {
        200: {
          description: 'The split of the amount.',
          schema: FeePreviewSchema,
          example: { amount: 1_500_000, fee_payer: 'customer', fee: 15_000, charged_amount: 1_515_000, merchant_receives: 1_500_000 },
        },
      },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/payments',
      operationId: 'listPayments',
      summary: 'List payments',
      description:
        'Newest first. Pass `next_cursor` as `cursor` for the next page (keep the same filters). ' +
        'Every filter is optional and they combine: `status` takes one status or several separated by commas (`paid,verified`); ' +
        '`tracking_code` and `rrn` find the payment a customer or the bank statement names; `amount_gte`/`amount_lte` and `created_gte`/`created_lt` are ranges.',
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
      path: '/api/v1/payments/{id}',
      operationId: 'updatePayment',
      summary: "Update a payment's metadata",
      description:
        'Merges `metadata` into the payment\'s: a string sets a key, `null` removes it, keys not named stay. At most 20 keys in all. A refused update changes nothing.',
      tag: 'Payments',
      auth: true,
      body: UpdatePaymentRequestSchema,
      responses: { 200: { description: 'The payment with its new metadata.', schema: PaymentResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'payment_not_found'],
      example: { metadata: { shipment: 'SH-77', coupon: null } },
    },
    {
      method: 'post',
      path: '/api/v1/payments/{id}/cancel',
      operationId: 'cancelPayment',
      summary: 'Cancel a payment',
      description:
        'Cancels a payment nobody has paid yet (`created` → `canceled`, failure code `canceled_by_merchant`); its page then shows it canceled. Canceling it again answers the same.',
      tag: 'Payments',
      auth: true,
      responses: { 200: { description: 'The canceled payment.', schema: PaymentResponseSchema } },
      errors: [...COMMON_ERRORS, 'payment_not_found', 'payment_not_cancelable'],
    },
    {
      method: 'post',
      path: '/api/v1/payments/{id}/reverse',
      operationId: 'reversePayment',
      summary: 'Reverse a payment now',
      description:
        'Gives a paid, unverified payment back to the customer at once, as the verify deadline would (`paid` → `reversed`, no fee). Reversing it again answers the same.',
      tag: 'Payments',
      auth: true,
      responses: { 200: { description: 'The reversed payment.', schema: PaymentResponseSchema } },
      errors: [...COMMON_ERRORS, 'payment_not_found', 'payment_not_reversible'],
    },
    {
      method: 'post',
      path: '/api/v1/test_helpers/payments/{id}/bank_outcome',
      operationId: 'simulateBankOutcome',
      summary: "Answer for a test payment's bank",
      description:
        "Test keys only. Does what the simulated bank page's buttons do, without a browser, and answers once the outcome is applied. An outcome for a payment that is no longer `created` changes nothing.",
      tag: 'Test helpers',
      auth: true,
      body: BankOutcomeRequestSchema,
      responses: { 200: { description: 'The payment after the outcome.', schema: PaymentResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'payment_not_found', 'test_mode_only'],
      example: { outcome: 'success' },
    },
    {
      method: 'post',
      path: '/api/v1/test_helpers/payments/{id}/advance',
      operationId: 'advancePaymentClock',
      summary: "Move a test payment's clock forward",
      description:
        "Test keys only. Moves this payment's own clock forward by `seconds`: its timers that fall due (expiry, the delayed bank confirmation, the verify deadline, the refund window) fire at once, and their transitions and events happen for real before the answer. The payment's timestamps are read on its clock from then on.",
      tag: 'Test helpers',
      auth: true,
      body: AdvanceClockRequestSchema,
      responses: { 200: { description: 'The payment after its due timers fired.', schema: PaymentResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'payment_not_found', 'test_mode_only', 'test_clock_unavailable'],
      example: { seconds: 1800 },
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
      path: '/api/v1/refunds',
      operationId: 'listRefunds',
      summary: 'List refunds',
      description: "All of the merchant's refunds in this key's mode, newest first, paged like payments. The filters are optional and combine.",
      tag: 'Refunds',
      auth: true,
      query: ListAllRefundsQuerySchema,
      responses: { 200: { description: 'A page of refunds.', schema: RefundListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
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
      path: '/api/v1/payment_links',
      operationId: 'createPaymentLink',
      summary: 'Create a payment link',
      description:
        "A page at `url` (`/l/{slug}`) where customers pay you without a server of yours: a fixed `amount`, or a range (`min_amount`, `max_amount`) the customer chooses within, and the fields to `collect`. The gateway verifies each payment itself when the bank confirms it; you see it in the dashboard and by the `payment.verified` webhook, with `payment_link` set. `qr_url` is the link as an SVG QR code.",
      tag: 'Payment links',
      auth: true,
      idempotent: true,
      body: createPaymentLinkRequestSchema(bounds),
      responses: { 201: { description: 'The link is created (or replayed for the same Idempotency-Key).', schema: PaymentLinkResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'idempotency_key_reused', 'idempotency_key_in_use'],
      example: { title: 'Handmade notebook', amount: 1_500_000, collect: { name: 'required', mobile: 'optional' }, max_payments: 10 },
    },
    {
      method: 'get',
      path: '/api/v1/payment_links',
      operationId: 'listPaymentLinks',
      summary: 'List payment links',
      description: "The merchant's payment links in this key's mode, newest first, paged like payments.",
      tag: 'Payment links',
      auth: true,
      query: ListPaymentLinksQuerySchema,
      responses: { 200: { description: 'A page of payment links.', schema: PaymentLinkListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/payment_links/{id}',
      operationId: 'getPaymentLink',
      summary: 'Retrieve a payment link',
      tag: 'Payment links',
      auth: true,
      responses: { 200: { description: 'The payment link.', schema: PaymentLinkResponseSchema } },
      errors: [...COMMON_ERRORS, 'payment_link_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/payment_links/{id}/deactivate',
      operationId: 'deactivatePaymentLink',
      summary: 'Deactivate a payment link',
      description: 'For good: its page then says so and starts no payment. Payments already started go on. Deactivating again answers the same.',
      tag: 'Payment links',
      auth: true,
      responses: { 200: { description: 'The deactivated link.', schema: PaymentLinkResponseSchema } },
      errors: [...COMMON_ERRORS, 'payment_link_not_found'],
    },
    {
      method: 'get',
      path: '/api/v1/balance',
      operationId: 'getBalance',
      summary: 'Retrieve the balance',
      description:
        "The merchant's balance in this key's mode, from the ledger: what the next settlement would pay out now (`available`), the rest of the balance (`pending`), what customers paid and you have not verified (`held`) and settlements on their way to your IBAN (`in_payout`). Test mode is never settled: its `available` is always 0.",
      tag: 'Settlements',
      auth: true,
      responses: { 200: { description: 'The balance.', schema: BalanceResponseSchema } },
      errors: [...COMMON_ERRORS],
    },
    {
      method: 'get',
      path: '/api/v1/settlements',
      operationId: 'listSettlements',
      summary: 'List settlements',
      description: "The merchant's settlements (live mode only; a test key sees none), newest first, paged like payments. The filters are optional and combine.",
      tag: 'Settlements',
      auth: true,
      query: ListSettlementsQuerySchema,
      responses: { 200: { description: 'A page of settlements.', schema: SettlementListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/settlements/{id}',
      operationId: 'getSettlement',
      summary: 'Retrieve a settlement with its lines',
      description:
        "The settlement and every line it covers: each payment (amount and fee), each refund (deducted), each refused refund given back, and each beneficiary's share of a split payment (deducted, with the IBAN it is paid to by a transfer of its own).",
      tag: 'Settlements',
      auth: true,
      responses: { 200: { description: 'The settlement and its lines.', schema: SettlementWithLinesSchema } },
      errors: [...COMMON_ERRORS, 'settlement_not_found'],
    },
    {
      method: 'get',
      path: '/api/v1/settlements/{id}/lines.csv',
      operationId: 'getSettlementLines',
      summary: "Download a settlement's lines as CSV",
      description:
        "The lines of the settlement as CSV (UTF-8, CRLF line ends), a header line then one line per payment, refund, refused refund given back or beneficiary's share (its `iban` set; empty on the other lines); streamed.",
      tag: 'Settlements',
      auth: true,
      responses: {
        200: {
          description: 'The CSV file.',
          contentType: 'text/csv',
          schema: Type.String({ description: `CSV with the columns ${SETTLEMENT_CSV_COLUMNS.join(', ')}` }),
          example: `${SETTLEMENT_CSV_COLUMNS.join(',')}\r\npayment,0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,1500000,15000,1485000,\r\n`,
          headers: { 'Content-Disposition': { description: 'attachment; the file name names the settlement', example: 'attachment; filename="settlement-0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71.csv"' } },
        },
      },
      errors: [...COMMON_ERRORS, 'settlement_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/beneficiaries',
      operationId: 'createBeneficiary',
      summary: 'Register a beneficiary',
      description:
        "Registers a Sheba IBAN your payments may split to (split settlement, تسهیم). It is `pending` until the operator checks and approves it; only an approved beneficiary may be named in a payment's `splits`. The same IBAN again answers the beneficiary it already is (200).",
      tag: 'Settlements',
      auth: true,
      body: CreateBeneficiaryRequestSchema,
      responses: {
        201: { description: 'The beneficiary, pending review.', schema: BeneficiaryResponseSchema },
        200: { description: 'The IBAN was registered before: that beneficiary, as it stands.', schema: BeneficiaryResponseSchema },
      },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS],
    },
    {
      method: 'get',
      path: '/api/v1/beneficiaries',
      operationId: 'listBeneficiaries',
      summary: 'List beneficiaries',
      description: 'All your beneficiaries, newest first, with their review status (not paged: a merchant has a handful).',
      tag: 'Settlements',
      auth: true,
      responses: { 200: { description: 'The beneficiaries.', schema: BeneficiaryListSchema } },
      errors: [...COMMON_ERRORS],
    },
    {
      method: 'get',
      path: '/api/v1/reports/payments.csv',
      operationId: 'getPaymentsReport',
      summary: 'Download payments as CSV',
      description:
        `Every payment of this key's mode created in [\`created_gte\`, \`created_lt\`) (at most ${REPORT_MAX_DAYS} days), oldest first, as CSV (RFC 4180, UTF-8, CRLF line ends): ` +
        'a header line naming the columns, then one line per payment. A field that contains a comma, a quote or a line break is quoted, its quotes doubled; ' +
        'a field that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `\'` so that spreadsheets do not run it as a formula. ' +
        '`metadata` is a JSON object. `fee_payer`, `charged_amount` (what the customer was charged), `splits_amount` (the sum of the split shares, 0 without splits) ' +
        'and `merchant_receives` (`charged_amount` − `fee` − `splits_amount`: what verify put on the balance, before refunds; empty until verified) come last. The file is streamed: an error found before the download starts is a JSON error; ' +
        'a failure during the download cuts the response short (no final chunk), so a complete download is one that ended cleanly.',
      tag: 'Reports',
      auth: true,
      query: PaymentsReportQuerySchema,
      responses: {
        200: {
          description: 'The CSV file.',
          contentType: 'text/csv',
          schema: Type.String({ description: `CSV with the columns ${PAYMENTS_REPORT_COLUMNS.join(', ')}` }),
          example:
            `${PAYMENTS_REPORT_COLUMNS.join(',')}\r\n` +
            '0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,2026-11-21T10:15:30.123Z,verified,live,1500000,15000,0,IRR,order-1042,482910375561,938475610,403912775810,603799******1234,2026-11-21T10:16:02.481Z,2026-11-21T10:16:05.007Z,pending,{},merchant,1500000,0,1485000\r\n',
          headers: {
            'Content-Disposition': { description: 'attachment; the file name names the range', example: 'attachment; filename="payments-20261101T000000Z-20261201T000000Z.csv"' },
          },
        },
      },
      errors: [...COMMON_ERRORS, 'validation_failed'],
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
