/**
 * Proving a site domain is the merchant's (docs/DASHBOARD.md#domain-verification):
 * the gateway gives each of the merchant's domains a random token, the merchant
 * publishes it as the file DOMAIN_VERIFICATION_PATH on that domain, and the
 * gateway fetches the file when the merchant asks. Only a verified domain can
 * be a live payment's callback domain (src/payments/create.ts); test payments
 * may return to unverified ones and their result page says so.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import {
  markDomainVerified,
  merchantDomainsWithoutToken,
  merchantDomainVerifications,
  setDomainVerificationToken,
} from '../db/merchant-domains.ts';
import { normalizeDomain, OnboardingError } from './merchants.ts';

/** Where the token is published on the merchant's domain. */
export const DOMAIN_VERIFICATION_PATH = '/.well-known/dargah-domain-verification.txt';
/** The file is one token: anything longer is not it, and is not read further. */
const MAX_FILE_BYTES = 1_024;
const FETCH_TIMEOUT_MS = 5_000;

export interface DomainVerificationState {
  domain: string;
  token: string;
  verified: boolean;
  /** The address the gateway fetches. */
  url: string;
}

/** Why a verification failed: the file is not there (or not reachable), or holds something else. */
export class DomainNotVerified extends Error {
  override name = 'DomainNotVerified';
  readonly reason: 'unreachable' | 'mismatch';
  constructor(reason: 'unreachable' | 'mismatch') {
    super(`the domain could not be verified: ${reason}`);
    this.reason = reason;
  }
}

/** The address of the file on `domain`: DOMAIN_VERIFICATION_URL with `{domain}` filled in. */
export function verificationUrl(config: Pick<Config, 'DOMAIN_VERIFICATION_URL'>, domain: string): string {
  return config.DOMAIN_VERIFICATION_URL.replace('{domain}', domain);
}

/** The merchant's domains with their tokens (made now for a domain that has none yet) and whether each is verified. */
export async function domainVerifications(
  db: Db,
  config: Pick<Config, 'DOMAIN_VERIFICATION_URL'>,
  merchantId: string,
): Promise<DomainVerificationState[]> {
  const missing = await merchantDomainsWithoutToken(db, merchantId);
  for (const { domain } of missing) {
    // Only where none is set: two pages shown at once keep the first token.
    await setDomainVerificationToken(
      db,
      merchantId,
      domain,
      `dargah-domain-verification=${randomBytes(24).toString('base64url')}`,
    );
  }
  const rows = await merchantDomainVerifications(db, merchantId);
  return rows.map((r) => ({
    domain: r.domain,
    token: r.verification_token ?? '',
    verified: r.verified_at !== null,
    url: verificationUrl(config, r.domain),
  }));
}

/**
 * Fetches the domain's file and marks the domain verified when it holds the
 * domain's token. One GET, no redirects followed (the file must be on the
 * domain itself), a bounded time and size. Throws DomainNotVerified, or
 * OnboardingError for a domain the merchant does not have.
 */
export async function verifyDomain(
  db: Db,
  config: Pick<Config, 'DOMAIN_VERIFICATION_URL'>,
  merchantId: string,
  input: string,
): Promise<void> {
  const domain = normalizeDomain(input);
  const states = await domainVerifications(db, config, merchantId);
  const state = states.find((s) => s.domain === domain);
  if (state === undefined) throw new OnboardingError(`no domain ${domain}`);
  if (state.verified) return;
  const published = await fetchSmallText(state.url);
  if (published === undefined) throw new DomainNotVerified('unreachable');
  if (published.trim() !== state.token) throw new DomainNotVerified('mismatch');
  await markDomainVerified(db, merchantId, domain, new Date());
}

/** The body of a 200 answer of at most MAX_FILE_BYTES, or undefined (no answer, another status, a redirect, too long). */
async function fetchSmallText(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'text/plain' },
    });
    if (response.status !== 200 || response.body === null) return undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_FILE_BYTES) {
        await response.body.cancel();
        return undefined;
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return undefined;
  }
}
