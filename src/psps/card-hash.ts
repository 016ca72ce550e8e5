/**
 * The keyed hashes of the cards a payment may be paid with
 * (docs/SECURITY.md#allowed-cards). A PSP names the card that paid by its
 * SHA-256 (SEP's HashedPan), and the space of card numbers is small enough
 * for anyone holding a plain SHA-256 to find the card by trying them all.
 * The gateway therefore keeps, for each allowed card, an HMAC-SHA256 under
 * its own key (CARD_HASH_KEY) of that SHA-256: the same HMAC of the PSP's
 * HashedPan matches it, and a copy of the database alone gives nothing to try
 * cards against. Create computes them; the bank activity compares.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a full card number (digits only), lower-case hex: what SEP's HashedPan carries. */
export function cardSha256(cardNumber: string): string {
  return createHash('sha256').update(cardNumber.replace(/\D/g, '')).digest('hex');
}

/** The stored form of a card's SHA-256 (hex, either case): HMAC-SHA256 under `key`, hex. */
export function keyedCardHash(key: string, sha256Hex: string): string {
  return createHmac('sha256', key).update(sha256Hex.toLowerCase()).digest('hex');
}

/** The keyed hash of a full card number, as create stores it. */
export function keyedHashOfCard(key: string, cardNumber: string): string {
  return keyedCardHash(key, cardSha256(cardNumber));
}

/**
 * A create request as its Idempotency-Key fingerprint sees it: the cards and the national code by
 * their keyed hashes. A plain hash of the body would give away a card whose mask (ten of its
 * sixteen digits) is on the record: the six others, one of them the Luhn digit, are 10^5 guesses.
 */
export function restrictionFingerprint<R extends { allowed_cards?: readonly string[]; national_code?: string }>(
  key: string,
  request: R,
): R {
  return {
    ...request,
    ...(request.allowed_cards === undefined
      ? {}
      : { allowed_cards: request.allowed_cards.map((card) => keyedHashOfCard(key, card)) }),
    ...(request.national_code === undefined
      ? {}
      : { national_code: createHmac('sha256', key).update(`national_code:${request.national_code}`).digest('hex') }),
  };
}

/**
 * Whether the PSP's hash of the card that paid (`pspCardSha256`, SEP's HashedPan) is one of the
 * `allowed` keyed hashes. No hash from the PSP (a protocol that does not name the card) is never
 * allowed: a restriction is not waived because the bank was silent about the card.
 */
export function isAllowedCard(key: string, allowed: readonly string[], pspCardSha256: string | undefined): boolean {
  if (pspCardSha256 === undefined || !/^[0-9A-Fa-f]{64}$/.test(pspCardSha256)) return false;
  const mine = Buffer.from(keyedCardHash(key, pspCardSha256), 'hex');
  // Every entry compared, in constant time each: how far the list was read says nothing.
  return allowed.reduce((found, entry) => {
    const theirs = Buffer.from(entry, 'hex');
    return (theirs.length === mine.length && timingSafeEqual(theirs, mine)) || found;
  }, false);
}
