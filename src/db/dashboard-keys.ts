/** What the dashboard reads of an API key before rolling it (src/accounts/dashboard-keys.ts). */
import type { Db } from './database.ts';

/** The key's merchant, mode and prefix; undefined if there is no such key. */
export function apiKeyOwner(db: Db, keyId: string) {
  return db.selectFrom('api_keys').select(['merchant_id', 'mode', 'prefix']).where('id', '=', keyId).executeTakeFirst();
}
