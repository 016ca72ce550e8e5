/** The plans' and subscriptions' operations (docs/API.md#plans, docs/API.md#subscriptions): direct debit every period. */
import { AdvanceClockRequestSchema } from '../src/domain/payment-schemas.ts';
import type { AmountBounds } from '../src/domain/schema.ts';
import {
  CancelSubscriptionRequestSchema,
  createPlanRequestSchema,
  CreateSubscriptionRequestSchema,
  ListPlansQuerySchema,
  ListSubscriptionsQuerySchema,
  PlanListSchema,
  PlanResponseSchema,
  SubscriptionListSchema,
  SubscriptionResponseSchema,
} from '../src/domain/subscription-schemas.ts';
import { BODY_ERRORS, COMMON_ERRORS, type Operation } from './operation.ts';

export function subscriptionOperations(bounds: AmountBounds): Operation[] {
  return [
    {
      method: 'post',
      path: '/api/v1/plans',
      operationId: 'createPlan',
      summary: 'Create a plan',
      description:
        'An amount in rials charged every `interval`: `week`, `month` (the same day of each month, the last day when a month is shorter), `year`, or `days` with `interval_days`.',
      tag: 'Subscriptions',
      auth: true,
      idempotent: true,
      body: createPlanRequestSchema(bounds),
      responses: {
        201: { description: 'The plan (or the same one for the same Idempotency-Key).', schema: PlanResponseSchema },
      },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'idempotency_key_reused', 'idempotency_key_in_use'],
      example: { name: 'Monthly', amount: 1_500_000, interval: 'month' },
    },
    {
      method: 'get',
      path: '/api/v1/plans',
      operationId: 'listPlans',
      summary: 'List plans',
      description: "The merchant's plans in this key's mode, newest first, paged like payments.",
      tag: 'Subscriptions',
      auth: true,
      query: ListPlansQuerySchema,
      responses: { 200: { description: 'A page of plans.', schema: PlanListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/plans/{id}',
      operationId: 'getPlan',
      summary: 'Retrieve a plan',
      tag: 'Subscriptions',
      auth: true,
      responses: { 200: { description: 'The plan.', schema: PlanResponseSchema } },
      errors: [...COMMON_ERRORS, 'plan_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/subscriptions',
      operationId: 'createSubscription',
      summary: 'Subscribe a mandate to a plan',
      description:
        "Charges the plan's amount on the mandate now and at the start of every period after, each charge a debit (a payment of `method: direct_debit`). The mandate must be yours, active, and allow the plan's amount (`max_amount`); otherwise nothing is written. A refused charge makes it `past_due` (`subscription.past_due`) and is tried again 1, 3 and 5 days later; a charge that succeeds makes it `active` (`subscription.charged`, with `payment_id`); when the last try is refused it is `canceled` (`cancel_reason: charge_failed`).",
      tag: 'Subscriptions',
      auth: true,
      idempotent: true,
      body: CreateSubscriptionRequestSchema,
      responses: {
        201: {
          description:
            'The subscription (or the same one for the same Idempotency-Key); its first charge is under way.',
          schema: SubscriptionResponseSchema,
        },
      },
      errors: [
        ...COMMON_ERRORS,
        ...BODY_ERRORS,
        'plan_not_found',
        'mandate_not_found',
        'mandate_not_active',
        'mandate_limit_exceeded',
        'idempotency_key_reused',
        'idempotency_key_in_use',
      ],
      example: { plan_id: '0d6f2f8e-3c1a-4b7e-9f2d-5a6b7c8d9e0f', mandate_id: '5b1e7c2a-8d4f-4e3b-a6c9-1f2e3d4c5b6a' },
    },
    {
      method: 'get',
      path: '/api/v1/subscriptions',
      operationId: 'listSubscriptions',
      summary: 'List subscriptions',
      description: "The merchant's subscriptions in this key's mode, newest first, paged like payments.",
      tag: 'Subscriptions',
      auth: true,
      query: ListSubscriptionsQuerySchema,
      responses: { 200: { description: 'A page of subscriptions.', schema: SubscriptionListSchema } },
      errors: [...COMMON_ERRORS, 'validation_failed'],
    },
    {
      method: 'get',
      path: '/api/v1/subscriptions/{id}',
      operationId: 'getSubscription',
      summary: 'Retrieve a subscription',
      tag: 'Subscriptions',
      auth: true,
      responses: { 200: { description: 'The subscription.', schema: SubscriptionResponseSchema } },
      errors: [...COMMON_ERRORS, 'subscription_not_found'],
    },
    {
      method: 'post',
      path: '/api/v1/subscriptions/{id}/cancel',
      operationId: 'cancelSubscription',
      summary: 'Cancel a subscription',
      description:
        '`at_period_end: true`: nothing is charged after the current period, and it is `canceled` when that period ends. `at_period_end: false`: `canceled` now (a charge already at the bank completes). `subscription.canceled` is sent either way; a canceled subscription is answered as it is.',
      tag: 'Subscriptions',
      auth: true,
      body: CancelSubscriptionRequestSchema,
      responses: { 200: { description: 'The subscription after the cancel.', schema: SubscriptionResponseSchema } },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'subscription_not_found'],
      example: { at_period_end: true },
    },
    {
      method: 'post',
      path: '/api/v1/test_helpers/subscriptions/{id}/advance',
      operationId: 'advanceSubscriptionClock',
      summary: "Move a test subscription's clock forward",
      description:
        "Test keys only. Moves this subscription's own clock forward by `seconds`: the period starts and retries that fall due are charged at once, for real (debits at the simulator), before the answer.",
      tag: 'Test helpers',
      auth: true,
      body: AdvanceClockRequestSchema,
      responses: {
        200: { description: 'The subscription after its due charges.', schema: SubscriptionResponseSchema },
      },
      errors: [...COMMON_ERRORS, ...BODY_ERRORS, 'subscription_not_found', 'test_mode_only'],
      example: { seconds: 2_678_400 },
    },
  ];
}
