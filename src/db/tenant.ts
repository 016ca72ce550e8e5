/**
 * The tenant filter: the one place that keeps one merchant from another's
 * objects, and test mode from live (docs/API.md#authentication-and-keys). Every read
 * or write of a merchant's rows on behalf of a caller goes through
 * `scopedTo`; a row of another merchant or mode is then simply not found.
 */
import type { ExpressionBuilder, ExpressionWrapper, SqlBool } from 'kysely';
import type { Tenant } from '../domain/merchant.ts';
import type { Database } from './database.ts';

/** The tables whose rows belong to a merchant in one mode. */
export type TenantTable = {
  [T in keyof Database]: Database[T] extends { merchant_id: string; mode: 'test' | 'live' } ? T : never;
}[keyof Database];

/** `.where(scopedTo(auth))`: only the rows of the caller's merchant and mode. */
export function scopedTo(tenant: Tenant) {
  return <TB extends TenantTable>(
    eb: ExpressionBuilder<Database, TB>,
  ): ExpressionWrapper<Database, TenantTable, SqlBool> => {
    // Every TenantTable has these two columns; Kysely cannot see that through the type parameter.
    const ref = eb as unknown as ExpressionBuilder<Database, TenantTable>;
    return ref.and([ref('merchant_id', '=', tenant.merchant.id), ref('mode', '=', tenant.mode)]);
  };
}
