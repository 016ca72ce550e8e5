/**
 * The mandate resource and its requests (docs/API.md#mandates), as TypeBox schemas like every other
 * resource's: the API validates with them and the OpenAPI document is built from them. The rules a
 * schema cannot state (an expiry 30 days out, a monthly count no smaller than the daily) are
 * mandateLimitProblems in mandate.ts.
 */
import { Type, type Static } from '@sinclair/typebox';
import { KEY_MODES } from './merchant.ts';
import { MANDATE_STATUSES } from './mandate.ts';
import { MERCHANT_REFERENCE_PATTERN, PaymentSchema } from './payment-schemas.ts';
import { FREE_TEXT_PATTERN, listOf, listQuery, Nullable, StringEnum, Timestamp } from './schema.ts';

export const createMandateRequestSchema = (bounds: { max: number }) =>
  Type.Object(
    {
      mobile: Type.String({ pattern: '^09[0-9]{9}$', description: "the customer's mobile", examples: ['09121234567'] }),
      national_code: Type.Optional(
        Type.String({ pattern: '^[0-9]{10}$', description: "the customer's national code (sent to the provider)" }),
      ),
      max_amount: Type.Integer({ minimum: 1, maximum: bounds.max, description: 'the largest single debit, in rials' }),
      max_daily_count: Type.Integer({ minimum: 1, maximum: 1000, description: 'debits allowed per Tehran day' }),
      max_monthly_count: Type.Integer({ minimum: 1, maximum: 10000, description: 'debits allowed per Tehran month' }),
      expires_at: Type.String({
        format: 'date-time',
        description: 'when the mandate ends: at least 30 days and at most five years from now',
      }),
      return_url: Type.String({
        format: 'uri',
        maxLength: 2048,
        pattern: '^https?://',
        description: 'where the customer is sent after signing (or refusing) at the bank',
      }),
      reference: Type.Optional(
        Type.String({ maxLength: 64, pattern: FREE_TEXT_PATTERN, description: "the merchant's own reference" }),
      ),
    },
    { additionalProperties: false },
  );
export type CreateMandateRequest = Static<ReturnType<typeof createMandateRequestSchema>>;

export const MandateSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('mandate'),
    mode: StringEnum(KEY_MODES, { description: 'test or live' }),
    provider: Type.String({ description: 'the direct debit provider, e.g. zarinpal' }),
    status: StringEnum(MANDATE_STATUSES, { description: 'pending, active, declined, canceled or expired' }),
    mobile: Type.String({ description: "the customer's mobile, masked" }),
    max_amount: Type.Integer(),
    max_daily_count: Type.Integer(),
    max_monthly_count: Type.Integer(),
    expires_at: Timestamp('when the mandate ends'),
    return_url: Type.String(),
    reference: Type.String(),
    failure_code: Nullable(Type.String(), 'why a mandate was declined; null otherwise'),
    bank: Nullable(
      Type.Object(
        {
          code: Type.String({ description: "the bank's code as the provider lists it", examples: ['SABCIR'] }),
          name: Type.String({ description: "the bank's name as the provider gave it", examples: ['بانک سامان'] }),
        },
        { additionalProperties: false },
      ),
      "the bank the customer chose to sign at, on the gateway's bank page; null before a choice (and for mandates signed before banks were recorded)",
    ),
    created_at: Timestamp('when the mandate was asked'),
    activated_at: Nullable(Timestamp('when the customer signed it'), 'null until signed'),
    ended_at: Nullable(Timestamp('when it was declined, canceled or expired'), 'null while pending or active'),
  },
  { additionalProperties: false },
);
export type Mandate = Static<typeof MandateSchema>;

export const MandateResponseSchema = Type.Object(
  {
    mandate: MandateSchema,
    bank_page_url: Type.Optional(
      Type.String({ description: 'the hosted page where the customer picks a bank and signs (while pending)' }),
    ),
  },
  { additionalProperties: false },
);
export const ListMandatesQuerySchema = listQuery({});
export type ListMandatesQuery = Static<typeof ListMandatesQuerySchema>;
export const MandateListSchema = listOf(MandateSchema);

/** `POST /mandates/{id}/debits` (docs/API.md#debits): money taken under the mandate, no customer present. */
export const createDebitRequestSchema = (bounds: { max: number }) =>
  Type.Object(
    {
      amount: Type.Integer({
        minimum: 1,
        maximum: bounds.max,
        description: "rials to take; at most the mandate's max_amount",
        examples: [1_500_000],
      }),
      merchant_reference: Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: MERCHANT_REFERENCE_PATTERN,
        description: "the merchant's order (or invoice) reference, the payment's merchant_reference",
        examples: ['invoice-2025-07'],
      }),
      description: Type.Optional(
        Type.String({ maxLength: 255, pattern: FREE_TEXT_PATTERN, description: 'free text about the debit' }),
      ),
    },
    { additionalProperties: false },
  );
export type CreateDebitRequest = Static<ReturnType<typeof createDebitRequestSchema>>;

export const DebitSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'identifier of the debit' }),
    object: Type.Literal('debit'),
    mandate_id: Type.String({ format: 'uuid' }),
    payment_id: Type.String({ format: 'uuid', description: 'the payment the debit is (method `direct_debit`)' }),
    amount: Type.Integer({ description: 'rials asked' }),
    merchant_reference: Type.String(),
    created_at: Timestamp('when the debit was admitted'),
  },
  { additionalProperties: false },
);
export type Debit = Static<typeof DebitSchema>;

export const DebitResponseSchema = Type.Object(
  {
    debit: DebitSchema,
    payment: PaymentSchema,
  },
  { additionalProperties: false },
);
