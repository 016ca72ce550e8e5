/**
 * The resources and requests of split settlement (docs/PAYMENTS.md#split-settlement),
 * written once with TypeBox like the payment schemas beside it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FREE_TEXT_PATTERN, Nullable, StringEnum, Timestamp } from './schema.ts';
import { BENEFICIARY_STATUSES, MAX_SPLITS } from './splits.ts';

const IBAN_AS_TYPED = Type.String({
  minLength: 1,
  maxLength: 40,
  description:
    'a Sheba IBAN: IR and 24 digits whose ISO 13616 check digits hold (spaces and Persian digits are accepted and normalised)',
  examples: ['IR820540102680020817909002'],
});

export const SplitRequestSchema = Type.Object(
  {
    iban: IBAN_AS_TYPED,
    amount: Type.Integer({ minimum: 1, description: "the beneficiary's share, in rials", examples: [300_000] }),
    description: Type.Optional(
      Type.String({
        maxLength: 255,
        pattern: FREE_TEXT_PATTERN,
        description: 'what the share is for',
        examples: ['agency commission'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const SplitsRequestSchema = Type.Array(SplitRequestSchema, {
  minItems: 1,
  maxItems: MAX_SPLITS,
  description: `up to ${MAX_SPLITS} shares for the merchant's approved beneficiaries, paid to their IBANs at settlement; their sum may not exceed the amount less the fee (docs/PAYMENTS.md#split-settlement)`,
});

export const PaymentSplitSchema = Type.Object(
  {
    beneficiary_id: Type.String({ format: 'uuid' }),
    iban: Type.String({ pattern: '^IR[0-9]{24}$', description: "the beneficiary's Sheba IBAN" }),
    amount: Type.Integer({ minimum: 1, description: 'the share, in rials' }),
    description: Type.String(),
    refunded: Type.Integer({ minimum: 0, description: 'taken back from the share by refunds' }),
    settled: Type.Boolean({ description: 'whether a settlement has paid the share out' }),
  },
  { additionalProperties: false },
);
export type PaymentSplit = Static<typeof PaymentSplitSchema>;

export const BeneficiarySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    iban: Type.String({ pattern: '^IR[0-9]{24}$' }),
    name: Type.String(),
    status: StringEnum(BENEFICIARY_STATUSES, {
      description:
        '`pending` until the operator reviews it; only an `approved` beneficiary may be split to; `revoked` when the operator withdrew an approved one (no later split may name it)',
    }),
    reason: Nullable(Type.String(), 'why the operator rejected it; null unless rejected'),
    created_at: Timestamp('when the merchant registered it'),
    reviewed_at: Nullable(Timestamp('when the operator reviewed it'), 'null while pending'),
  },
  { additionalProperties: false },
);
export type Beneficiary = Static<typeof BeneficiarySchema>;

export const CreateBeneficiaryRequestSchema = Type.Object(
  {
    iban: IBAN_AS_TYPED,
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: FREE_TEXT_PATTERN,
      description: "the account holder's name",
      examples: ['Agency Sepehr'],
    }),
  },
  { additionalProperties: false },
);
export type CreateBeneficiaryRequest = Static<typeof CreateBeneficiaryRequestSchema>;

export const BeneficiaryResponseSchema = Type.Object(
  { beneficiary: BeneficiarySchema },
  { additionalProperties: false },
);
/** All of the merchant's beneficiaries, newest first: a merchant has a handful, so the list is not paged. */
export const BeneficiaryListSchema = Type.Object(
  { data: Type.Array(BeneficiarySchema) },
  { additionalProperties: false },
);
