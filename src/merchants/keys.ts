/**
 * API keys: `sk_test_…` / `sk_live_…` followed by 43 characters of base64url
 * (32 random bytes). Only a SHA-256 hash is stored, with the first twelve
 * characters after the mode as a visible prefix to find the row.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { apiKeyCallerByPrefix, insertApiKey, touchApiKeyLastUsed } from '../db/api-keys.ts';
import type { Db } from '../db/database.ts';
import { callerDomains } from '../db/merchants.ts';
import { keyScopes } from '../domain/key-scopes.ts';
import type { AuthState, KeyMode, KeyScope } from '../domain/merchant.ts';
import { DomainError } from '../errors.ts';

const KEY_PATTERN = /^sk_(test|live)_([A-Za-z0-9_-]{43})$/;
const PREFIX_CHARS = 12;

export interface ParsedKey {
  mode: KeyMode;
  prefix: string;
  hash: Buffer;
}

export const hashKey = (key: string): Buffer => createHash('sha256').update(key).digest();

export function parseKey(key: string): ParsedKey | undefined {
  const match = KEY_PATTERN.exec(key);
  if (match === null) return undefined;
  const mode = match[1] as KeyMode;
  return { mode, prefix: `sk_${mode}_${match[2]!.slice(0, PREFIX_CHARS)}`, hash: hashKey(key) };
}

export function newKey(mode: KeyMode): { key: string; prefix: string; hash: Buffer } {
  const key = `sk_${mode}_${randomBytes(32).toString('base64url')}`;
  const parsed = parseKey(key)!;
  return { key, prefix: parsed.prefix, hash: parsed.hash };
}

export const hashesEqual = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** Creates and stores a key; the plain key is returned once and never again. */
export async function createKey(
  db: Db,
  merchantId: string,
  mode: KeyMode,
  options: { id?: string; now?: Date; refundsGrantedAt?: Date | null } = {},
): Promise<{ id: string; key: string; prefix: string }> {
  const id = options.id ?? randomUUID();
  const { key, prefix, hash } = newKey(mode);
  const createdAt = options.now ?? new Date();
  // Only a live key holds a granted scope (a test key has every scope without one).
  const refundsGrantedAt = mode === 'live' ? (options.refundsGrantedAt ?? null) : null;
  await insertApiKey(db, { id, merchantId, mode, prefix, hash, createdAt, refundsGrantedAt });
  return { id, key, prefix };
}

/**
 * Refuses a caller whose key lacks `scope` (docs/API.md#key-scopes): 403 `insufficient_scope`,
 * before anything is read or written. A test key holds every scope; a live key those its merchant granted.
 */
export function requireScope(caller: Pick<AuthState, 'mode' | 'scopes'>, scope: KeyScope): void {
  if (caller.scopes.includes(scope)) return;
  throw new DomainError(
    'insufficient_scope',
    `This live key may not do this: it lacks the "${scope}" scope. The account owner grants it on the dashboard's Developers page (with a second factor); nothing was done.`,
  );
}

/** last_used_at is written at most this often per key, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who a key speaks for (docs/API.md#authentication-and-keys): its merchant and mode,
 * or 401 `invalid_api_key` for anything but a known, unrevoked, unexpired
 * key, compared in constant time; 403 `live_mode_not_enabled` for a live
 * key before live mode is active.
 */
export async function authenticateKey(db: Db, key: string): Promise<AuthState> {
  const parsed = parseKey(key);
  if (parsed === undefined) throw new DomainError('invalid_api_key', 'The API key is not valid.');
  const row = await apiKeyCallerByPrefix(db, parsed.prefix);
  const now = new Date();
  if (
    row === undefined ||
    !hashesEqual(row.key_hash, parsed.hash) ||
    row.mode !== parsed.mode ||
    row.revoked_at !== null ||
    (row.expires_at !== null && row.expires_at <= now)
  ) {
    throw new DomainError('invalid_api_key', 'The API key is not valid, or it was revoked or has expired.');
  }
  if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    // Bookkeeping only: a failure here must not fail the request.
    touchApiKeyLastUsed(db, row.key_id, now).catch(() => undefined);
  }
  return credentialAuth(row, keyScopes(row.mode, row));
}

/**
 * Who a known, unrevoked, unexpired credential speaks for: its merchant (with the domains a
 * callback_url may use), mode and scopes; 403 `live_mode_not_enabled` for a live one before live mode
 * is active. A credential granted no scope (ZarinPal's and Zibal's values are granted none) holds
 * every scope in test mode and none live.
 */
export function credentialAuth(
  row: {
    key_id: string;
    mode: KeyMode;
    merchant_id: string;
    name: string;
    fee_bps: number;
    fee_min: number | bigint | string;
    fee_max: number | bigint | string;
    live_mode: number;
    /** The merchant's domains, as CALLER_COLUMNS reads them with the row. */
    domains: unknown;
  },
  scopes: readonly KeyScope[] = keyScopes(row.mode, { refunds_granted_at: null }),
): AuthState {
  if (row.mode === 'live' && !row.live_mode) {
    throw new DomainError(
      'live_mode_not_enabled',
      'Live mode is not active for this account yet; use a test key until the gateway is approved and live mode is activated.',
    );
  }
  const domains = callerDomains(row.domains);
  return {
    merchant: {
      id: row.merchant_id,
      name: row.name,
      domains: domains.map((d) => d.domain),
      verifiedDomains: domains.filter((d) => d.verified).map((d) => d.domain),
      fee_plan: { bps: row.fee_bps, min: Number(row.fee_min), max: Number(row.fee_max) },
    },
    mode: row.mode,
    keyId: row.key_id,
    scopes,
  };
}
