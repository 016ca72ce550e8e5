import assert from 'node:assert/strict';
import {
  BANK_OUTCOMES,
  canTransition,
  CONFIRMED_STATUSES,
  isVerified,
  PAYMENT_STATUSES,
  STATUS_AFTER_OUTCOME,
  VERIFIED_STATUSES,
  type PaymentStatus,
} from '../../../src/domain/payment.ts';

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/**
 * The state machine of DESIGN §3, written out by hand: every status and the
 * statuses it may move to. Nothing here is read from TRANSITIONS, so a
 * change to the table in src/domain fails this test until it is made here too.
 */
const EXPECTED: Record<PaymentStatus, PaymentStatus[]> = {
  created: ['pending', 'paid', 'failed', 'canceled', 'expired'],
  pending: ['paid', 'failed'],
  paid: ['verified', 'reversed'],
  verified: ['partially_refunded', 'refunded'],
  // Another partial refund, the rest refunded, or a refused refund given back.
  partially_refunded: ['partially_refunded', 'refunded', 'verified'],
  // A pending full refund the bank refuses gives its amount back.
  refunded: ['partially_refunded', 'verified'],
  failed: [],
  canceled: [],
  expired: [],
  reversed: [],
};

const ALL: PaymentStatus[] = [
  'created',
  'pending',
  'paid',
  'verified',
  'failed',
  'canceled',
  'expired',
  'reversed',
  'partially_refunded',
  'refunded',
];

describe('payment transitions', () => {
  it('has exactly the ten statuses of the design', () => {
    assert.deepEqual([...PAYMENT_STATUSES].sort(), [...ALL].sort());
  });

  for (const from of ALL) {
    const allowed = EXPECTED[from];
    const title =
      allowed.length === 0
        ? `${article(from)} ${from} payment is final: it may not move to any status`
        : `${article(from)} ${from} payment may move to ${allowed.join(', ')} and to nothing else`;
    it(title, () => {
      for (const to of ALL) {
        assert.equal(canTransition(from, to), allowed.includes(to), `${from} -> ${to}`);
      }
    });
  }

  it('no payment goes back to created, and nothing but a refund moves to the same status', () => {
    for (const from of ALL) {
      assert.equal(canTransition(from, 'created'), false, `${from} -> created`);
      assert.equal(canTransition(from, from), from === 'partially_refunded', `${from} -> ${from}`);
    }
  });

  it('leaves no way out of failed, canceled, expired and reversed', () => {
    const final = ALL.filter((from) => ALL.every((to) => !canTransition(from, to)));
    assert.deepEqual(final.sort(), ['canceled', 'expired', 'failed', 'reversed']);
  });

  it('moves a created payment by the bank outcome: success → paid, failure → failed, cancel → canceled, delay → pending', () => {
    assert.deepEqual([...BANK_OUTCOMES].sort(), ['cancel', 'delay', 'failure', 'success']);
    assert.deepEqual(STATUS_AFTER_OUTCOME, {
      success: 'paid',
      failure: 'failed',
      cancel: 'canceled',
      delay: 'pending',
    });
    for (const outcome of BANK_OUTCOMES)
      assert.equal(canTransition('created', STATUS_AFTER_OUTCOME[outcome]), true, outcome);
  });
});

describe('verified or later, one list', () => {
  it("is verified and every status a verified payment's refunds reach, and nothing a payment reaches without a verify", () => {
    // Every status reachable from `verified` by the table, `verified` itself included.
    const reached = new Set<PaymentStatus>(['verified']);
    for (let grew = true; grew;) {
      grew = false;
      for (const to of [...reached].flatMap((from) => EXPECTED[from])) {
        if (reached.has(to)) continue;
        reached.add(to);
        grew = true;
      }
    }
    assert.deepEqual([...VERIFIED_STATUSES].sort(), [...reached].sort());
    assert.deepEqual(PAYMENT_STATUSES.filter(isVerified).sort(), [...reached].sort());
    assert.deepEqual(
      [...CONFIRMED_STATUSES].sort(),
      ['paid', ...reached].sort(),
      'confirmed: paid, or verified or later',
    );
  });
});
