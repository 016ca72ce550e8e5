/**
 * The refund resource and its requests (docs/PAYMENTS.md#refunds), written
 * once with TypeBox like the payment schemas beside it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { REFUND_HOLDS, REFUND_METHODS, REFUND_STATUSES } from './refund.ts';
import {
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

export const RefundSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'identifier of the refund' }),
    payment_id: Type.String({ format: 'uuid', description: 'the refunded payment' }),
    amount: Type.Integer({
      minimum: 1,
      description: 'rials returned to the customer by this refund',
      examples: [500_000],
    }),
    status: StringEnum(REFUND_STATUSES, {
      description:
        "only forward: `awaiting_approval` (held until the gateway's operator approves it: an IBAN a person typed, or a refund the merchant's balance does not cover; see `held_for`), `awaiting_payer` (waiting for the customer to claim it at `claim_url` with the card that paid), `pending` (being paid out, until the bank answers), then `succeeded` or `failed` (a rejected refund is `failed` with `failure.code` `refund_rejected`). The amount is reserved on the payment from the first status on",
    }),
    reason: Nullable(Type.String(), "the merchant's reason, if given"),
    created_at: Timestamp('creation time'),
    succeeded_at: Nullable(Timestamp('time the bank confirmed the refund'), 'null unless succeeded'),
    failure: Nullable(FailureSchema, 'why the bank refused the refund; null unless failed'),
    method: StringEnum(REFUND_METHODS, {
      description:
        "how the refund reaches the customer, chosen by what the payment's PSP offers: `psp_refund` (the PSP's refund operation), `reversal` (the whole payment reversed at the PSP within its reversal window), `payer_card` (a bank transfer to the account of the card that paid, once the customer claims it at `claim_url` with that card), `iban_payout` (a bank transfer to `destination_iban`, a typed IBAN: paid only once the gateway's operator approves it)",
    }),
    destination_iban: Nullable(
      Type.String({
        pattern: '^IR[0-9]{24}$',
        description:
          'the Sheba IBAN the refund is paid to: the one given with the refund (`iban_payout`), or the account of the paying card the identity provider named when the customer claimed it (`payer_card`)',
      }),
      'null until known',
    ),
    owner_name: Type.Optional(
      Nullable(
        Type.String({
          description: "the owner of `destination_iban` as the identity provider names the paying card's account",
        }),
        "null unless the refund is paid to the payer's card",
      ),
    ),
    held_for: Type.Optional(
      Nullable(
        StringEnum(REFUND_HOLDS, {
          description:
            "why the refund waits (or waited) for the operator's approval: `typed_iban` (an IBAN a person typed), `balance` (it would take the merchant's balance below zero)",
        }),
        'null unless held for approval',
      ),
    ),
    claim_url: Type.Optional(
      Nullable(
        Type.String({
          format: 'uri',
          description:
            "a `payer_card` refund's claim page, a signed link to pass on to the customer (by the merchant's own channel: the gateway keeps no customer contact): the customer types the card that paid, and the refund is paid to that card's account",
        }),
        "null unless the refund is paid to the payer's card",
      ),
    ),
  },
  { additionalProperties: false },
);
export type Refund = Static<typeof RefundSchema>;

export function createRefundRequestSchema(bounds: AmountBounds) {
  return Type.Object(
    {
      amount: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: bounds.max,
          description: 'rials to refund; default: everything not yet refunded',
          examples: [500_000],
        }),
      ),
      reason: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 255,
          pattern: FREE_TEXT_PATTERN,
          description: 'free text kept with the refund',
          examples: ['Item out of stock'],
        }),
      ),
      destination_iban: Type.Optional(
        Type.String({
          pattern: '^IR[0-9]{24}$',
          description:
            "a Sheba IBAN (IR and 24 digits, its ISO 13616 check must hold) to pay the refund to by bank transfer when the payment's PSP cannot refund it itself (a PSP without a refund operation, outside its reversal window, a payment its PSP settled, or part of the payment: docs/PAYMENTS.md#how-a-refund-is-paid-out). A typed IBAN is never paid on a key's word: the refund is held `awaiting_approval` until the gateway's operator approves it. Without it such a refund goes to the card that paid (`payer_card`, claimed by the customer at `claim_url`)",
          examples: ['IR820540102680020817909002'],
        }),
      ),
    },
    { additionalProperties: false },
  );
}
export type CreateRefundRequest = Static<ReturnType<typeof createRefundRequestSchema>>;

export const RefundResponseSchema = Type.Object({ refund: RefundSchema }, { additionalProperties: false });

/** The query of one payment's refunds. */
export const ListRefundsQuerySchema = listQuery({});
export type ListRefundsQuery = Static<typeof ListRefundsQuerySchema>;

/** The filters of all the merchant's refunds (all optional, combined with AND). */
export const ListAllRefundsQuerySchema = listQuery({
  status: Type.Optional(StringEnum(REFUND_STATUSES, { description: 'only refunds in this status' })),
  payment_id: Type.Optional(Type.String({ format: 'uuid', description: 'only the refunds of this payment' })),
  created_gte: Type.Optional(DateTimeFilter('created at or after')),
  created_lt: Type.Optional(DateTimeFilter('created before')),
});
export type ListAllRefundsQuery = Static<typeof ListAllRefundsQuerySchema>;

export const RefundListSchema = listOf(RefundSchema);
