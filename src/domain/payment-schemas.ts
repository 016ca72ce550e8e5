/**
 * The payment resource and the requests about it (docs/PAYMENTS.md), written
 * once with TypeBox: ajv validates requests with these schemas, the OpenAPI
 * document is assembled from them, and the TypeScript types are derived
 * from them.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PSP_NAMES, type PspName } from '../psps/profiles.ts';
import { BANK_OUTCOMES, FEE_PAYERS, MAX_ADVANCE_SECONDS, PAYMENT_METHODS, PAYMENT_STATUSES } from './payment.ts';
import { KEY_MODES } from './merchant.ts';
import { PAYMENT_ORIGINS } from './compat-protocols.ts';
import { BANK_REFERENCE_PATTERN, MASKED_CARD_PAN_PATTERN, RRN_PATTERN } from './bank-confirmation.ts';
import {
  CARD_NUMBER_PATTERN,
  MASKED_NATIONAL_CODE_PATTERN,
  MAX_ALLOWED_CARDS,
  NATIONAL_CODE_PATTERN,
} from './card-restriction.ts';
import { PaymentSplitSchema, SplitsRequestSchema } from './split-schemas.ts';
import {
  CommaSeparatedEnum,
  DateTimeFilter,
  FailureSchema,
  FREE_TEXT_PATTERN,
  listOf,
  listQuery,
  Nullable,
  StringEnum,
  Timestamp,
  type AmountBounds,
} from './schema.ts';

/** Limits of a payment's metadata (docs/PAYMENTS.md#metadata). */
export const METADATA_LIMITS = { keys: 20, keyPattern: '^[A-Za-z0-9_-]{1,40}$', valueLength: 500 } as const;

const metadataOf = <V extends TSchema>(value: V, description: string) =>
  Type.Record(Type.String({ pattern: METADATA_LIMITS.keyPattern }), value, {
    additionalProperties: false,
    maxProperties: METADATA_LIMITS.keys,
    description,
    examples: [{ order_id: '1042', customer: 'c-77' }],
  });

/** The merchant's own data about a payment: up to 20 keys of 1–40 `[A-Za-z0-9_-]`, string values of up to 500 characters. */
export const MetadataSchema = metadataOf(
  Type.String({ maxLength: METADATA_LIMITS.valueLength }),
  "the merchant's own key-value data; up to 20 keys of 1–40 characters [A-Za-z0-9_-], string values up to 500 characters",
);
export type Metadata = Static<typeof MetadataSchema>;

/** The PSPs a payment can be sent to: the registry's (src/psps/profiles.ts), in its order. */
export const PAYMENT_PSP_NAMES: readonly PspName[] = PSP_NAMES;

/** Which PSP terminal took the payment: the one that gave it its token, and the only one ever asked about it after. */
export const PaymentPspSchema = Type.Object(
  {
    name: StringEnum(PAYMENT_PSP_NAMES, { description: 'the PSP (Shaparak payment service provider)' }),
    terminal_id: Type.String({ description: "the gateway's terminal at that PSP", examples: ['11223344'] }),
  },
  { additionalProperties: false },
);

export const FeePayerSchema = StringEnum(FEE_PAYERS, {
  description:
    "who pays the gateway's fee: `merchant` (taken from the amount at verify) or `customer` (added to the amount the bank charges)",
});

export const PaymentStatusSchema = StringEnum(PAYMENT_STATUSES, {
  description: 'Lifecycle status; see docs/PAYMENTS.md.',
});

export const PaymentSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'identifier of the payment' }),
    status: PaymentStatusSchema,
    mode: StringEnum(KEY_MODES, { description: '`test` for payments made with a test key' }),
    amount: Type.Integer({ description: 'amount in rials', examples: [1_500_000] }),
    fee: Type.Integer({ description: 'fee in rials; set at verify, 0 before and on reversed payments' }),
    fee_payer: FeePayerSchema,
    charged_amount: Type.Integer({
      description:
        'rials the customer is charged at the bank: `amount` when the merchant pays the fee, `amount` + the fee (fixed at create) when the customer does',
      examples: [1_515_000],
    }),
    refunded_amount: Type.Integer({ description: 'rials returned to the customer so far' }),
    currency: Type.Literal('IRR'),
    merchant_reference: Type.String({ description: "the merchant's order reference", examples: ['order-1042'] }),
    tracking_code: Type.String({ pattern: '^[0-9]{12}$', description: 'tracking code shown to the customer' }),
    reference_id: Nullable(Type.String({ pattern: BANK_REFERENCE_PATTERN }), "the bank's reference, once paid"),
    rrn: Nullable(Type.String({ pattern: RRN_PATTERN }), 'retrieval reference number, once paid'),
    card_pan: Nullable(Type.String({ pattern: MASKED_CARD_PAN_PATTERN }), 'masked card number, once paid'),
    description: Type.String({ description: 'free text about the order' }),
    callback_url: Type.String({ format: 'uri', description: 'where the customer returns' }),
    metadata: MetadataSchema,
    failure: Nullable(FailureSchema, 'why the payment failed, was canceled or expired'),
    created_at: Timestamp('creation time'),
    paid_at: Nullable(Timestamp('time of payment'), 'null until paid'),
    verified_at: Nullable(Timestamp('time of verify'), 'null until verified'),
    verify_deadline_at: Nullable(Timestamp('deadline for verify'), 'null until paid'),
    expires_at: Timestamp('end of the period in which the payment page can be used'),
    settlement_status: StringEnum(['not_applicable', 'pending', 'settled'] as const, {
      description: '`not_applicable` for test payments',
    }),
    psp: Nullable(
      PaymentPspSchema,
      'the PSP and terminal that took the payment (gave it its bank token; docs/psps/routing.md); null until the customer is sent to a bank, and on payments made before routing (which went to SEP)',
    ),
    created_via: StringEnum(PAYMENT_ORIGINS, {
      description: "the protocol that created the payment: `api` (this API), or ZarinPal's or Zibal's (docs/COMPAT.md)",
    }),
    method: StringEnum(PAYMENT_METHODS, {
      description:
        'how it was paid: `card` (the hosted page and a PSP) or `direct_debit` (a debit of a mandate, no customer present: POST /api/v1/mandates/{id}/debits)',
    }),
    allowed_cards: Nullable(
      Type.Array(Type.String({ pattern: MASKED_CARD_PAN_PATTERN }), { maxItems: MAX_ALLOWED_CARDS }),
      'the only cards that may pay, masked (first six and last four digits); null when any card may',
    ),
    national_code: Nullable(
      Type.String({ pattern: MASKED_NATIONAL_CODE_PATTERN }),
      "the payer's national code the merchant named, masked; null when none",
    ),
    payment_link: Nullable(
      Type.String({ format: 'uuid' }),
      'the payment link the customer paid on (docs/PAYMENTS.md#payment-links); null for a payment the merchant created',
    ),
    splits: Type.Optional(
      Type.Array(PaymentSplitSchema, {
        description:
          "the beneficiaries' shares (docs/PAYMENTS.md#split-settlement), on a payment created with `splits`: in the create answer, GET /payments/{id}, each entry of GET /payments and every `payment.*` event",
      }),
    ),
  },
  { additionalProperties: false },
);
export type Payment = Static<typeof PaymentSchema>;

/** Printable ASCII, no leading or trailing blank: safe to echo in URLs, pages and logs. */
export const MERCHANT_REFERENCE_PATTERN = '^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$';

export function createPaymentRequestSchema(bounds: AmountBounds) {
  return Type.Object(
    {
      amount: Type.Integer({
        minimum: bounds.min,
        maximum: bounds.max,
        description: 'amount to charge, in rials',
        examples: [1_500_000],
      }),
      callback_url: Type.String({
        format: 'uri',
        maxLength: 2048,
        description:
          "absolute https URL on one of the merchant's registered domains (http allowed for localhost in test mode)",
        examples: ['https://shop.example/checkout/return?order=1042'],
      }),
      merchant_reference: Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: MERCHANT_REFERENCE_PATTERN,
        description: "the merchant's order reference",
        examples: ['order-1042'],
      }),
      description: Type.Optional(
        Type.String({
          maxLength: 255,
          pattern: FREE_TEXT_PATTERN,
          description: 'free text about the order',
          examples: ['Two notebooks'],
        }),
      ),
      mobile: Type.Optional(
        Type.String({ pattern: '^09[0-9]{9}$', description: "customer's mobile number", examples: ['09121234567'] }),
      ),
      metadata: Type.Optional(MetadataSchema),
      fee_payer: Type.Optional(FeePayerSchema),
      allowed_cards: Type.Optional(
        Type.Array(
          Type.String({
            pattern: CARD_NUMBER_PATTERN,
            description: 'a full card number, 16 digits, with a valid Luhn check digit',
          }),
          {
            minItems: 1,
            maxItems: MAX_ALLOWED_CARDS,
            uniqueItems: true,
            description:
              'only these cards may pay (up to 5); a payment paid with another is reversed at the bank and fails with `card_not_allowed`. Stored hashed and masked, never in full (docs/PAYMENTS.md#who-may-pay-cards-and-national-code)',
            examples: [['6037991234567893']],
          },
        ),
      ),
      national_code: Type.Optional(
        Type.String({
          pattern: NATIONAL_CODE_PATTERN,
          description:
            "the account holder's national code (10 digits, valid check digit); stored masked; enforced only by PSPs that take one (none of the current connectors do)",
          examples: ['0499370899'],
        }),
      ),
      splits: Type.Optional(SplitsRequestSchema),
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
  {
    amount: Type.Integer({
      minimum: 1,
      description: 'the order amount in rials that the merchant expects',
      examples: [1_500_000],
    }),
  },
  { additionalProperties: false },
);
export type VerifyRequest = Static<typeof VerifyRequestSchema>;

/** `POST /payments/{id}`: merged into the payment's metadata; a null value removes its key. */
export const UpdatePaymentRequestSchema = Type.Object(
  {
    metadata: metadataOf(
      Nullable(Type.String({ maxLength: METADATA_LIMITS.valueLength })),
      'keys to set (a string) or remove (null); keys not named stay as they are',
    ),
  },
  { additionalProperties: false },
);
export type UpdatePaymentRequest = Static<typeof UpdatePaymentRequestSchema>;

export const PaymentResponseSchema = Type.Object({ payment: PaymentSchema }, { additionalProperties: false });

/** The filters of the payment list (all optional, all combined with AND): what reconciliation looks payments up by. */
export const ListPaymentsQuerySchema = listQuery({
  status: Type.Optional(
    CommaSeparatedEnum(
      PAYMENT_STATUSES,
      `one status or a comma-separated list of them (any of), e.g. \`paid,verified\`; statuses: ${PAYMENT_STATUSES.join(', ')}`,
      ['paid', 'verified'],
    ),
  ),
  merchant_reference: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: "the merchant's order reference, exactly" }),
  ),
  tracking_code: Type.Optional(
    Type.String({
      pattern: '^[0-9]{12}$',
      description: 'the tracking code shown to the customer (12 digits)',
      examples: ['482910375561'],
    }),
  ),
  rrn: Type.Optional(
    Type.String({
      pattern: RRN_PATTERN,
      description: "the bank's retrieval reference number (12 digits)",
      examples: ['403912775810'],
    }),
  ),
  amount_gte: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'amount in rials at least this' }),
  ),
  amount_lte: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'amount in rials at most this' }),
  ),
  created_gte: Type.Optional(DateTimeFilter('created at or after')),
  created_lt: Type.Optional(DateTimeFilter('created before')),
});
export type ListPaymentsQuery = Static<typeof ListPaymentsQuerySchema>;

export const PaymentListSchema = listOf(PaymentSchema);

/** `POST /test_helpers/payments/{id}/bank_outcome`: the simulated bank's answer. */
export const BankOutcomeRequestSchema = Type.Object(
  { outcome: StringEnum(BANK_OUTCOMES, { description: 'what the customer chooses on the simulated bank page' }) },
  { additionalProperties: false },
);

/** `POST /test_helpers/payments/{id}/advance`: seconds to move the payment's own clock. */
export const AdvanceClockRequestSchema = Type.Object(
  {
    seconds: Type.Integer({
      minimum: 1,
      maximum: MAX_ADVANCE_SECONDS,
      description: "seconds to move this payment's clock forward; its timers that fall due fire at once",
      examples: [1800],
    }),
  },
  { additionalProperties: false },
);

/** `GET /fees`: the fee of an amount under the caller's fee plan. */
export function feePreviewQuerySchema(bounds: AmountBounds) {
  return Type.Object(
    {
      amount: Type.Integer({
        minimum: bounds.min,
        maximum: bounds.max,
        description: 'the payment amount in rials',
        examples: [1_500_000],
      }),
      fee_payer: Type.Optional(FeePayerSchema),
    },
    { additionalProperties: false },
  );
}
export type FeePreviewQuery = Static<ReturnType<typeof feePreviewQuerySchema>>;

export const FeePreviewSchema = Type.Object(
  {
    amount: Type.Integer({ description: 'the payment amount in rials (what verify checks)', examples: [1_500_000] }),
    fee_payer: FeePayerSchema,
    fee: Type.Integer({ description: "the gateway's fee in rials under your fee plan", examples: [15_000] }),
    charged_amount: Type.Integer({
      description: 'rials the customer will be charged at the bank',
      examples: [1_515_000],
    }),
    merchant_receives: Type.Integer({
      description: 'rials the payment adds to your balance at verify (before any refund)',
      examples: [1_500_000],
    }),
  },
  { additionalProperties: false },
);
