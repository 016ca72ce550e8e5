/**
 * The JSON Schemas of the API, written once with TypeBox: ajv validates
 * requests with them, the OpenAPI document is assembled from them, and the
 * TypeScript types below are derived from them (never written twice).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PAYMENT_STATUSES } from '../domain/payment.ts';

export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

export const Timestamp = (description: string) =>
  Type.String({ format: 'date-time', description, examples: ['2026-11-21T10:15:30.123Z'] });

/** A string enum that is a plain `enum` in JSON Schema and a literal union in TypeScript. */
export const StringEnum = <T extends string>(values: readonly T[], options: { description?: string; default?: T } = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

export const PaymentStatusSchema = StringEnum(PAYMENT_STATUSES, { description: 'Lifecycle status; see the state table in the README.' });

export const FailureSchema = Type.Object(
  {
    code: Type.String({ description: 'machine-readable reason', examples: ['card_declined'] }),
    message: Type.String({ description: 'human-readable reason' }),
  },
  { additionalProperties: false },
);

export const PaymentSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'identifier of the payment' }),
    status: PaymentStatusSchema,
    mode: StringEnum(['test', 'live'] as const, { description: '`test` for payments made with a test key' }),
    amount: Type.Integer({ description: 'amount in rials', examples: [1_500_000] }),
    fee: Type.Integer({ description: 'fee in rials; set at verify, 0 before and on reversed payments' }),
    refunded_amount: Type.Integer({ description: 'rials returned to the customer so far' }),
    currency: Type.Literal('IRR'),
    merchant_reference: Type.String({ description: "the merchant's order reference", examples: ['order-1042'] }),
    tracking_code: Type.String({ pattern: '^[0-9]{12}$', description: 'tracking code shown to the customer' }),
    reference_id: Nullable(Type.String({ pattern: '^[0-9]+$' }), "the bank's reference, once paid"),
    rrn: Nullable(Type.String({ pattern: '^[0-9]{12}$' }), 'retrieval reference number, once paid'),
    card_pan: Nullable(Type.String({ pattern: '^[0-9]{6}\\*+[0-9]{4}$' }), 'masked card number, once paid'),
    description: Type.String({ description: 'free text about the order' }),
    callback_url: Type.String({ format: 'uri', description: 'where the customer returns' }),
    metadata: Type.Record(Type.String(), Type.String(), { description: 'reserved; an empty object' }),
    failure: Nullable(FailureSchema, 'why the payment failed, was canceled or expired'),
    created_at: Timestamp('creation time'),
    paid_at: Nullable(Timestamp('time of payment'), 'null until paid'),
    verified_at: Nullable(Timestamp('time of verify'), 'null until verified'),
    verify_deadline_at: Nullable(Timestamp('deadline for verify'), 'null until paid'),
    expires_at: Timestamp('end of the period in which the payment page can be used'),
    settlement_status: StringEnum(['not_applicable', 'pending', 'settled'] as const, { description: '`not_applicable` for test payments' }),
  },
  { additionalProperties: false },
);
export type Payment = Static<typeof PaymentSchema>;

export interface AmountBounds {
  min: number;
  max: number;
}

/** Printable ASCII, no leading or trailing blank: safe to echo in URLs, pages and logs. */
const MERCHANT_REFERENCE_PATTERN = '^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$';
/** No control characters (bidi overrides included) in free text. */
export const FREE_TEXT_PATTERN = '^[^\\x00-\\x1F\\x7F\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$';

export function createPaymentRequestSchema(bounds: AmountBounds) {
  return Type.Object(
    {
      amount: Type.Integer({ minimum: bounds.min, maximum: bounds.max, description: 'amount to charge, in rials', examples: [1_500_000] }),
      callback_url: Type.String({
        format: 'uri',
        maxLength: 2048,
        description: "absolute https URL on one of the merchant's registered domains (http allowed for localhost in test mode)",
        examples: ['https://shop.example/checkout/return?order=1042'],
      }),
      merchant_reference: Type.String({ minLength: 1, maxLength: 64, pattern: MERCHANT_REFERENCE_PATTERN, description: "the merchant's order reference", examples: ['order-1042'] }),
      description: Type.Optional(Type.String({ maxLength: 255, pattern: FREE_TEXT_PATTERN, description: 'free text about the order', examples: ['Two notebooks'] })),
      mobile: Type.Optional(Type.String({ pattern: '^09[0-9]{9}$', description: "customer's mobile number", examples: ['09121234567'] })),
    },
    { additionalProperties: false },
  );
}
export type CreatePaymentRequest = Static<ReturnType<typeof createPaymentRequestSchema>>;

export const CreatePaymentResponseSchema = Type.Object(
  {
    payment: PaymentSchema,
    payment_url: Type.String({ format: 'uri', description: 'the hosted payment page; send the customer here' }),
  },
  { additionalProperties: false },
);

export const VerifyRequestSchema = Type.Object(
  { amount: Type.Integer({ minimum: 1, description: 'the order amount in rials that the merchant expects', examples: [1_500_000] }) },
  { additionalProperties: false },
);
export type VerifyRequest = Static<typeof VerifyRequestSchema>;

export const PaymentResponseSchema = Type.Object({ payment: PaymentSchema }, { additionalProperties: false });

export const ListPaymentsQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'page size' })),
    cursor: Type.Optional(Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description: 'next_cursor of the previous page' })),
    status: Type.Optional(PaymentStatusSchema),
    merchant_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    created_gte: Type.Optional(Type.String({ format: 'date-time', description: 'created at or after' })),
    created_lt: Type.Optional(Type.String({ format: 'date-time', description: 'created before' })),
  },
  { additionalProperties: false },
);
export type ListPaymentsQuery = Static<typeof ListPaymentsQuerySchema>;

export const listOf = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      has_more: Type.Boolean(),
      next_cursor: Nullable(Type.String(), 'pass as `cursor` to get the next page'),
    },
    { additionalProperties: false },
  );

export const PaymentListSchema = listOf(PaymentSchema);

export const ErrorSchema = Type.Object(
  {
    code: Type.String({ description: 'machine-readable error code', examples: ['validation_failed'] }),
    message: Type.String({ description: 'human-readable explanation' }),
    request_id: Type.String({ description: 'the X-Request-Id of the response' }),
    details: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }, { additionalProperties: false }), {
        description: 'what is wrong with which field, for validation errors',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorSchema>;

const DependencyCheck = Type.Object({ ok: Type.Boolean(), error: Type.Optional(Type.String()) }, { additionalProperties: false });
const DependencyChecks = Type.Object({ mysql: DependencyCheck, temporal: DependencyCheck }, { additionalProperties: false });

export const HealthSchema = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
export const ReadySchema = Type.Object({ status: Type.Literal('ready'), checks: DependencyChecks }, { additionalProperties: false });
export const NotReadySchema = Type.Object(
  { code: Type.Literal('service_unavailable'), message: Type.String(), request_id: Type.String(), checks: DependencyChecks },
  { additionalProperties: false },
);
