import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import {
  cardSha256,
  isAllowedCard,
  keyedCardHash,
  keyedHashOfCard,
  restrictionFingerprint,
} from '../../../src/psps/card-hash.ts';

const KEY = 'a-test-key-of-the-gateway-0123456789';
const CARD_X = '6037991234567893';
const CARD_Y = '5022291234567897';

describe('the keyed hashes of allowed cards', () => {
  it("hashes a card as SEP's HashedPan does (SHA-256 hex of the digits)", () => {
    assert.equal(cardSha256(CARD_X), createHash('sha256').update(CARD_X).digest('hex'));
    assert.equal(cardSha256('6037-9912 3456-7893'), cardSha256(CARD_X));
  });

  it('stores HMAC-SHA256 under the key of that hash: neither the card nor its plain hash', () => {
    const stored = keyedHashOfCard(KEY, CARD_X);
    assert.equal(stored, createHmac('sha256', KEY).update(cardSha256(CARD_X)).digest('hex'));
    assert.equal(stored, keyedCardHash(KEY, cardSha256(CARD_X).toUpperCase()));
    assert.notEqual(stored, cardSha256(CARD_X));
    assert.notEqual(stored, keyedHashOfCard('another-key-of-another-gateway-000', CARD_X));
  });

  it("allows the PSP's hash of an allowed card, in either case, and no other", () => {
    const allowed = [keyedHashOfCard(KEY, CARD_X)];
    assert.equal(isAllowedCard(KEY, allowed, cardSha256(CARD_X)), true);
    assert.equal(isAllowedCard(KEY, allowed, cardSha256(CARD_X).toUpperCase()), true);
    assert.equal(isAllowedCard(KEY, allowed, cardSha256(CARD_Y)), false);
    assert.equal(isAllowedCard(KEY, [keyedHashOfCard(KEY, CARD_Y), ...allowed], cardSha256(CARD_X)), true);
  });

  it('allows nothing the PSP did not name, named malformed, or under another key', () => {
    const allowed = [keyedHashOfCard(KEY, CARD_X)];
    assert.equal(isAllowedCard(KEY, allowed, undefined), false);
    assert.equal(isAllowedCard(KEY, allowed, ''), false);
    assert.equal(isAllowedCard(KEY, allowed, 'zz'.repeat(32)), false);
    assert.equal(isAllowedCard(KEY, [], cardSha256(CARD_X)), false);
    assert.equal(isAllowedCard('another-key-of-another-gateway-000', allowed, cardSha256(CARD_X)), false);
  });

  it('fingerprints a create request for its Idempotency-Key without its cards or national code, and leaves one without them as it is', () => {
    const request = { amount: 1000, allowed_cards: [CARD_X], national_code: '0499370899' };
    const seen = JSON.stringify(restrictionFingerprint(KEY, request));
    assert.doesNotMatch(seen, /6037991234567893|0499370899/);
    assert.equal(seen, JSON.stringify(restrictionFingerprint(KEY, request)));
    assert.notEqual(seen, JSON.stringify(restrictionFingerprint(KEY, { ...request, allowed_cards: [CARD_Y] })));
    const plain: { amount: number; allowed_cards?: string[] } = { amount: 1000 };
    assert.deepEqual(restrictionFingerprint(KEY, plain), plain);
  });
});
