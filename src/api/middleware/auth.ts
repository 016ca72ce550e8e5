import type { Middleware } from 'koa';
import type { Db } from '../../db/database.ts';
import { hashesEqual, parseKey, type KeyMode } from '../../merchants/keys.ts';
import { ApiError } from '../errors.ts';

export interface Merchant {
  id: string;
  name: string;
  domains: string[];
  fee_plan: { bps: number; min: number; max: number };
}

/** Who is calling: set by `authenticate` on every /api/v1 request except the OpenAPI document. */
export interface AuthState {
  merchant: Merchant;
  mode: KeyMode;
  keyId: string;
}

/** last_used_at is written at most this often per key, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function authenticate(db: Db): Middleware {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header === '') throw new ApiError('missing_api_key', 'Send your secret key as "Authorization: Bearer sk_test_…".');
    const match = /^Bearer +(\S+)$/i.exec(header);
    const parsed = match === null ? undefined : parseKey(match[1]!);
    if (parsed === undefined) throw new ApiError('invalid_api_key', 'The API key is not valid.');

    const row = await db
      .selectFrom('api_keys')
      .innerJoin('merchants', 'merchants.id', 'api_keys.merchant_id')
      .select([
        'api_keys.id as key_id',
        'api_keys.mode',
        'api_keys.key_hash',
        'api_keys.revoked_at',
        'api_keys.expires_at',
        'api_keys.last_used_at',
        'merchants.id as merchant_id',
        'merchants.name',
        'merchants.fee_bps',
        'merchants.fee_min',
        'merchants.fee_max',
        'merchants.live_mode',
      ])
      .where('api_keys.prefix', '=', parsed.prefix)
      .executeTakeFirst();
    const now = new Date();
    if (
      row === undefined ||
      !hashesEqual(row.key_hash, parsed.hash) ||
      row.mode !== parsed.mode ||
      row.revoked_at !== null ||
      (row.expires_at !== null && row.expires_at <= now)
    ) {
      throw new ApiError('invalid_api_key', 'The API key is not valid, or it was revoked or has expired.');
    }
    if (row.mode === 'live' && !row.live_mode) {
      throw new ApiError('live_mode_not_enabled', 'Live mode is not active for this account yet; use a test key until the gateway is approved and live mode is activated.');
    }
    const domains = await db.selectFrom('merchant_domains').select('domain').where('merchant_id', '=', row.merchant_id).execute();
    const state: AuthState = {
      merchant: {
        id: row.merchant_id,
        name: row.name,
        domains: domains.map((d) => d.domain),
        fee_plan: { bps: row.fee_bps, min: Number(row.fee_min), max: Number(row.fee_max) },
      },
      mode: row.mode,
      keyId: row.key_id,
    };
    ctx.state.auth = state;
    if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
      // Bookkeeping only: a failure here must not fail the request.
      db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.key_id).execute().catch(() => undefined);
    }
    await next();
  };
}
