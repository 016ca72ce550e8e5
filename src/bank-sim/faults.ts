/**
 * The fault switches tests and operators turn on through the admin endpoints:
 * a PSP that is down (it closes the connection without an answer), that hangs
 * (a timeout: it does the work but never answers), that is slow (it answers as
 * usual, late), that fails, forgets the
 * transaction or keeps answering "in progress", or confirms another amount than it holds; and the customer's return
 * arriving with another amount or more than once. A switch given a count
 * answers that many calls; one without stays on until cleared (an outage).
 */
import type { ServerResponse } from 'node:http';
import { answer, json } from './http.ts';

/** The calls on a paid transaction (SEP's verify family). */
export type VerifyOperation = 'confirm' | 'settle' | 'reverse' | 'refund';
/** The PSP calls that have switches: the token request and the verify family. */
export type FaultOperation = 'token' | VerifyOperation;
/** Paya transfers (payouts to merchants) have fault switches of the same kinds; so do the identity simulator's inquiries (jibit-identity.ts). */
export type SwitchedOperation = FaultOperation | 'payout' | 'identity';
/**
 * `down`: the connection is closed at once, no answer; `timeout`: no answer ever (the work is done,
 * except a token's); `slow`: the usual answer, SLOW_ANSWER_MS late; `error`: the protocol's error
 * answer; `unknown`: "transaction not found"; `in_progress` only for confirm: "in progress" as long as it is on;
 * `other_amount` only for confirm: the verify does its work and answers as usual, but its transaction
 * detail names OTHER_AMOUNT_DELTA rials more than the sale (a PSP confirming what the gateway must
 * refuse: docs/RELIABILITY.md, scenario 14). SEP's JSON answer only: Mellat's verify names no amount.
 */
export type FaultKind = 'down' | 'timeout' | 'slow' | 'error' | 'unknown' | 'in_progress' | 'other_amount';

export const SWITCHED_OPERATIONS: readonly SwitchedOperation[] = [
  'token',
  'confirm',
  'settle',
  'reverse',
  'refund',
  'payout',
  'identity',
];
export const FAULT_KINDS: readonly FaultKind[] = [
  'down',
  'timeout',
  'slow',
  'error',
  'unknown',
  'in_progress',
  'other_amount',
];

/** What the `other_amount` fault adds to the amount a verify answer names. */
export const OTHER_AMOUNT_DELTA = 1_000;

/**
 * How late a slow PSP answers: past the gateway's usual patience for a token in the failover
 * scenarios' settings, well within its default bank timeout (10 s), so both sides can be rehearsed.
 */
export const SLOW_ANSWER_MS = 3_000;

/** Whether `kind` means something for `operation`: a token has no transaction to forget, only confirm is "in progress". */
export function faultApplies(operation: SwitchedOperation, kind: FaultKind): boolean {
  if (kind === 'in_progress' || kind === 'other_amount') return operation === 'confirm';
  if (kind === 'unknown') return operation !== 'token';
  return true;
}

interface Fault {
  kind: FaultKind;
  /** Calls left to answer so; undefined: until cleared. */
  remaining: number | undefined;
}

/** Faults for the customer's return: the callback carries another amount, or reaches the gateway more than once. */
export interface CallbackFaults {
  other_amount: number;
  /** How many extra times the bank posts the callback to the gateway itself, before the customer's own post. */
  repeat: number;
}

/** How long a hanging call is held before its connection is dropped: longer than any caller waits. */
const HANG_MS = 120_000;

export class FaultSwitches {
  private readonly faults = new Map<SwitchedOperation, Fault>();
  /** Calls each switch answered, by operation and kind, since the simulator started or every switch was cleared. */
  private answered: Partial<Record<SwitchedOperation, Partial<Record<FaultKind, number>>>> = {};
  callback: Partial<CallbackFaults> = {};

  /** Switches `kind` on for `operation`: for `times` calls, or until cleared when no count is given. */
  set(operation: SwitchedOperation, kind: FaultKind, times?: number): void {
    this.faults.set(operation, { kind, remaining: times });
  }

  /** `operation`'s switch off; every switch (and the counts) off without one. */
  clear(operation?: SwitchedOperation): void {
    if (operation !== undefined) {
      this.faults.delete(operation);
      return;
    }
    this.faults.clear();
    this.answered = {};
    this.callback = {};
  }

  /** What is switched on, and how many calls the switches answered. */
  view() {
    return {
      switches: [...this.faults].map(([operation, f]) => ({
        operation,
        fault: f.kind,
        remaining: f.remaining ?? null,
      })),
      answered: this.answered,
    };
  }

  /** The fault switched on for `op`, counted as used; undefined when none is on. */
  take(op: SwitchedOperation): FaultKind | undefined {
    const f = this.faults.get(op);
    if (f === undefined) return undefined;
    if (f.remaining !== undefined) {
      f.remaining -= 1;
      if (f.remaining <= 0) this.faults.delete(op);
    }
    const counts = (this.answered[op] ??= {});
    counts[f.kind] = (counts[f.kind] ?? 0) + 1;
    return f.kind;
  }

  /** Applies a switched-on fault to a JSON call (SEP's); answers whether the request is already answered (or left hanging). */
  apply(op: SwitchedOperation, res: ServerResponse, work: () => void): boolean {
    const kind = this.take(op);
    if (kind === undefined) return false;
    if (kind === 'slow') {
      answerLate(res);
      return false;
    }
    if (kind === 'other_amount') {
      answerOtherAmount(res);
      return false;
    }
    if (kind === 'down') dropConnection(res);
    // SEP's token call answers its own shape: `status` -1 with an error code, here with a 503.
    else if (kind === 'error' && op === 'token')
      json(res, 503, { status: -1, errorCode: '-1', errorDesc: 'service unavailable' });
    else if (kind === 'error') json(res, 503, { ResultCode: -1, ResultDescription: 'service unavailable' });
    else if (kind === 'unknown') answer(res, -2, 'transaction not found');
    else if (kind === 'in_progress') answer(res, 100, 'in progress: ask again later');
    else {
      // The bank did the work but its answer never arrives: the caller times out and asks again.
      work();
      hang(res);
    }
    return true;
  }
}

/** A PSP whose service is down: the connection closes without a byte of answer. */
export function dropConnection(res: ServerResponse): void {
  res.socket?.destroy();
  res.destroy();
}

/**
 * A PSP that confirms another amount than it holds: the JSON answer, as the protocol wrote it, with
 * OTHER_AMOUNT_DELTA added to its transaction detail's amounts (an answer without one leaves as it is).
 */
export function answerOtherAmount(res: ServerResponse): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    const [body] = args;
    if (typeof body !== 'string') return end(...args);
    const parsed = JSON.parse(body) as { TransactionDetail?: Record<string, unknown> };
    const detail = parsed.TransactionDetail;
    if (detail === undefined) return end(...args);
    for (const field of ['OrginalAmount', 'AffectiveAmount']) {
      if (detail[field] !== undefined) detail[field] = Number(detail[field]) + OTHER_AMOUNT_DELTA;
    }
    // json() wrote its headers without a length: the changed body goes out as it is.
    return end(JSON.stringify(parsed));
  }) as ServerResponse['end'];
}

/** A slow PSP: the answer, whatever it is, leaves SLOW_ANSWER_MS after it was ready. */
export function answerLate(res: ServerResponse): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    setTimeout(() => end(...args), SLOW_ANSWER_MS);
    return res;
  }) as ServerResponse['end'];
}

/** A call that is never answered: its connection is dropped long after any caller gave up. */
export function hang(res: ServerResponse): void {
  setTimeout(() => res.destroy(), HANG_MS).unref();
}
