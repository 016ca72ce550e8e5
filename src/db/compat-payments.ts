/** The payments as ZarinPal's and Zibal's protocols find them (docs/COMPAT.md), beside payments.ts. */
import type { Db } from './database.ts';
import type { Tenant } from '../domain/merchant.ts';
import { zibalTrackIdIs } from './payments.ts';
import { scopedTo } from './tenant.ts';

/** The tenant's payment a Zibal trackId names (zibalTrackIdIs), if it has one. */
export function zibalPaymentOfTenant(db: Db, trackId: string, tenant: Tenant) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where(zibalTrackIdIs(trackId))
    .where(scopedTo(tenant))
    .executeTakeFirst();
}
