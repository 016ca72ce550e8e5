/**
 * Plans and subscriptions as resources (docs/API.md#plans, docs/API.md#subscriptions), as TypeBox
 * schemas like every other resource's: the API validates with them and the OpenAPI document is built
 * from them. The rule a schema cannot state here (interval_days exactly with the `days` interval) is
 * planProblems in subscription.ts.
 */
import { Type, type Static } from '@sinclair/typebox';
import { KEY_MODES } from './merchant.ts';
import { MAX_INTERVAL_DAYS, PLAN_INTERVALS, SUBSCRIPTION_STATUSES } from './subscription.ts';
import { FREE_TEXT_PATTERN, listOf, listQuery, Nullable, StringEnum, Timestamp } from './schema.ts';

export const createPlanRequestSchema = (bounds: { max: number }) =>
  Type.Object(
    {
      name: Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: FREE_TEXT_PATTERN,
        description: "the plan's name",
        examples: ['Monthly'],
      }),
      amount: Type.Integer({
        minimum: 1,
        maximum: bounds.max,
        description: 'rials charged each period',
        examples: [1_500_000],
      }),
      interval: StringEnum(PLAN_INTERVALS, { description: 'week, month, year, or a number of days (`days`)' }),
      interval_days: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_INTERVAL_DAYS,
          description: 'the period in days; required with `interval: days`, refused with any other',
        }),
      ),
    },
    { additionalProperties: false },
  );
export type CreatePlanRequest = Static<ReturnType<typeof createPlanRequestSchema>>;

export const PlanSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    object: Type.Literal('plan'),
    mode: StringEnum(KEY_MODES, { description: 'test or live' }),
    name: Type.String(),
    amount: Type.Integer({ description: 'rials charged each period' }),
    interval: StringEnum(PLAN_INTERVALS),
    interval_days: Nullable(Type.Integer(), 'the period in days with `interval: days`; null otherwise'),
    created_at: Timestamp('when the plan was made'),
  },
  { additionalProperties: false },
);
export type Plan = Static<typeof PlanSchema>;
export const PlanResponseSchema = Type.Object({ plan: PlanSchema }, { additionalProperties: false });
export const ListPlansQuerySchema = listQuery({});
export type ListPlansQuery = Static<typeof ListPlansQuerySchema>;
export const PlanListSchema = listOf(PlanSchema);

export const CreateSubscriptionRequestSchema = Type.Object(
  {
    plan_id: Type.String({ format: 'uuid', description: 'the plan to charge' }),
    mandate_id: Type.String({
      format: 'uuid',
      description: "an active mandate of the merchant whose max_amount is at least the plan's amount",
    }),
  },
  { additionalProperties: false },
);
export type CreateSubscriptionRequest = Static<typeof CreateSubscriptionRequestSchema>;

export const CancelSubscriptionRequestSchema = Type.Object(
  {
    at_period_end: Type.Boolean({
      description: 'true: no charge after the current period, which stays paid; false: canceled now',
    }),
  },
  { additionalProperties: false },
);
export type CancelSubscriptionRequest = Static<typeof CancelSubscriptionRequestSchema>;

export const SubscriptionSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    object: Type.Literal('subscription'),
    mode: StringEnum(KEY_MODES, { description: 'test or live' }),
    plan_id: Type.String({ format: 'uuid' }),
    mandate_id: Type.String({ format: 'uuid' }),
    status: StringEnum(SUBSCRIPTION_STATUSES, { description: 'active, past_due or canceled' }),
    amount: Type.Integer({ description: "rials charged each period (the plan's, when subscribed)" }),
    current_period: Type.Integer({ description: 'the period being charged or paid, from 0' }),
    current_period_start: Timestamp("the current period's start, on the subscription's clock"),
    current_period_end: Timestamp("the current period's end: the next period's start"),
    cancel_at_period_end: Type.Boolean(),
    failed_attempts: Type.Integer({ description: "the current period's failed charges" }),
    latest_payment_id: Nullable(Type.String({ format: 'uuid' }), "the last charge's payment; null before the first"),
    cancel_reason: Nullable(
      Type.String({
        description:
          'requested; charge_failed when the retries ran out; mandate_canceled or mandate_expired when its mandate ended',
      }),
      'null unless canceled',
    ),
    created_at: Timestamp('when the subscription was made'),
    canceled_at: Nullable(Timestamp('when it was canceled'), 'null unless canceled'),
    customer_url: Type.String({
      format: 'uri',
      description:
        "the customer's own page of the subscription, a signed link to pass on to the customer (by the merchant's own channel: the gateway keeps no customer contact): the plan, the next charge, the mandate's bank, and a cancel at the period's end",
    }),
  },
  { additionalProperties: false },
);
export type Subscription = Static<typeof SubscriptionSchema>;
export const SubscriptionResponseSchema = Type.Object(
  { subscription: SubscriptionSchema },
  { additionalProperties: false },
);
export const ListSubscriptionsQuerySchema = listQuery({});
export type ListSubscriptionsQuery = Static<typeof ListSubscriptionsQuerySchema>;
export const SubscriptionListSchema = listOf(SubscriptionSchema);
