/**
 * The signed link of a subscription's customer page (docs/SUBSCRIPTIONS.md#the-customers-page): the
 * HMAC-SHA256 of the subscription's id under CARD_HASH_KEY (the key the refund claim links are signed
 * with: kept, the same on every API and worker process), with a purpose of its own, so a claim link's
 * signature never opens a subscription. The API, the CLI and the worker's webhook events all give the
 * same `customer_url`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { cardHashKey, type Config } from '../config.ts';

export type CustomerPageConfig = Pick<Config, 'CARD_HASH_KEY' | 'PUBLIC_BASE_URL'>;

const PURPOSE = 'dargah-subscription-page';

/** The signature of a subscription's customer page. */
export function subscriptionPageToken(config: Pick<Config, 'CARD_HASH_KEY'>, subscriptionId: string): string {
  return createHmac('sha256', cardHashKey(config)).update(`${PURPOSE}:${subscriptionId}`).digest('base64url');
}

/** Whether `token` is the signature of subscription `subscriptionId`'s page (compared in constant time). */
export function subscriptionPageTokenValid(
  config: Pick<Config, 'CARD_HASH_KEY'>,
  subscriptionId: string,
  token: string,
): boolean {
  const mine = Buffer.from(subscriptionPageToken(config, subscriptionId));
  const theirs = Buffer.from(token);
  return mine.length === theirs.length && timingSafeEqual(mine, theirs);
}

/** The customer page's absolute address of a subscription, with its token: the resource's `customer_url`. */
export function subscriptionCustomerUrl(config: CustomerPageConfig, subscriptionId: string): string {
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  return `${base}/subscriptions/${subscriptionId}?t=${subscriptionPageToken(config, subscriptionId)}`;
}

/** `customer_url` of every subscription shown under this configuration. */
export const customerUrlOf = (config: CustomerPageConfig) => (id: string) => subscriptionCustomerUrl(config, id);
