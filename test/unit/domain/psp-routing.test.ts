import assert from 'node:assert/strict';
import {
  defaultRoute,
  mayUseTerminal,
  planRoute,
  pspTakesVerifyWindow,
  reservationOf,
  routeProblem,
  takesAmount,
  UNVERIFIED_REVERSAL_MARGIN_MS,
  type RouteEntry,
  type TerminalReservation,
} from '../../../src/domain/psp-routing.ts';
import { PSP_NAMES, PSP_PROFILES } from '../../../src/psps/profiles.ts';

const entry = (priority: number, psp: string, more: Partial<RouteEntry> = {}): RouteEntry => ({
  position: priority,
  priority,
  psp,
  terminal_id: `t-${psp}`,
  weight: 1,
  min_amount: null,
  max_amount: null,
  ...more,
});
const allClosed = () => 'closed' as const;
const names = (candidates: { psp: string }[]) => candidates.map((c) => c.psp);
/** A merchant no terminal is reserved against. */
const ANY_MERCHANT = { merchantId: 'merchant-a', reservations: [] };
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('PSP routing', () => {
  it('the default route is every configured terminal in the order given, weight 1, one position each', () => {
    const route = defaultRoute([
      { psp: 'sep', terminal_id: '1' },
      { psp: 'mellat', terminal_id: '2' },
    ]);
    assert.deepEqual(
      route.map((e) => [e.priority, e.psp, e.weight]),
      [
        [0, 'sep', 1],
        [1, 'mellat', 1],
      ],
    );
    assert.deepEqual(
      names(planRoute({ route, amount: 10_000, paymentId: id(1), ...ANY_MERCHANT, breakerOf: allClosed })),
      ['sep', 'mellat'],
    );
  });

  it('amount ranges filter the route, both ends included', () => {
    const route = [entry(0, 'sep', { max_amount: 5_000_000 }), entry(1, 'mellat', { min_amount: 1_000_000 })];
    assert.deepEqual(
      names(planRoute({ route, amount: 5_000_000, paymentId: id(1), ...ANY_MERCHANT, breakerOf: allClosed })),
      ['sep', 'mellat'],
    );
    assert.deepEqual(
      names(planRoute({ route, amount: 5_000_001, paymentId: id(1), ...ANY_MERCHANT, breakerOf: allClosed })),
      ['mellat'],
    );
    assert.deepEqual(
      names(planRoute({ route, amount: 999_999, paymentId: id(1), ...ANY_MERCHANT, breakerOf: allClosed })),
      ['sep'],
    );
    assert.equal(takesAmount({ min_amount: null, max_amount: null }, 1), true);
  });

  it('weights at one priority share it in proportion, the same order for the same payment every time', () => {
    const route = [entry(0, 'sep', { weight: 3 }), { ...entry(0, 'mellat', { weight: 1 }), position: 1 }];
    let sepFirst = 0;
    for (let n = 0; n < 4_000; n += 1) {
      const first = names(
        planRoute({ route, amount: 10_000, paymentId: id(n), ...ANY_MERCHANT, breakerOf: allClosed }),
      );
      assert.deepEqual(
        names(planRoute({ route, amount: 10_000, paymentId: id(n), ...ANY_MERCHANT, breakerOf: allClosed })),
        first,
        'deterministic per payment',
      );
      assert.equal(first.length, 2);
      if (first[0] === 'sep') sepFirst += 1;
    }
    // 3:1 → sep first for about 3000 of 4000 payments.
    assert.ok(sepFirst > 2_800 && sepFirst < 3_200, `sep first ${sepFirst} times of 4000`);
  });

  it('open terminals go last, half-open and closed keep their place', () => {
    const route = [entry(0, 'sep'), entry(1, 'mellat')];
    const candidates = planRoute({
      route,
      amount: 10_000,
      paymentId: id(1),
      ...ANY_MERCHANT,
      breakerOf: (psp) => (psp === 'sep' ? 'open' : 'closed'),
    });
    assert.deepEqual(
      candidates.map((c) => [c.psp, c.breaker]),
      [
        ['mellat', 'closed'],
        ['sep', 'open'],
      ],
    );
    const probing = planRoute({
      route,
      amount: 10_000,
      paymentId: id(1),
      ...ANY_MERCHANT,
      breakerOf: (psp) => (psp === 'sep' ? 'half_open' : 'closed'),
    });
    assert.deepEqual(names(probing), ['sep', 'mellat']);
  });

  it('a terminal named twice is tried once, at its first place', () => {
    const route = [entry(0, 'sep', { max_amount: 100 }), entry(1, 'mellat'), entry(2, 'sep')];
    assert.deepEqual(names(planRoute({ route, amount: 50, paymentId: id(1), ...ANY_MERCHANT, breakerOf: allClosed })), [
      'sep',
      'mellat',
    ]);
    assert.deepEqual(
      names(planRoute({ route, amount: 500, paymentId: id(1), ...ANY_MERCHANT, breakerOf: allClosed })),
      ['mellat', 'sep'],
    );
  });

  describe('terminals reserved for some merchants', () => {
    /** SEP's terminal t-sep granted for merchants b and c only. */
    const reservations: TerminalReservation[] = [
      { psp: 'sep', terminal_id: 't-sep', merchant_ids: ['merchant-b', 'merchant-c'] },
    ];
    const route = [entry(0, 'sep'), entry(1, 'mellat')];
    const plan = (merchantId: string, of: readonly RouteEntry[] = route) =>
      names(planRoute({ route: of, amount: 10_000, paymentId: id(1), merchantId, reservations, breakerOf: allClosed }));

    it("a merchant's route skips a terminal reserved for other merchants; a listed merchant keeps it in its place", () => {
      assert.deepEqual(plan('merchant-a'), ['mellat']);
      assert.deepEqual(plan('merchant-b'), ['sep', 'mellat']);
      assert.deepEqual(plan('merchant-c'), ['sep', 'mellat']);
    });

    it('the default route skips it too; with nothing else configured, the payment has no candidate', () => {
      const fallback = defaultRoute([
        { psp: 'sep', terminal_id: 't-sep' },
        { psp: 'mellat', terminal_id: 't-mellat' },
      ]);
      assert.deepEqual(plan('merchant-a', fallback), ['mellat']);
      assert.deepEqual(plan('merchant-b', fallback), ['sep', 'mellat']);
      assert.deepEqual(plan('merchant-a', [entry(0, 'sep')]), []);
    });

    it("only that terminal: the same PSP at another terminal, and an empty reservation, are anyone's", () => {
      assert.equal(mayUseTerminal(reservations, 'merchant-a', { psp: 'sep', terminal_id: 't-sep' }), false);
      assert.equal(mayUseTerminal(reservations, 'merchant-a', { psp: 'sep', terminal_id: 'another' }), true);
      assert.equal(
        mayUseTerminal(reservations, 'merchant-a', { psp: 'mellat', terminal_id: 't-sep' }),
        true,
        'a terminal is named by its PSP and id',
      );
      const cleared = [{ psp: 'sep', terminal_id: 't-sep', merchant_ids: [] }];
      assert.equal(mayUseTerminal(cleared, 'merchant-a', { psp: 'sep', terminal_id: 't-sep' }), true);
      assert.equal(reservationOf(cleared, { psp: 'sep', terminal_id: 't-sep' }), undefined);
      assert.deepEqual(reservationOf(reservations, { psp: 'sep', terminal_id: 't-sep' })?.merchant_ids, [
        'merchant-b',
        'merchant-c',
      ]);
    });
  });

  it("a PSP asked to verify only at the merchant's verify (Sadad) takes only a verify window that ends the margin before it gives the money back; every other PSP takes any", () => {
    const { unverifiedReversalMs } = PSP_PROFILES.sadad.capabilities;
    assert.equal(pspTakesVerifyWindow('sadad', unverifiedReversalMs - UNVERIFIED_REVERSAL_MARGIN_MS), true, '600 s');
    assert.equal(pspTakesVerifyWindow('sadad', unverifiedReversalMs - UNVERIFIED_REVERSAL_MARGIN_MS + 1), false);
    assert.equal(pspTakesVerifyWindow('sadad', 1_800_000), false, 'the default window');
    for (const psp of PSP_NAMES.filter((p) => PSP_PROFILES[p].capabilities.capture !== 'merchant_verify'))
      assert.equal(pspTakesVerifyWindow(psp, 400 * 24 * 3_600_000), true, psp);
    assert.equal(pspTakesVerifyWindow('no-such-psp', 1), true);
  });

  it('refuses malformed routes with the reason', () => {
    assert.equal(routeProblem([entry(0, 'sep')]), undefined);
    assert.match(routeProblem([]) ?? '', /at least one/);
    assert.match(routeProblem([entry(0, 'sep', { weight: 0 })]) ?? '', /weight/);
    assert.match(routeProblem([entry(0, 'sep', { min_amount: 10, max_amount: 5 })]) ?? '', /empty/);
    assert.match(routeProblem([entry(0, 'sep', { min_amount: -1 })]) ?? '', /whole rials/);
    assert.match(routeProblem([entry(0, 'sep'), entry(1, 'sep')]) ?? '', /twice/);
  });
});
