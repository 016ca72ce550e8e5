import assert from 'node:assert/strict';
import {
  amountFromText,
  chosenAmount,
  collectedMetadata,
  collectedProblems,
  isSlug,
  linkUnavailability,
  paymentLinkProblems,
  SLUG_ALPHABET,
  SLUG_LENGTH,
  slugFromBytes,
} from '../../../src/domain/payment-link.ts';
import { LINK_AUTO_VERIFY_BOUND_MAX_MS, linkAutoVerifyBoundMs } from '../../../src/domain/payment.ts';
import { waitingBoundsSeconds } from '../../../src/db/stuck.ts';

const NOW = Date.parse('2026-11-26T10:00:00Z');
const open = { active: true, expires_at: null, max_payments: null, payments_count: 0 };

describe('payment links: the rules', () => {
  describe('the amount', () => {
    const range = { amount: null, min_amount: 100_000, max_amount: 500_000 };
    it('a fixed amount is what the customer pays, whatever they send', () => {
      assert.equal(chosenAmount({ amount: 250_000, min_amount: null, max_amount: null }, 999), 250_000);
      assert.equal(chosenAmount({ amount: 250_000, min_amount: null, max_amount: null }, undefined), 250_000);
    });
    it('a range takes an amount at either bound and between', () => {
      for (const amount of [100_000, 100_001, 300_000, 500_000]) assert.equal(chosenAmount(range, amount), amount);
    });
    it('a range refuses an amount outside it, a missing one and a fraction', () => {
      for (const amount of [99_999, 500_001, 0, -5, 1.5, undefined]) {
        const answer = chosenAmount(range, amount);
        assert.equal(typeof answer, 'object', String(amount));
        assert.equal((answer as { path: string }).path, 'amount');
      }
    });
    it('reads digits as typed on a phone: Persian, Arabic-Indic, with separators', () => {
      assert.equal(amountFromText('۱۵۰۰۰۰'), 150_000);
      assert.equal(amountFromText('١٢٣'), 123);
      assert.equal(amountFromText('1,500,000'), 1_500_000);
      assert.equal(amountFromText('۱٬۵۰۰٬۰۰۰'), 1_500_000);
      assert.equal(amountFromText(' 2 000 '), 2000);
      for (const text of ['', 'abc', '12.5', '-3', '1e6', '99999999999999999'])
        assert.equal(amountFromText(text), undefined, text);
    });
  });

  describe('a new link', () => {
    const base = { title: 'Notebook' };
    it('takes a fixed amount, or a whole range in order', () => {
      assert.deepEqual(paymentLinkProblems({ ...base, amount: 1000 }, NOW), []);
      assert.deepEqual(paymentLinkProblems({ ...base, min_amount: 1000, max_amount: 1000 }, NOW), []);
    });
    it('refuses both, neither, half a range and a range upside down', () => {
      assert.deepEqual(
        paymentLinkProblems({ ...base, amount: 1000, min_amount: 10, max_amount: 20 }, NOW).map((p) => p.path),
        ['amount'],
      );
      assert.deepEqual(
        paymentLinkProblems(base, NOW).map((p) => p.path),
        ['amount'],
      );
      assert.deepEqual(
        paymentLinkProblems({ ...base, min_amount: 10 }, NOW).map((p) => p.path),
        ['amount'],
      );
      assert.deepEqual(
        paymentLinkProblems({ ...base, min_amount: 20, max_amount: 10 }, NOW).map((p) => p.path),
        ['min_amount'],
      );
    });
    it('refuses an expiry that is not in the future', () => {
      assert.deepEqual(
        paymentLinkProblems({ ...base, amount: 1, expires_at: new Date(NOW).toISOString() }, NOW).map((p) => p.path),
        ['expires_at'],
      );
      assert.deepEqual(
        paymentLinkProblems({ ...base, amount: 1, expires_at: new Date(NOW + 1000).toISOString() }, NOW),
        [],
      );
    });
  });

  describe('when a link takes a payment', () => {
    it('an open link does', () => assert.equal(linkUnavailability(open, NOW), undefined));
    it('a deactivated one does not, whatever else holds', () =>
      assert.equal(
        linkUnavailability({ ...open, active: false, max_payments: 1, payments_count: 1 }, NOW),
        'payment_link_inactive',
      ));
    it('expires at expires_at exactly, not a moment before', () => {
      const at = new Date(NOW).toISOString();
      assert.equal(linkUnavailability({ ...open, expires_at: at }, NOW - 1), undefined);
      assert.equal(linkUnavailability({ ...open, expires_at: at }, NOW), 'payment_link_expired');
    });
    it('is used up once payments_count reaches max_payments', () => {
      assert.equal(linkUnavailability({ ...open, max_payments: 3, payments_count: 2 }, NOW), undefined);
      assert.equal(linkUnavailability({ ...open, max_payments: 3, payments_count: 3 }, NOW), 'payment_link_used_up');
    });
  });

  describe('the collected fields', () => {
    const collect = { name: 'required', mobile: 'optional' } as const;
    it('asks for required ones and accepts optional ones left out', () => {
      assert.deepEqual(
        collectedProblems(collect, {}).map((p) => p.path),
        ['name'],
      );
      assert.deepEqual(
        collectedProblems(collect, { name: '  ' }).map((p) => p.path),
        ['name'],
      );
      assert.deepEqual(collectedProblems(collect, { name: 'سارا' }), []);
    });
    it('checks the mobile number and free text', () => {
      assert.deepEqual(
        collectedProblems(collect, { name: 'Sara', mobile: '0912' }).map((p) => p.path),
        ['mobile'],
      );
      assert.deepEqual(
        collectedProblems(collect, { name: 'Sara\u202E', mobile: '09121234567' }).map((p) => p.path),
        ['name'],
      );
      assert.deepEqual(
        collectedProblems(collect, { name: 'x'.repeat(101) }).map((p) => p.path),
        ['name'],
      );
    });
    it('keeps only the fields asked for and given, under link_<field>', () => {
      assert.deepEqual(collectedMetadata(collect, { name: ' Sara ', mobile: '', note: 'not asked' }), {
        link_name: 'Sara',
      });
    });
  });

  describe('the slug', () => {
    it('is ten letters of the alphabet, whatever the bytes', () => {
      for (const bytes of [
        new Uint8Array(SLUG_LENGTH),
        new Uint8Array(SLUG_LENGTH).fill(255),
        Uint8Array.from({ length: SLUG_LENGTH }, (_, i) => i * 25),
      ]) {
        const slug = slugFromBytes(bytes);
        assert.equal(slug.length, SLUG_LENGTH);
        assert.ok(isSlug(slug), slug);
        for (const c of slug) assert.ok(SLUG_ALPHABET.includes(c));
      }
    });
    it('has no look-alike letters', () => {
      for (const c of '01ilo') assert.ok(!SLUG_ALPHABET.includes(c), c);
    });
    it('refuses what is not one', () => {
      for (const text of ['', 'abc', 'ABCDEFGHJK', 'abcdefghj0', 'abcdefghjkm', '../qr.svg'])
        assert.equal(isSlug(text), false, text);
    });
    it('needs enough random bytes', () => assert.throws(() => slugFromBytes(new Uint8Array(3))));
  });
});

describe("a payment link's payment: the bound of its workflow's settle", () => {
  it('is ten minutes at most, half the verify window when that is shorter, never zero', () => {
    assert.equal(
      linkAutoVerifyBoundMs(1_800_000),
      LINK_AUTO_VERIFY_BOUND_MAX_MS,
      'the default 30 min window: ten minutes',
    );
    assert.equal(LINK_AUTO_VERIFY_BOUND_MAX_MS, 600_000);
    assert.equal(linkAutoVerifyBoundMs(600_000), 300_000, 'a 10 min window: five minutes, the rest for the reversal');
    assert.equal(linkAutoVerifyBoundMs(3_001), 1_500);
    assert.equal(linkAutoVerifyBoundMs(1), 1);
  });

  it('is what the stuck listing waits for, plus its margin, before raising a link payment still paid', () => {
    const bounds = waitingBoundsSeconds({
      STUCK_AFTER_SECONDS: 600,
      PAYMENT_TTL_SECONDS: 900,
      BANK_PENDING_LIMIT_SECONDS: 1200,
      VERIFY_WINDOW_SECONDS: 1800,
      REVIEW_REMINDER_HOURS: 24,
    });
    assert.equal(bounds['payment paid by link'], 600 + 600);
    assert.equal(bounds['payment paid'], 1800 + 600);
    const short = waitingBoundsSeconds({
      STUCK_AFTER_SECONDS: 60,
      PAYMENT_TTL_SECONDS: 900,
      BANK_PENDING_LIMIT_SECONDS: 1200,
      VERIFY_WINDOW_SECONDS: 301,
      REVIEW_REMINDER_HOURS: 24,
    });
    assert.equal(short['payment paid by link'], 151 + 60, 'half of 301 s, rounded up to a second');
  });
});
