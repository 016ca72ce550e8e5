/**
 * The request bodies of the compatible protocols (docs/COMPAT.md), validated by the same ajv
 * as the API's and shown by /openapi/compat.json. Fields the protocols' clients send that Dargah
 * does not use (ZarinPal's `referrer_id`, `card_pan`, wages; Zibal's `feeMode`, `sms`…) are
 * accepted and ignored, as the protocols' own gateways do, so those clients work unmodified.
 */
import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { MERCHANT_REFERENCE_PATTERN } from './payment-schemas.ts';
import { FREE_TEXT_PATTERN } from './schema.ts';

const MOBILE_PATTERN = '^09[0-9]{9}$';
const ZARINPAL_MERCHANT_ID = Type.String({
  minLength: 36,
  maxLength: 36,
  description: 'your 36-character merchant_id for this mode (from the dashboard or the CLI)',
});
const ZARINPAL_AUTHORITY = Type.String({
  pattern: '^[AS][0-9a-zA-Z]{35}$',
  description: 'the payment, as request.json named it',
});
/** ZarinPal's amounts: whole rials, or toman when the request said `IRT`. */
const AMOUNT = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const OPTIONAL_EMAIL = Type.Optional(Type.String({ maxLength: 255 }));
const OPTIONAL_MOBILE = Type.Optional(Type.String({ pattern: MOBILE_PATTERN }));

export const ZarinpalRequestSchema = Type.Object(
  {
    merchant_id: ZARINPAL_MERCHANT_ID,
    amount: AMOUNT,
    currency: Type.Optional(
      Type.Union([Type.Literal('IRR'), Type.Literal('IRT')], {
        description: '`IRR` (rials, the default) or `IRT` (toman: ten rials)',
      }),
    ),
    description: Type.String({ minLength: 1, maxLength: 255, pattern: FREE_TEXT_PATTERN }),
    callback_url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'where the customer returns, on one of your registered domains',
    }),
    metadata: Type.Optional(
      Type.Object(
        {
          mobile: OPTIONAL_MOBILE,
          email: OPTIONAL_EMAIL,
          order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: MERCHANT_REFERENCE_PATTERN })),
        },
        { additionalProperties: true },
      ),
    ),
    mobile: OPTIONAL_MOBILE,
    email: OPTIONAL_EMAIL,
  },
  { additionalProperties: true },
);
export type ZarinpalRequest = Static<typeof ZarinpalRequestSchema>;

export const ZarinpalVerifySchema = Type.Object(
  { merchant_id: ZARINPAL_MERCHANT_ID, amount: AMOUNT, authority: ZARINPAL_AUTHORITY },
  { additionalProperties: true },
);
export type ZarinpalVerify = Static<typeof ZarinpalVerifySchema>;

/** inquiry.json and reverse.json: one payment. */
export const ZarinpalAuthoritySchema = Type.Object(
  { merchant_id: ZARINPAL_MERCHANT_ID, authority: ZARINPAL_AUTHORITY },
  { additionalProperties: true },
);

/** unVerified.json: the merchant alone. */
export const ZarinpalMerchantSchema = Type.Object(
  { merchant_id: ZARINPAL_MERCHANT_ID },
  { additionalProperties: true },
);

/** ZarinPal's answers: `{ data, errors }`, the one empty when the other is not. */
const NONE = Type.Array(Type.Never(), { maxItems: 0 });
const zarinpalAnswer = (data: TProperties) =>
  Type.Object(
    {
      data: Type.Object({ code: Type.Integer(), message: Type.String(), ...data }, { additionalProperties: false }),
      errors: NONE,
    },
    { additionalProperties: false },
  );
const AUTHORITY_OUT = Type.String({ pattern: '^[AS][0-9a-zA-Z]{35}$' });

export const ZarinpalRequestAnswerSchema = zarinpalAnswer({
  authority: AUTHORITY_OUT,
  fee_type: Type.String(),
  fee: Type.Integer({ minimum: 0 }),
});
export const ZarinpalVerifyAnswerSchema = zarinpalAnswer({
  ref_id: Type.Integer({ description: "the bank's reference" }),
  card_pan: Type.String({ description: 'the masked card number' }),
  card_hash: Type.String({
    description:
      "SHA-256 of the masked card number (its first six and last four digits), upper-case hex. About 100,000 cards share a mask, and so this hash: it does not identify a card (never block or trust a card by it) and is not ZarinPal's hash of the whole number, which Dargah never sees",
  }),
  fee_type: Type.String(),
  fee: Type.Integer({ minimum: 0 }),
});
export const ZarinpalUnverifiedAnswerSchema = zarinpalAnswer({
  authorities: Type.Array(
    Type.Object(
      {
        authority: AUTHORITY_OUT,
        amount: Type.Integer(),
        callback_url: Type.String(),
        referer: Type.String(),
        date: Type.String({ description: '`YYYY-MM-DD HH:MM:SS`, UTC' }),
      },
      { additionalProperties: false },
    ),
  ),
});
export const ZarinpalInquiryAnswerSchema = zarinpalAnswer({
  status: Type.Union(['VERIFIED', 'PAID', 'IN_BANK', 'FAILED', 'REVERSED'].map((s) => Type.Literal(s))),
});
export const ZarinpalReverseAnswerSchema = zarinpalAnswer({});
export const ZarinpalErrorAnswerSchema = Type.Object(
  {
    data: NONE,
    errors: Type.Object(
      {
        code: Type.Integer({ maximum: -1 }),
        message: Type.String(),
        validations: Type.Array(Type.Record(Type.String(), Type.String())),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** Zibal's `merchant`: the value for this mode from the dashboard or the CLI. */
const ZIBAL_MERCHANT = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'your Zibal `merchant` for this mode (from the dashboard or the CLI)',
});
/** Zibal's trackId: a number, or the digits the callback's query brought. */
const ZIBAL_TRACK_ID = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,16}$' })], {
  description: 'the payment, as /v1/request named it (sixteen digits)',
});

export const ZibalRequestSchema = Type.Object(
  {
    merchant: ZIBAL_MERCHANT,
    amount: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'rials' }),
    callbackUrl: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'where the customer returns, on one of your registered domains',
    }),
    description: Type.Optional(Type.String({ maxLength: 255, pattern: FREE_TEXT_PATTERN })),
    orderId: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, maxLength: 64, pattern: MERCHANT_REFERENCE_PATTERN }),
        Type.Integer({ minimum: 0 }),
      ]),
    ),
    mobile: OPTIONAL_MOBILE,
  },
  { additionalProperties: true },
);
export type ZibalRequest = Static<typeof ZibalRequestSchema>;

/** /v1/verify and /v1/inquiry: one payment. */
export const ZibalTrackSchema = Type.Object(
  { merchant: ZIBAL_MERCHANT, trackId: ZIBAL_TRACK_ID },
  { additionalProperties: true },
);

const ZIBAL_RESULT = { result: Type.Integer(), message: Type.String() };
export const ZibalRequestAnswerSchema = Type.Object(
  { ...ZIBAL_RESULT, trackId: Type.Integer() },
  { additionalProperties: false },
);
/** /v1/verify's and /v1/inquiry's answer: the payment in Zibal's words. */
export const ZibalPaymentAnswerSchema = Type.Object(
  {
    ...ZIBAL_RESULT,
    trackId: Type.Integer(),
    status: Type.Integer({
      description: "Zibal's status: 1 verified, 2 paid, 3 canceled, -1 waiting, -2 failed, 15 refunded, 18 reversed",
    }),
    amount: Type.Integer({ description: 'rials' }),
    orderId: Type.String(),
    description: Type.String(),
    cardNumber: Type.Union([Type.String(), Type.Null()], { description: 'the masked card number' }),
    refNumber: Type.Union([Type.String(), Type.Null()], { description: "the bank's retrieval reference number" }),
    paidAt: Type.Union([Type.String(), Type.Null()]),
    verifiedAt: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
  },
  { additionalProperties: false },
);
export const ZibalErrorAnswerSchema = Type.Object({ ...ZIBAL_RESULT }, { additionalProperties: false });
