/**
 * The balance and settlement resources (docs/LEDGER.md#settlement), written
 * once with TypeBox like the payment schemas beside it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { KEY_MODES } from './merchant.ts';
import { SETTLEMENT_STATUSES } from './settlement.ts';
import { DateTimeFilter, FailureSchema, listOf, listQuery, Nullable, StringEnum, Timestamp } from './schema.ts';

const Rials = (description: string) => Type.Integer({ description, examples: [9_900_000] });

export const BalanceSchema = Type.Object(
  {
    mode: StringEnum(KEY_MODES, { description: 'the mode of the key that asked: each mode has its own balance' }),
    available: Rials(
      'what the next settlement would pay out now: payments verified longer ago than the hold, less fees and refunds not yet settled (may be negative: carried, never paid out)',
    ),
    pending: Rials('the rest of the balance: verified payments still within the hold, less their fees and refunds'),
    held: Rials('paid by customers and not yet verified'),
    in_payout: Rials('settlements made and not yet paid to the IBAN'),
  },
  { additionalProperties: false },
);
export type Balance = Static<typeof BalanceSchema>;
export const BalanceResponseSchema = Type.Object({ balance: BalanceSchema }, { additionalProperties: false });

export const SettlementSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'identifier of the settlement' }),
    status: StringEnum(SETTLEMENT_STATUSES, {
      description:
        '`pending` while the transfer is under way, then `paid` or `failed` (a failed one is paid again only by the operator)',
    }),
    gross: Rials('sum of the amounts of the payments it covers'),
    fees: Rials('sum of their fees'),
    refunds: Rials('refunds it deducts, less refused refunds it gives back'),
    splits: Rials(
      "the beneficiaries' shares of its payments, each beneficiary paid by a transfer of its own (docs/PAYMENTS.md#split-settlement)",
    ),
    net: Rials("gross − fees − splits − refunds: what is transferred to the merchant's IBAN"),
    payment_count: Type.Integer({ minimum: 0 }),
    refund_count: Type.Integer({ minimum: 0, description: 'refunds (and refused refunds given back) it covers' }),
    iban: Type.String({ pattern: '^IR[0-9]{24}$', description: 'the Sheba IBAN it is paid to' }),
    cutoff_at: Timestamp('it covers payments verified at or before this time'),
    created_at: Timestamp('creation time'),
    paid_at: Nullable(Timestamp('when the bank transferred it'), 'null unless paid'),
    failure: Nullable(FailureSchema, 'why the bank refused the transfer; null unless failed'),
  },
  { additionalProperties: false },
);
export type Settlement = Static<typeof SettlementSchema>;

/**
 * One beneficiary's transfer in a settlement (docs/LEDGER.md#split-settlement), as the events
 * beneficiary_payout.paid and beneficiary_payout.failed carry it.
 */
export const BeneficiaryPayoutSchema = Type.Object(
  {
    settlement_id: Type.String({ format: 'uuid', description: 'the settlement that pays it' }),
    beneficiary_id: Type.String({ format: 'uuid', description: 'the beneficiary paid' }),
    iban: Type.String({ pattern: '^IR[0-9]{24}$', description: "the beneficiary's Sheba IBAN it is paid to" }),
    amount: Rials("the sum of the beneficiary's shares in the settlement"),
    status: StringEnum(['pending', 'paid', 'failed'] as const, {
      description:
        '`pending` while the transfer is under way, then `paid` or `failed` (a failed one is paid again only by the operator)',
    }),
    attempt: Type.Integer({
      minimum: 1,
      description: "the transfer's attempt: 1, then one more for each operator retry after a refusal",
    }),
    bank_reference: Nullable(Type.String(), "the bank's reference of the transfer; null unless paid"),
    failure: Nullable(FailureSchema, 'why the bank refused the transfer; null unless failed'),
    updated_at: Timestamp('when its state last changed'),
  },
  { additionalProperties: false },
);
export type BeneficiaryPayout = Static<typeof BeneficiaryPayoutSchema>;

export const SETTLEMENT_LINE_KINDS = ['payment', 'refund', 'refund_return', 'split'] as const;
export const SettlementLineSchema = Type.Object(
  {
    kind: StringEnum(SETTLEMENT_LINE_KINDS, {
      description:
        "a payment, a refund (deducted), a refused refund given back, or a beneficiary's share of a payment (deducted, paid to its IBAN)",
    }),
    object_id: Type.String({ format: 'uuid', description: 'the payment, the refund, or the share' }),
    payment_id: Type.String({ format: 'uuid' }),
    amount: Rials("signed: a payment's amount, a refund's amount negated, a refused refund's amount, a share negated"),
    fee: Rials("the payment's fee on a payment line, else 0"),
    net: Rials('amount − fee'),
    iban: Nullable(Type.String({ pattern: '^IR[0-9]{24}$' }), "the beneficiary's IBAN on a split line; null otherwise"),
  },
  { additionalProperties: false },
);
export type SettlementLine = Static<typeof SettlementLineSchema>;

export const SettlementResponseSchema = Type.Object({ settlement: SettlementSchema }, { additionalProperties: false });
export const SettlementWithLinesSchema = Type.Object(
  { settlement: SettlementSchema, lines: Type.Array(SettlementLineSchema) },
  { additionalProperties: false },
);

export const ListSettlementsQuerySchema = listQuery({
  status: Type.Optional(StringEnum(SETTLEMENT_STATUSES, { description: 'only settlements in this status' })),
  created_gte: Type.Optional(DateTimeFilter('created at or after')),
  created_lt: Type.Optional(DateTimeFilter('created before')),
});
export type ListSettlementsQuery = Static<typeof ListSettlementsQuerySchema>;
export const SettlementListSchema = listOf(SettlementSchema);

/** The columns of a settlement's lines.csv, in order. */
export const SETTLEMENT_CSV_COLUMNS = ['kind', 'object_id', 'payment_id', 'amount', 'fee', 'net', 'iban'] as const;
