/**
 * Which PSP terminals a payment is offered to, and in what order
 * (docs/psps/routing.md): pure, so the activity that plans a payment's route
 * and the tests use the one rule.
 *
 * - The route is the merchant's for the payment's mode (set by the operator),
 *   or, when none is set, the default route: every PSP configured for the mode,
 *   in the gateway's order of PSP names, weight 1.
 * - An entry with an amount range is only for amounts within it (both ends
 *   included; null: no bound).
 * - Entries of the same priority share it by weight: each payment draws its
 *   order from a hash of its id, so the same payment always draws the same
 *   order (a retried request, a replayed workflow) and, over many payments,
 *   each entry comes first in proportion to its weight.
 * - A terminal reserved for named merchants (an acquirer's terminal granted
 *   for them only) is skipped by every other merchant's route, the default
 *   route included; `mayUseTerminal` is that rule, for the planning and the
 *   operator's commands alike.
 * - Terminals whose breaker is open go last: they are still listed, so that
 *   the token activity can let the first payment after the open period through
 *   as the probe, but it refuses them without calling the PSP while the breaker
 *   stays open; half-open and closed terminals keep their place.
 */
import { isPspName, PSP_PROFILES } from '../psps/profiles.ts';
import type { BreakerState } from './psp-breaker.ts';
import { CAPTURE } from './capture.ts';

/**
 * How long before a PSP gives back by itself a payment nobody verified (its `unverifiedReversalMs`) the
 * verify window of a payment sent to it must end, where the gateway relies on that for its deadline
 * (capture `merchant_verify`: Sadad): the merchant's verify reaches the PSP after the retries of a
 * slow answer, and the PSP's clock starts when the customer pays, before the return reaches us.
 */
export const UNVERIFIED_REVERSAL_MARGIN_MS = 5 * 60_000;

/**
 * Whether PSP `psp` may take a payment whose verify window is `verifyWindowMs`: every PSP but one whose
 * capture is `merchant_verify` (its verify asked only at the merchant's verify, and no reversal), which
 * must still hold the payment unverified until the window's end plus UNVERIFIED_REVERSAL_MARGIN_MS; a
 * longer window would let the merchant verify what the PSP already gave back. Such a PSP is skipped by
 * the route of a payment whose window does not fit (docs/psps/routing.md).
 */
export function pspTakesVerifyWindow(psp: string, verifyWindowMs: number): boolean {
  if (!isPspName(psp)) return true;
  const { capture, unverifiedReversalMs } = PSP_PROFILES[psp].capabilities;
  return (
    !CAPTURE[capture].verifiesOnlyAtMerchantVerify ||
    verifyWindowMs + UNVERIFIED_REVERSAL_MARGIN_MS <= unverifiedReversalMs
  );
}

/** Weights are whole numbers in this range; a weight of 0 would mean "never", which is "not in the route". */
export const ROUTE_WEIGHT_MAX = 1000;
/** A route names at most this many terminals. */
export const ROUTE_ENTRIES_MAX = 10;

/** One terminal of a merchant's route. */
export interface RouteEntry {
  /** The entry's place in the route as stored (unique within it). */
  position: number;
  /** Lower first; entries of the same priority share it by weight. */
  priority: number;
  psp: string;
  terminal_id: string;
  weight: number;
  /** Rials, both ends included; null: no bound. */
  min_amount: number | null;
  max_amount: number | null;
}

/** A terminal the payment may be sent to, in the order to try them. */
export interface RouteCandidate {
  psp: string;
  terminal_id: string;
  /** Its breaker's state when the route was planned. */
  breaker: BreakerState;
}

/** A PSP terminal reserved for the merchants named (never empty: a terminal nobody reserved has no reservation). */
export interface TerminalReservation {
  psp: string;
  terminal_id: string;
  merchant_ids: readonly string[];
}

/** The reservation of a terminal, if it has one. */
export function reservationOf(
  reservations: readonly TerminalReservation[],
  terminal: { psp: string; terminal_id: string },
): TerminalReservation | undefined {
  return reservations.find(
    (r) => r.psp === terminal.psp && r.terminal_id === terminal.terminal_id && r.merchant_ids.length > 0,
  );
}

/** Whether a merchant's payments may go to a terminal: it is anyone's, or reserved for this merchant among others. */
export function mayUseTerminal(
  reservations: readonly TerminalReservation[],
  merchantId: string,
  terminal: { psp: string; terminal_id: string },
): boolean {
  const reserved = reservationOf(reservations, terminal);
  return reserved === undefined || reserved.merchant_ids.includes(merchantId);
}

/** The default route: every configured terminal of the mode, in the order given (the gateway's order of PSP names), each its own priority. */
export function defaultRoute(configured: readonly { psp: string; terminal_id: string }[]): RouteEntry[] {
  return configured.map(({ psp, terminal_id }, position) => ({
    position,
    priority: position,
    psp,
    terminal_id,
    weight: 1,
    min_amount: null,
    max_amount: null,
  }));
}

/** Whether `amount` is within the entry's range. */
export function takesAmount(entry: Pick<RouteEntry, 'min_amount' | 'max_amount'>, amount: number): boolean {
  return (
    (entry.min_amount === null || amount >= entry.min_amount) &&
    (entry.max_amount === null || amount <= entry.max_amount)
  );
}

/** FNV-1a, 32 bits: a small, stable hash (no Node built-ins in the domain); enough to spread payment ids. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A number in (0, 1) drawn from the payment id and the entry: the same for the same pair, always. */
function draw(paymentId: string, entry: RouteEntry): number {
  return (fnv1a(`${paymentId}|${entry.priority}|${entry.psp}|${entry.terminal_id}`) + 1) / 4_294_967_297;
}

/**
 * The order of entries sharing a priority: weighted sampling without replacement (Efraimidis and
 * Spirakis: each entry's key is u^(1/weight), highest first), with u drawn from the payment's id.
 */
function byWeight(paymentId: string, entries: RouteEntry[]): RouteEntry[] {
  const keyed = entries.map((entry) => ({ entry, key: Math.log(draw(paymentId, entry)) / Math.max(1, entry.weight) }));
  return keyed
    .sort(
      (a, b) =>
        b.key - a.key ||
        a.entry.psp.localeCompare(b.entry.psp) ||
        a.entry.terminal_id.localeCompare(b.entry.terminal_id),
    )
    .map((k) => k.entry);
}

/** The payment's candidates, in the order to try them (see the module's comment). */
export function planRoute({
  route,
  amount,
  paymentId,
  merchantId,
  reservations,
  breakerOf,
}: {
  route: readonly RouteEntry[];
  amount: number;
  paymentId: string;
  /** The payment's merchant: a terminal reserved for other merchants is skipped. */
  merchantId: string;
  reservations: readonly TerminalReservation[];
  breakerOf: (psp: string, terminalId: string) => BreakerState;
}): RouteCandidate[] {
  const priorities = [...new Set(route.map((e) => e.priority))].sort((a, b) => a - b);
  const takes = (e: RouteEntry) => takesAmount(e, amount) && mayUseTerminal(reservations, merchantId, e);
  const ordered = priorities.flatMap((priority) =>
    byWeight(
      paymentId,
      route.filter((e) => e.priority === priority && takes(e)).sort((a, b) => a.position - b.position),
    ),
  );
  const seen = new Set<string>();
  const candidates: RouteCandidate[] = [];
  for (const entry of ordered) {
    const key = `${entry.psp}|${entry.terminal_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push({
      psp: entry.psp,
      terminal_id: entry.terminal_id,
      breaker: breakerOf(entry.psp, entry.terminal_id),
    });
  }
  // Stable: open terminals keep their relative order, after every other.
  return [...candidates.filter((c) => c.breaker !== 'open'), ...candidates.filter((c) => c.breaker === 'open')];
}

/** Why an operator's route is refused: the first problem found, or undefined when it is well formed. */
export function routeProblem(entries: readonly RouteEntry[]): string | undefined {
  if (entries.length === 0) return 'a route names at least one PSP';
  if (entries.length > ROUTE_ENTRIES_MAX) return `a route names at most ${ROUTE_ENTRIES_MAX} PSPs`;
  const seen = new Set<string>();
  for (const e of entries) {
    if (!Number.isInteger(e.weight) || e.weight < 1 || e.weight > ROUTE_WEIGHT_MAX)
      return `weight of ${e.psp} must be a whole number from 1 to ${ROUTE_WEIGHT_MAX}`;
    for (const bound of [e.min_amount, e.max_amount]) {
      if (bound !== null && (!Number.isSafeInteger(bound) || bound < 0))
        return `amount range of ${e.psp} must be whole rials, 0 or more`;
    }
    if (e.min_amount !== null && e.max_amount !== null && e.min_amount > e.max_amount)
      return `amount range of ${e.psp} is empty (${e.min_amount}-${e.max_amount})`;
    const key = `${e.psp}|${e.terminal_id}|${e.min_amount}|${e.max_amount}`;
    if (seen.has(key)) return `${e.psp} is named twice with the same amount range`;
    seen.add(key);
  }
  return undefined;
}
