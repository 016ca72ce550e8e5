/**
 * Refunds to the card that paid (docs/PAYMENTS.md#refunds-to-the-card-that-paid): a `payer_card` refund
 * waits (`awaiting_payer`) until the customer opens its claim link and types the card that paid. The card
 * is matched with what the PSP told of the paying card (psp_sale_claims' keyed hash, else its masked
 * number, and the payment's own masked number), then the identity provider names the card's account
 * (IBAN and owner), and the refund's workflow is handed that account, never the card.
 *
 * The card number lives only in this request: it is compared, sent to the identity provider, and
 * dropped. Nothing here logs it, stores it, puts it in an error or in a workflow's history.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Client } from '@temporalio/client';
import {
  identityProviders,
  IdentityRefusalError,
  IdentityUnavailableError,
  type IdentityProvider,
} from '../adapters/identity/identity-provider.ts';
import { keyedHashOfCard } from '../psps/card-hash.ts';
import { cardHashKey, type Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { paymentById, paymentFromRow } from '../db/payments.ts';
import { countClaimAttempt, refundFromRow, refundWithMerchant, returnClaimAttempt } from '../db/refunds.ts';
import { saleOfPayment } from '../db/sale-claims.ts';
import { CLAIM_ATTEMPTS_MAX } from '../domain/refund.ts';
import type { Refund } from '../domain/refund-schemas.ts';
import { DomainError } from '../errors.ts';
import { decideRefund } from '../temporal/refunds.ts';

/** The provider's outage, for the claim page's 503. */
export { IdentityUnavailableError };

export type IdentityProviders = { test?: IdentityProvider; live?: IdentityProvider };

/** The signature of a refund's claim link: HMAC-SHA256 under CARD_HASH_KEY (kept, the same on every API process) of the refund's id. */
export function claimToken(config: Pick<Config, 'CARD_HASH_KEY'>, refundId: string): string {
  return createHmac('sha256', cardHashKey(config)).update(`dargah-refund-claim:${refundId}`).digest('base64url');
}

/** Whether `token` is the signature of refund `refundId`'s claim link (compared in constant time). */
export function claimTokenValid(config: Pick<Config, 'CARD_HASH_KEY'>, refundId: string, token: string): boolean {
  const mine = Buffer.from(claimToken(config, refundId));
  const theirs = Buffer.from(token);
  return mine.length === theirs.length && timingSafeEqual(mine, theirs);
}

/** The claim page's address of a refund to the payer's card, to pass on to the customer; null for any other refund. */
export function claimUrl(config: Pick<Config, 'CARD_HASH_KEY' | 'PUBLIC_BASE_URL'>, refund: Refund): string | null {
  if (refund.method !== 'payer_card') return null;
  const base = config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  return `${base}/refund-claims/${refund.id}?t=${claimToken(config, refund.id)}`;
}

/** A refund as the API and the dashboard show it: with its claim link. */
export const shownRefund = (config: Pick<Config, 'CARD_HASH_KEY' | 'PUBLIC_BASE_URL'>, refund: Refund): Refund => ({
  ...refund,
  owner_name: refund.owner_name ?? null,
  held_for: refund.held_for ?? null,
  claim_url: claimUrl(config, refund),
});

/** A card number as typed (spaces, dashes, Persian or Arabic digits), as 16 ASCII digits; undefined when it is not one. */
export function cardDigits(typed: string): string | undefined {
  const ascii = typed
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\s-]/g, '');
  return /^[0-9]{16}$/.test(ascii) ? ascii : undefined;
}

/** Whether a masked card number (first six, stars, last four) is of `card`. */
const maskOf = (masked: string, card: string) => {
  const m = /^([0-9]{6})\*+([0-9]{4})$/.exec(masked);
  return m !== null && card.startsWith(m[1]!) && card.endsWith(m[2]!);
};

/**
 * Whether `card` is the card that paid: the PSP's hash of it where the PSP gave one (compared as keyed
 * hashes), and every masked number on record agreeing. `unknown`: the PSP said nothing of the card.
 */
export function paidWithCard(
  key: string,
  card: string,
  known: { card_hash: string | null; masks: (string | null)[] },
): 'match' | 'mismatch' | 'unknown' {
  const masks = known.masks.filter((m): m is string => m !== null);
  if (known.card_hash === null && masks.length === 0) return 'unknown';
  const hashAgrees =
    known.card_hash === null ||
    (() => {
      const mine = Buffer.from(keyedHashOfCard(key, card), 'hex');
      const theirs = Buffer.from(known.card_hash, 'hex');
      return mine.length === theirs.length && timingSafeEqual(mine, theirs);
    })();
  return hashAgrees && masks.every((m) => maskOf(m, card)) ? 'match' : 'mismatch';
}

/** What the claim page shows: the refund, its merchant, and what is known of the paying card (masked). */
export interface ClaimSubject {
  refund: Refund;
  merchantName: string;
  mode: 'test' | 'live';
  /** The masked paying card, to tell the customer which card to type. */
  cardPan: string | null;
  attemptsLeft: number;
}

/** The refund behind a claim link, or undefined when the link is not one (an unknown id, a wrong signature). */
export async function claimSubject(
  db: Db,
  config: Pick<Config, 'CARD_HASH_KEY'>,
  refundId: string,
  token: string,
): Promise<ClaimSubject | undefined> {
  if (!claimTokenValid(config, refundId, token)) return undefined;
  const row = await refundWithMerchant(db, refundId);
  if (row === undefined || row.method !== 'payer_card') return undefined;
  const payment = await paymentById(db, row.payment_id);
  return {
    refund: refundFromRow(row),
    merchantName: row.merchant_name,
    mode: row.mode,
    cardPan: payment?.card_pan ?? null,
    attemptsLeft: Math.max(0, CLAIM_ATTEMPTS_MAX - Number(row.claim_attempts)),
  };
}

/** Why a claim was not taken, for the page to say. */
export type ClaimRefusal =
  | 'not_waiting' // the refund no longer waits for its payer (claimed, failed) or waits for the operator first
  | 'locked' // too many wrong cards
  | 'invalid_card' // not 16 digits
  | 'wrong_card' // not the card that paid
  | 'card_unknown' // the PSP said nothing of the paying card: the claim cannot be checked
  | 'identity_refused' // the identity provider refused the card (unknown card, no account)
  | 'no_provider'; // the mode has no identity provider configured

export class ClaimRefused extends Error {
  readonly why: ClaimRefusal;
  readonly attemptsLeft?: number;
  constructor(why: ClaimRefusal, attemptsLeft?: number) {
    super(`refund claim refused: ${why}`);
    this.why = why;
    this.attemptsLeft = attemptsLeft;
  }
}

export interface ClaimDependencies {
  db: Db;
  temporal: Client;
  config: Config;
  identity: IdentityProviders;
}

/**
 * Claims `subject`'s refund with `typed`, the card the customer typed. A wrong card counts one attempt
 * (CLAIM_ATTEMPTS_MAX in all, counted by a conditional update before the card is compared, so guesses
 * sent at once are bounded too; the paying card's attempt is given back). Throws ClaimRefused, or
 * IdentityUnavailableError (the page answers 503: nothing recorded, the customer tries again).
 */
export async function claimRefund(deps: ClaimDependencies, subject: ClaimSubject, typed: string): Promise<Refund> {
  const { db, temporal, config } = deps;
  const { refund } = subject;
  if (refund.status !== 'awaiting_payer') throw new ClaimRefused('not_waiting');
  const card = cardDigits(typed);
  if (card === undefined) throw new ClaimRefused('invalid_card', subject.attemptsLeft);
  if (!(await countClaimAttempt(db, refund.id, CLAIM_ATTEMPTS_MAX))) {
    const now = await refundWithMerchant(db, refund.id);
    throw new ClaimRefused(now?.status === 'awaiting_payer' ? 'locked' : 'not_waiting', 0);
  }
  const paymentRow = await paymentById(db, refund.payment_id);
  if (paymentRow === undefined) throw new ClaimRefused('not_waiting');
  const sale =
    paymentRow.reference_id === null ? undefined : await saleOfPayment(db, paymentRow.id, paymentRow.reference_id);
  const verdict = paidWithCard(cardHashKey(config), card, {
    card_hash: sale?.card_hash ?? null,
    masks: [sale?.card_pan ?? null, paymentRow.card_pan],
  });
  if (verdict === 'unknown') {
    await returnClaimAttempt(db, refund.id);
    throw new ClaimRefused('card_unknown');
  }
  if (verdict === 'mismatch') throw new ClaimRefused('wrong_card', Math.max(0, subject.attemptsLeft - 1));
  // The paying card: its attempt is given back whatever the provider answers.
  await returnClaimAttempt(db, refund.id);
  const provider = deps.identity[subject.mode];
  if (provider === undefined) throw new ClaimRefused('no_provider');
  let account: { iban: string; owner_name: string };
  try {
    account = await provider.cardToIban(card);
  } catch (error) {
    if (error instanceof IdentityRefusalError) throw new ClaimRefused('identity_refused');
    if (error instanceof IdentityUnavailableError) throw error;
    // Anything else is the provider failing to answer as its contract says: unavailable, never a refusal.
    throw new IdentityUnavailableError('the identity provider gave no usable answer');
  }
  if (!/^IR[0-9]{24}$/.test(account.iban) || account.owner_name.trim() === '')
    throw new IdentityUnavailableError('the identity provider named no Sheba IBAN and owner');
  const payment = paymentFromRow(paymentRow);
  try {
    return await decideRefund(temporal, config, paymentRow.merchant_id, payment, {
      refund_id: refund.id,
      decision: 'claim',
      payee: { iban: account.iban, owner_name: account.owner_name.trim() },
    });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'refund_not_awaiting') throw new ClaimRefused('not_waiting');
    throw error;
  }
}

/** Each mode's identity provider as configured (docs/identity.md). */
export const configuredIdentity = (config: Config): IdentityProviders => identityProviders(config);
