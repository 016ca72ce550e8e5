/**
 * The refund resource and its requests (docs/PAYMENTS.md#refunds), written
 * once with TypeBox like the payment schemas beside it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { REFUND_METHODS, REFUND_STATUSES } from './refund.ts';
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
      description: '`pending` until the bank answers, then `succeeded` or `failed`',
    }),
    reason: Nullable(Type.String(), "the merchant's reason, if given"),
    created_at: Timestamp('creation time'),
    succeeded_at: Nullable(Timestamp('time the bank confirmed the refund'), 'null unless succeeded'),
    failure: Nullable(FailureSchema, 'why the bank refused the refund; null unless failed'),
    method: StringEnum(REFUND_METHODS, {
      description:
        "how the refund reaches the customer, chosen by what the payment's PSP offers: `psp_refund` (the PSP's refund operation), `reversal` (the whole payment reversed at the PSP within its reversal window), `iban_payout` (a bank transfer to `destination_iban`)",
    }),
    destination_iban: Nullable(
      Type.String({ pattern: '^IR[0-9]{24}$', description: "the customer's Sheba IBAN the merchant gave" }),
      'null unless given with the refund',
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
            "the customer's Sheba IBAN (IR and 24 digits, its ISO 13616 check must hold), where the refund is paid by bank transfer when the payment's PSP cannot refund it itself: a PSP without a refund operation, outside its reversal window, a payment its PSP settled, or part of the payment (docs/PAYMENTS.md#how-a-refund-is-paid-out). Without it such a refund is refused (`refund_needs_iban`)",
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
