/**
 * The payments, fee preview, test helpers, refunds and payment links operations of the catalogue (operations.ts).
 */
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
import {
  createPaymentLinkRequestSchema,
  ListPaymentLinksQuerySchema,
  PaymentLinkListSchema,
  PaymentLinkResponseSchema,
} from '../src/domain/payment-link.ts';
import {
  createRefundRequestSchema,
  ListAllRefundsQuerySchema,
  ListRefundsQuerySchema,
  RefundListSchema,
  RefundResponseSchema,
} from '../src/domain/refund-schemas.ts';
import type { AmountBounds } from '../src/domain/schema.ts';
import { BODY_ERRORS, COMMON_ERRORS, type Operation } from './operation.ts';

export function paymentOperations(bounds: AmountBounds): Operation[] {
  return [
    {
      method: 'post',
      path: '/api/v1/payments',
      operationId: 'createPayment',
      summary: 'Create a payment',
      description:
        'Registers a payment and starts its workflow. Send the customer to `payment_url`. Deliver nothing until verify succeeds. ' +
        '`fee_payer: customer` charges the customer `amount` + the fee (fixed now from your fee plan; see `GET /api/v1/fees`) and leaves you the whole amount; verify still takes `amount`.',
      tag: 'Payments',
      auth: true,
      idempotent: true,
      body: createPaymentRequestSchema(bounds),
      responses: {
        201: {
          description: 'The payment was created (or replayed for the same Idempotency-Key).',
          schema: CreatePaymentResponseSchema,
        },
      },
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
        'What a payment of `amount` would cost under your fee plan: the fee, what the customer will be charged at the bank and what you receive at verify. ' +
        'With `fee_payer=merchant` (the default) the customer is charged the amount and the fee comes out of it; with `fee_payer=customer` the customer is charged amount + fee and you receive the whole amount. ' +
        'A customer-pays payment fixes its fee when it is created, so a later change of your fee plan does not change it. ' +
        'A customer-pays amount whose charge (amount + fee) would pass the largest payment is refused here as create would refuse it: 422 `charged_amount_exceeds_max`.',
      tag: 'Payments',
      auth: true,
      query: feePreviewQuerySchema(bounds),
      responses: {
        200: {
          description: 'The split of the amount.',
          schema: FeePreviewSchema,
          example: {
            amount: 1_500_000,
            fee_payer: 'customer',
            fee: 15_000,
            charged_amount: 1_515_000,
            merchant_receives: 1_500_000,
          },
        },
      },
      errors: [...COMMON_ERRORS, 'validation_failed', 'charged_amount_exceeds_max'],
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
        "Merges `metadata` into the payment's: a string sets a key, `null` removes it, keys not named stay. At most 20 keys in all. A refused update changes nothing.",
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
      errors: [
        ...COMMON_ERRORS,
        ...BODY_ERRORS,
        'payment_not_found',
        'amount_mismatch',
        'payment_not_paid',
        'payment_pending',
        'verify_deadline_passed',
      ],
      example: { amount: 1_500_000 },
    },
    {
      method: 'post',
      path: '/api/v1/payments/{id}/refunds',
      operationId: 'createRefund',
      summary: 'Refund a payment',
      description:
        "Refunds a verified payment in part or in full (default: everything not yet refunded). Answers as soon as the refund is recorded `pending`; it ends `succeeded` or `failed` (poll the refund or listen for `refund.*` webhooks). Concurrent refunds never add up to more than was paid. How it reaches the customer depends on the payment's PSP (the refund's `method`): the PSP's refund operation; where the PSP has none, a reversal of the whole payment within the PSP's reversal window, or else a bank transfer to `destination_iban` (without one: 422 `refund_needs_iban`).",
      tag: 'Refunds',
      auth: true,
      idempotent: true,
      body: createRefundRequestSchema({ min: 1, max: bounds.max }),
      bodyOptional: true,
      responses: {
        201: {
          description: 'The refund is recorded (or replayed for the same Idempotency-Key).',
          schema: RefundResponseSchema,
        },
      },
      errors: [
        ...COMMON_ERRORS,
        ...BODY_ERRORS,
        'payment_not_found',
        'payment_not_refundable',
        'refund_exceeds_amount',
        'refund_needs_iban',
        'idempotency_key_reused',
        'idempotency_key_in_use',
      ],
      example: { amount: 500_000, reason: 'One notebook returned', destination_iban: 'IR820540102680020817909002' },
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
      description:
        "All of the merchant's refunds in this key's mode, newest first, paged like payments. The filters are optional and combine.",
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
        'A page at `url` (`/l/{slug}`) where customers pay you without a server of yours: a fixed `amount`, or a range (`min_amount`, `max_amount`) the customer chooses within, and the fields to `collect`. The gateway verifies each payment itself when the bank confirms it; you see it in the dashboard and by the `payment.verified` webhook, with `payment_link` set. `qr_url` is the link as an SVG QR code.',
      tag: 'Payment links',
      auth: true,
      idempotent: true,
      body: createPaymentLinkRequestSchema(bounds),
      responses: {
        201: {
          description: 'The link is created (or replayed for the same Idempotency-Key).',
          schema: PaymentLinkResponseSchema,
        },
      },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'idempotency_key_reused', 'idempotency_key_in_use'],
      example: {
        title: 'Handmade notebook',
        amount: 1_500_000,
        collect: { name: 'required', mobile: 'optional' },
        max_payments: 10,
      },
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
      description:
        'For good: its page then says so and starts no payment. Payments already started go on. Deactivating again answers the same.',
      tag: 'Payment links',
      auth: true,
      responses: { 200: { description: 'The deactivated link.', schema: PaymentLinkResponseSchema } },
      errors: [...COMMON_ERRORS, 'payment_link_not_found'],
    },
  ];
}
