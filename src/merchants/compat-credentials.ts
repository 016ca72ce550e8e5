/**
 * Compatible protocols' credentials (docs/COMPAT.md#credentials): per merchant and mode, a
 * ZarinPal-style `merchant_id` (a lowercase UUID, the 36 characters ZarinPal's clients check) and a
 * Zibal `merchant` (24 hex characters, as Zibal's are). Both are bearer secrets like API keys: only
 * their SHA-256 is stored, they are shown once when issued, and issuing a new pair rolls the old one
 * (it keeps working for the grace asked for, then expires; any older one ends). A request authenticated
 * by one is scoped exactly as by an API key of the same merchant and mode, and counted in one request
 * budget per merchant and mode (src/compat/caller.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  compatCredentialCallerByHash,
  expireCompatCredentials,
  expireCompatCredentialsBy,
  insertCompatCredential,
  merchantCompatCredentials,
  revokeCompatCredentialsOfMode,
  touchCompatCredentialLastUsed,
  workingCompatCredentials,
} from '../db/compat-credentials.ts';
import type { Db } from '../db/database.ts';
import { lockMerchantRow } from '../db/merchants.ts';
import type { CompatProtocol } from '../domain/compat-protocols.ts';
import type { AuthState, KeyMode } from '../domain/merchant.ts';
import { DomainError } from '../errors.ts';
import { credentialAuth, hashKey } from './keys.ts';
import { OnboardingError } from './merchants.ts';
import { merchantOf } from './onboarding.ts';

/** What a merchant pastes where ZarinPal's or Zibal's value was; shown once. */
export interface CompatCredentials {
  zarinpal_merchant_id: string;
  zibal_merchant: string;
}

const newValue: Record<CompatProtocol, () => string> = {
  zarinpal: () => randomUUID(),
  zibal: () => randomBytes(12).toString('hex'),
};

/**
 * Issues a merchant's pair for a mode. The pair in force until now keeps working for
 * `previousExpiresInSeconds` (0: it ends at once), as a rolled API key does, so a site can switch
 * without a gap; every older pair ends now. So at most two pairs of a mode work at any time, the
 * current one and one in grace (docs/COMPAT.md#credentials): re-issuing cannot pile up working
 * credentials (each was once a rate-limit bucket of its own, and each is a secret that can leak).
 */
export async function issueCompatCredentials(
  db: Db,
  merchantId: string,
  mode: string,
  previousExpiresInSeconds = 0,
): Promise<CompatCredentials & { mode: KeyMode; previous_expire_at: string }> {
  if (mode !== 'test' && mode !== 'live') throw new OnboardingError('--mode must be test or live');
  const merchant = await merchantOf(db, merchantId);
  if (mode === 'live' && !merchant.live_mode)
    throw new OnboardingError('live mode is not active for this merchant (live activate)');
  const values = { zarinpal: newValue.zarinpal(), zibal: newValue.zibal() };
  const previousExpireAt = await db.transaction().execute(async (trx) => {
    // One issue at a time per merchant: two at once would each keep "the pair before" in grace.
    await lockMerchantRow(trx, merchantId);
    const clock = new Date();
    const working = await workingCompatCredentials(trx, merchantId, mode, clock);
    // A pair is the two rows issued together (one created_at); the newest is the one in force.
    const current = Math.max(...working.map((row) => row.created_at.getTime()));
    // The new pair's time, read under the lock and after the newest pair's: issues in the same millisecond
    // would otherwise share a created_at, count as one pair and all stay working.
    const now = new Date(Math.max(clock.getTime(), current + 1));
    const graceEnd = new Date(clock.getTime() + previousExpiresInSeconds * 1000);
    const older = working.filter((row) => row.created_at.getTime() !== current).map((row) => row.id);
    const inForce = working.filter((row) => row.created_at.getTime() === current).map((row) => row.id);
    if (older.length > 0) await expireCompatCredentials(trx, older, clock);
    if (inForce.length > 0) await expireCompatCredentialsBy(trx, inForce, graceEnd);
    for (const protocol of ['zarinpal', 'zibal'] as const) {
      const value = values[protocol];
      await insertCompatCredential(trx, {
        id: randomUUID(),
        merchantId,
        mode,
        protocol,
        valueHash: hashKey(value),
        hint: value.slice(-4),
        createdAt: now,
      });
    }
    return graceEnd;
  });
  return {
    zarinpal_merchant_id: values.zarinpal,
    zibal_merchant: values.zibal,
    mode,
    previous_expire_at: previousExpireAt.toISOString(),
  };
}

/** Revokes every credential of a merchant's mode at once: their requests are refused from now on. */
export async function revokeCompatCredentials(db: Db, merchantId: string, mode: string): Promise<{ revoked: number }> {
  if (mode !== 'test' && mode !== 'live') throw new OnboardingError('--mode must be test or live');
  await merchantOf(db, merchantId);
  return { revoked: await revokeCompatCredentialsOfMode(db, merchantId, mode, new Date()) };
}

/** A merchant's credentials, newest first: never the values, only their last four characters. */
export async function listCompatCredentials(db: Db, merchantId: string) {
  return merchantCompatCredentials(db, merchantId);
}

/** last_used_at is written at most this often per credential. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Who a protocol's credential speaks for, or 401 `invalid_api_key` for anything but a known,
 * unrevoked, unexpired credential of that protocol (the protocol's own code for an unknown merchant).
 */
export async function authenticateCompatCredential(
  db: Db,
  protocol: CompatProtocol,
  value: string,
): Promise<AuthState> {
  const row = await compatCredentialCallerByHash(db, hashKey(value));
  const now = new Date();
  if (
    row === undefined ||
    row.protocol !== protocol ||
    row.revoked_at !== null ||
    (row.expires_at !== null && row.expires_at <= now)
  ) {
    throw new DomainError(
      'invalid_api_key',
      'The merchant is not valid, or its credential was revoked or has expired.',
    );
  }
  if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    // Bookkeeping only: a failure here must not fail the request.
    touchCompatCredentialLastUsed(db, row.key_id, now).catch(() => undefined);
  }
  return credentialAuth(row);
}
