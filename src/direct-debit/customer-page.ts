/**
 * The customer's own page of a subscription (docs/SUBSCRIPTIONS.md#the-customers-page):
 * `/subscriptions/{id}?t=<token>`, where the token is the HMAC-SHA256 of the subscription's id under
 * CARD_HASH_KEY (the key the refund claim links are signed with: kept, the same on every API and
 * worker process) with a purpose of its own, so a claim link's signature never opens a subscription.
 * The page shows what the customer pays and lets them cancel at the period's end, by the merchant's
 * own cancel (cancelSubscription, through the subscription's workflow). A wrong or missing token finds
 * nothing, exactly like an unknown id.
 */
import type { Db } from '../db/database.ts';
import { mandateRowById } from '../db/mandates.ts';
import { merchantById } from '../db/merchants.ts';
import { planFromRow, subscriptionFromRow, subscriptionRowById, tenantPlan } from '../db/subscriptions.ts';
import type { Plan, Subscription } from '../domain/subscription-schemas.ts';
import { customerUrlOf, subscriptionPageTokenValid, type CustomerPageConfig } from './customer-links.ts';
import { cancelSubscription, type SubscriptionServiceDeps } from './subscriptions.ts';

export { subscriptionCustomerUrl } from './customer-links.ts';

/** What the customer's page shows. */
export interface CustomerSubscription {
  subscription: Subscription;
  plan: Plan;
  merchantName: string;
  merchantId: string;
  /** The bank the customer signed the mandate at; null when none was recorded. */
  bank: { code: string; name: string } | null;
}

/** The subscription behind a customer link, or undefined when the link is not one (an unknown id, a wrong token). */
export async function customerSubscription(
  db: Db,
  config: CustomerPageConfig,
  id: string,
  token: string,
): Promise<CustomerSubscription | undefined> {
  if (!subscriptionPageTokenValid(config, id, token)) return undefined;
  const row = await subscriptionRowById(db, id);
  if (row === undefined) return undefined;
  const tenant = { merchant: { id: row.merchant_id }, mode: row.mode };
  const [plan, mandate, merchant] = await Promise.all([
    tenantPlan(db, tenant, row.plan_id),
    mandateRowById(db, row.mandate_id),
    merchantById(db, row.merchant_id),
  ]);
  if (plan === undefined || mandate === undefined || merchant === undefined) return undefined;
  return {
    subscription: subscriptionFromRow(row, customerUrlOf(config)),
    plan: planFromRow(plan),
    merchantName: merchant.name,
    merchantId: merchant.id,
    bank: mandate.bank_code === null ? null : { code: mandate.bank_code, name: mandate.bank_name ?? mandate.bank_code },
  };
}

/**
 * The customer's cancel from their page: at the period's end, by the merchant's own cancel (the
 * subscription's workflow decides; a canceled one is answered as it is). Undefined when the link is
 * not one.
 */
export async function cancelFromCustomerPage(
  deps: SubscriptionServiceDeps,
  id: string,
  token: string,
): Promise<CustomerSubscription | undefined> {
  const found = await customerSubscription(deps.db, deps.config, id, token);
  if (found === undefined) return undefined;
  await cancelSubscription(deps, { merchant: { id: found.merchantId }, mode: found.subscription.mode }, id, true);
  return customerSubscription(deps.db, deps.config, id, token);
}
