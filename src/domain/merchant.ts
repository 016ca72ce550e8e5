/**
 * Who a request acts for. A key belongs to one merchant and one mode, and
 * everything a merchant owns (payments, refunds, webhook endpoints, events)
 * is scoped to that pair: another merchant's objects, or the other mode's,
 * do not exist for the caller (docs/API.md#authentication-and-keys).
 */
import type { FeePlan } from './payment.ts';

export const KEY_MODES = ['test', 'live'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export interface Merchant {
  id: string;
  name: string;
  domains: string[];
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
}

/** The tenant of a stored object, from its merchant_id and mode columns. */
export const tenantOf = (merchantId: string, mode: KeyMode): Tenant => ({ merchant: { id: merchantId }, mode });
