/**
 * The table of the compatible protocols' credentials (migration 0035, docs/COMPAT.md#credentials),
 * beside schema.ts, which lists it in the Database.
 */
import type { Defaulted } from './schema-columns.ts';

/** A merchant's credential for a compatible protocol (docs/COMPAT.md): only its hash is stored. */
export interface CompatCredentialsTable {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  protocol: 'zarinpal' | 'zibal';
  value_hash: Buffer;
  hint: string;
  created_at: Date;
  revoked_at: Defaulted<Date | null>;
  expires_at: Defaulted<Date | null>;
  last_used_at: Defaulted<Date | null>;
}
