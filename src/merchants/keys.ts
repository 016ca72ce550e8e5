/**
 * API keys: `sk_test_…` / `sk_live_…` followed by 43 characters of base64url
 * (32 random bytes). Only a SHA-256 hash is stored, with the first twelve
 * characters after the mode as a visible prefix to find the row.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.ts';

export type KeyMode = 'test' | 'live';

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
  options: { id?: string; now?: Date } = {},
): Promise<{ id: string; key: string; prefix: string }> {
  const id = options.id ?? randomUUID();
  const { key, prefix, hash } = newKey(mode);
  await db
    .insertInto('api_keys')
    .values({ id, merchant_id: merchantId, mode, prefix, key_hash: hash, created_at: options.now ?? new Date() })
    .execute();
  return { id, key, prefix };
}
