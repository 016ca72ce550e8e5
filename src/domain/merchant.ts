/**
 * Who a request acts for. A key belongs to one merchant and one mode, and
 * everything a merchant owns (payments, refunds, webhook endpoints, events)
 * is scoped to that pair: another merchant's objects, or the other mode's,
 * do not exist for the caller (docs/API.md#authentication-and-keys).
 */
import type { FeePlan } from './payment.ts';

export const KEY_MODES = ['test', 'live'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

/** What a key may do beyond reading and taking payments (src/domain/key-scopes.ts, docs/API.md#key-scopes). */
export const KEY_SCOPES = ['refunds'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface Merchant {
  id: string;
  name: string;
  domains: string[];
  /** The domains the merchant proved it controls: the only ones a live payment may return to. */
  verifiedDomains: string[];
  fee_plan: FeePlan;
}

/** The owner of an object: a merchant in one mode. */
export interface Tenant {
  merchant: Pick<Merchant, 'id'>;
  mode: KeyMode;
}

/** Who is calling: the key's merchant and mode, set by authentication on every /api/v1 request. */
export interface AuthState extends Tenant {
  merchant: Merchant;
  keyId: string;
  /** The key's scopes: every one for a test key, the granted ones for a live key. */
  scopes: readonly KeyScope[];
}

/** The tenant of a stored object, from its merchant_id and mode columns. */
export const tenantOf = (merchantId: string, mode: KeyMode): Tenant => ({ merchant: { id: merchantId }, mode });

/**
 * Whether a callback host is on one of these domains or a subdomain of one;
 * the loopback addresses count as `localhost`.
 */
export function domainCovers(domains: readonly string[], host: string): boolean {
  const lower = host.toLowerCase();
  const bare = lower === '127.0.0.1' || lower === '[::1]' ? 'localhost' : lower;
  return domains.some((domain) => bare === domain || bare.endsWith(`.${domain}`));
}
