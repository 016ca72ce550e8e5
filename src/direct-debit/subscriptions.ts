/**
 * Plans and subscriptions through the API (docs/API.md#plans, docs/API.md#subscriptions,
 * docs/SUBSCRIPTIONS.md#subscriptions): a plan is an amount every interval; a subscription charges it
 * on one of the merchant's active mandates whose per-debit limit holds it, by a workflow of its own
 * (workflows/subscription.ts) that admits each period's charge here (admitSubscriptionCharge, the
 * debit service's own admission) and takes it through the debit's workflow.
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { dispatchEvent } from '../temporal/deliveries.ts';
import { merchantById } from '../db/merchants.ts';
import { mandateFromRow, mandateRowById, tenantMandate } from '../db/mandates.ts';
import {
  insertPlan,
  insertSubscriptionWithEvent,
  subscriptionCharges,
  planFromRow,
  plansPage,
  subscriptionEventKey,
  subscriptionFromRow,
  subscriptionRowById,
  subscriptionsPage,
  tenantPlan,
  tenantPlansByIds,
  tenantSubscription,
} from '../db/subscriptions.ts';
import { eventIdFor, eventSummariesAbout, storedEvent } from '../db/events.ts';
import type { SubscriptionRow } from '../db/schema.ts';
import type { AuthState, Tenant } from '../domain/merchant.ts';
import { periodStartMs, planProblems, chargeKey, type PlanInterval } from '../domain/subscription.ts';
import type {
  CreatePlanRequest,
  CreateSubscriptionRequest,
  ListPlansQuery,
  ListSubscriptionsQuery,
  Plan,
  Subscription,
} from '../domain/subscription-schemas.ts';
import { NEW_SUBSCRIPTION_RECORD, type ChargeAdmission } from '../domain/subscription-workflow.ts';
import { DomainError } from '../errors.ts';
import { testModeOnly } from '../payments/payment-calls.ts';
import { idempotent, type IdempotentResult } from '../payments/idempotency.ts';
import { updateRefusal } from '../temporal/call.ts';
import {
  advanceSubscriptionWorkflowClock,
  cancelSubscriptionWorkflow,
  startSubscriptionWorkflow,
} from '../temporal/subscriptions.ts';
import { customerUrlOf, type CustomerPageConfig } from './customer-links.ts';
import { admitDebitWithPayment, debitWorkflowInput, type DebitPaymentConfig } from './debit-service.ts';

export interface SubscriptionServiceDeps {
  db: Db;
  temporal: Client;
  config: Config;
}

/** What reading a subscription needs: the records, and the key its customer_url is signed with. */
export interface SubscriptionReadDeps {
  db: Db;
  config: CustomerPageConfig;
}

export async function createPlan(
  { db, config }: SubscriptionServiceDeps,
  auth: AuthState,
  request: CreatePlanRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentResult> {
  const problems = planProblems(request);
  if (problems.length > 0)
    throw new DomainError('validation_failed', `interval_days ${problems[0]!.message}.`, problems);
  return idempotent(
    db,
    { owner: auth, operation: 'create_plan' },
    idempotencyKey,
    request,
    config.IDEMPOTENCY_TTL_SECONDS,
    async (id, fresh) => {
      let row = fresh ? undefined : await tenantPlan(db, auth, id);
      if (row === undefined) {
        await insertPlan(db, {
          id,
          merchant_id: auth.merchant.id,
          mode: auth.mode,
          name: request.name,
          amount: request.amount,
          interval: request.interval,
          interval_days: request.interval_days ?? null,
          created_at: new Date(),
        });
        row = (await tenantPlan(db, auth, id))!;
      }
      return { status: 201, body: { plan: planFromRow(row) } };
    },
  );
}

export async function getPlan(db: Db, tenant: Tenant, id: string): Promise<Plan> {
  const row = await tenantPlan(db, tenant, id);
  if (row === undefined) throw new DomainError('plan_not_found', `No plan ${id}.`);
  return planFromRow(row);
}

export function listPlans(db: Db, tenant: Tenant, query: ListPlansQuery) {
  return plansPage(db, tenant, query);
}

export async function createSubscription(
  { db, temporal, config }: SubscriptionServiceDeps,
  auth: AuthState,
  request: CreateSubscriptionRequest,
  idempotencyKey: string | undefined,
): Promise<IdempotentResult> {
  // Every refusal comes before the Idempotency-Key is taken and before anything is written.
  const plan = await tenantPlan(db, auth, request.plan_id);
  if (plan === undefined) throw new DomainError('plan_not_found', `No plan ${request.plan_id}.`);
  const mandate = await tenantMandate(db, auth, request.mandate_id);
  if (mandate === undefined) throw new DomainError('mandate_not_found', `No mandate ${request.mandate_id}.`);
  if (mandate.status !== 'active' || mandate.expires_at.getTime() <= Date.now())
    throw new DomainError(
      'mandate_not_active',
      `The mandate is ${mandate.status}: a subscription needs an active one.`,
    );
  if (Number(plan.amount) > Number(mandate.max_amount))
    throw new DomainError(
      'mandate_limit_exceeded',
      `The plan's amount (${plan.amount} rials) is more than the mandate's max_amount (${mandate.max_amount}).`,
      [{ path: '/plan_id', message: 'amount' }],
    );
  const period = { interval: plan.interval as PlanInterval, interval_days: plan.interval_days };
  return idempotent(
    db,
    { owner: auth, operation: 'create_subscription' },
    idempotencyKey,
    request,
    config.IDEMPOTENCY_TTL_SECONDS,
    async (id, fresh) => {
      let row = fresh ? undefined : await tenantSubscription(db, auth, id);
      if (row === undefined) {
        const now = new Date();
        const written = await insertSubscriptionWithEvent(
          db,
          {
            id,
            merchant_id: auth.merchant.id,
            mode: auth.mode,
            plan_id: plan.id,
            mandate_id: mandate.id,
            status: 'active',
            amount: Number(plan.amount),
            anchor_at: now,
            current_period_start: now,
            current_period_end: new Date(periodStartMs(now.getTime(), period, 1)),
            created_at: now,
          },
          customerUrlOf(config),
        );
        // The mandate ended since it was read above: refused as then, nothing written.
        if (written === undefined)
          throw new DomainError(
            'mandate_not_active',
            'The mandate is no longer active: a subscription needs an active one.',
          );
        const { row: inserted, event } = written;
        row = inserted;
        await dispatchEvent(db, temporal, config, event);
      } else {
        // A retry after the first attempt stored the event: start its deliveries again (idempotent).
        const event = await storedEvent(db, eventIdFor(subscriptionEventKey(id, 1)));
        if (event !== undefined) await dispatchEvent(db, temporal, config, event);
      }
      await startSubscriptionWorkflow(temporal, config.TEMPORAL_TASK_QUEUE, {
        subscription_id: id,
        plan: period,
        anchor_ms: row.anchor_at.getTime(),
        next_period: 0,
        clock_offset_ms: 0,
        record: NEW_SUBSCRIPTION_RECORD,
      });
      return { status: 201, body: { subscription: subscriptionFromRow(row, customerUrlOf(config)) } };
    },
  );
}

async function found(db: Db, tenant: Tenant, id: string): Promise<SubscriptionRow> {
  const row = await tenantSubscription(db, tenant, id);
  if (row === undefined) throw new DomainError('subscription_not_found', `No subscription ${id}.`);
  return row;
}

export async function getSubscription(
  { db, config }: SubscriptionReadDeps,
  tenant: Tenant,
  id: string,
): Promise<Subscription> {
  return subscriptionFromRow(await found(db, tenant, id), customerUrlOf(config));
}

export function listSubscriptions({ db, config }: SubscriptionReadDeps, tenant: Tenant, query: ListSubscriptionsQuery) {
  return subscriptionsPage(db, tenant, query, customerUrlOf(config));
}

/** A page of subscriptions with their plans (the dashboard's list names each one's plan). */
export async function listSubscriptionsWithPlans(
  deps: SubscriptionReadDeps,
  tenant: Tenant,
  query: ListSubscriptionsQuery,
) {
  const page = await listSubscriptions(deps, tenant, query);
  const plans = await tenantPlansByIds(deps.db, tenant, [...new Set(page.data.map((s) => s.plan_id))]);
  const byId = new Map(plans.map((p) => [p.id, planFromRow(p)]));
  return { ...page, data: page.data.map((subscription) => ({ subscription, plan: byId.get(subscription.plan_id) })) };
}

/**
 * One subscription as the dashboard shows it: as the API has it, its plan, its mandate, its charges
 * (each debit with its payment) and its events, oldest first. Another merchant's (or mode's) is not found.
 */
export async function subscriptionDetail({ db, config }: SubscriptionReadDeps, tenant: Tenant, id: string) {
  const row = await found(db, tenant, id);
  const [plan, mandate, charges, events] = await Promise.all([
    tenantPlan(db, tenant, row.plan_id),
    tenantMandate(db, tenant, row.mandate_id),
    subscriptionCharges(db, row),
    eventSummariesAbout(db, [id]),
  ]);
  return {
    subscription: subscriptionFromRow(row, customerUrlOf(config)),
    plan: plan === undefined ? undefined : planFromRow(plan),
    mandate: mandate === undefined ? undefined : mandateFromRow(mandate),
    charges: charges.map(chargeView),
    events: events.map((e) => ({ id: e.id, type: e.type, created_at: e.created_at.toISOString() })),
  };
}

const chargeView = (c: Awaited<ReturnType<typeof subscriptionCharges>>[number]) => ({
  key: c.idempotency_key,
  debit_id: c.debit_id,
  debit_status: c.debit_status,
  amount: Number(c.amount),
  payment_id: c.payment_id,
  payment_status: c.payment_status,
  created_at: c.created_at.toISOString(),
});

/** Cancels through the workflow (at once, or at the period's end) and answers the subscription as recorded. */
export async function cancelSubscription(
  deps: SubscriptionServiceDeps,
  tenant: Tenant,
  id: string,
  atPeriodEnd: boolean,
): Promise<Subscription> {
  const row = await found(deps.db, tenant, id);
  if (row.status !== 'canceled') await cancelSubscriptionWorkflow(deps.temporal, id, { at_period_end: atPeriodEnd });
  return subscriptionFromRow(await found(deps.db, tenant, id), customerUrlOf(deps.config));
}

/**
 * The operator's cancel (the CLI), by the subscription's id alone: the merchant's cancel, under the
 * subscription's own merchant and mode, so it goes through the workflow the same way.
 */
export async function cancelSubscriptionById(
  deps: SubscriptionServiceDeps,
  id: string,
  atPeriodEnd: boolean,
): Promise<Subscription> {
  const row = await subscriptionRowById(deps.db, id);
  if (row === undefined) throw new DomainError('subscription_not_found', `No subscription ${id}.`);
  return cancelSubscription(deps, { merchant: { id: row.merchant_id }, mode: row.mode }, id, atPeriodEnd);
}

/** The operator's view of one subscription (the CLI): as the API shows it, its merchant, its charges and its events. */
export async function subscriptionForOperator({ db, config }: SubscriptionReadDeps, id: string) {
  const row = await subscriptionRowById(db, id);
  if (row === undefined) throw new DomainError('subscription_not_found', `No subscription ${id}.`);
  const charges = await subscriptionCharges(db, row);
  const events = await eventSummariesAbout(db, [id]);
  return {
    subscription: { ...subscriptionFromRow(row, customerUrlOf(config)), merchant_id: row.merchant_id },
    charges: charges.map(chargeView),
    events: events.map((e) => ({ id: e.id, type: e.type, created_at: e.created_at.toISOString() })),
  };
}

/** The test helper: moves the subscription's own clock; answers once the charges now due are recorded. */
export async function advanceSubscriptionClock(
  deps: SubscriptionServiceDeps,
  auth: AuthState,
  id: string,
  seconds: number,
): Promise<Subscription> {
  testModeOnly(auth);
  await found(deps.db, auth, id);
  try {
    await advanceSubscriptionWorkflowClock(deps.temporal, id, { seconds });
  } catch (error) {
    throw updateRefusal(error) ?? error;
  }
  return subscriptionFromRow(await found(deps.db, auth, id), customerUrlOf(deps.config));
}

/**
 * A period's charge (the workflow's activity, composed by the worker): the debit admission every
 * debit goes through, keyed by subscription, period and attempt, for the plan's amount. A refusal
 * (the mandate no longer active, a limit) is an answer: the workflow counts it as a failed charge.
 */
export async function admitSubscriptionCharge(
  { db, config }: { db: Db; config: DebitPaymentConfig },
  asked: { subscription_id: string; period: number; attempt: number },
): Promise<ChargeAdmission> {
  const subscription = await subscriptionRowById(db, asked.subscription_id);
  if (subscription === undefined) return { kind: 'refused', code: 'subscription_not_found' };
  const merchant = (await merchantById(db, subscription.merchant_id))!;
  const mandate = (await mandateRowById(db, subscription.mandate_id))!;
  const owner = {
    merchant: {
      id: merchant.id,
      fee_plan: { bps: merchant.fee_bps, min: Number(merchant.fee_min), max: Number(merchant.fee_max) },
    },
    mode: subscription.mode,
  };
  try {
    const { debit, payment } = await admitDebitWithPayment(
      db,
      config,
      owner,
      mandate,
      {
        amount: Number(subscription.amount),
        merchant_reference: `sub-${subscription.id.slice(0, 8)}-${asked.period}`,
        description: `subscription ${subscription.id}, period ${asked.period}`,
      },
      chargeKey(subscription.id, asked.period, asked.attempt),
    );
    return { kind: 'admitted', debit: debitWorkflowInput(owner, debit, payment) };
  } catch (error) {
    if (error instanceof DomainError) return { kind: 'refused', code: error.code };
    throw error;
  }
}
