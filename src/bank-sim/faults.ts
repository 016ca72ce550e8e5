/**
 * The fault switches tests turn on through the admin endpoints: a bank that
 * times out (doing the work but never answering), fails, forgets the
 * transaction or keeps answering "in progress", a given number of times; and
 * the customer's return arriving with another amount or more than once.
 */
import type { ServerResponse } from 'node:http';
import { answer, json } from './http.ts';

/** The PSP calls that have switches. */
export type FaultOperation = 'confirm' | 'settle' | 'reverse' | 'refund';
/** Paya transfers (payouts to merchants) have fault switches of the same kinds. */
export type SwitchedOperation = FaultOperation | 'payout';
/** `in_progress` only for confirm: the bank keeps answering "in progress" as long as it is on. */
export type FaultKind = 'timeout' | 'error' | 'unknown' | 'in_progress';

export const SWITCHED_OPERATIONS: readonly SwitchedOperation[] = ['confirm', 'settle', 'reverse', 'refund', 'payout'];

interface Fault {
  kind: FaultKind;
  remaining: number;
}

/** Faults for the customer's return: the callback carries another amount, or reaches the gateway more than once. */
export interface CallbackFaults {
  other_amount: number;
  /** How many extra times the bank posts the callback to the gateway itself, before the customer's own post. */
  repeat: number;
}

export class FaultSwitches {
  private readonly faults = new Map<SwitchedOperation, Fault>();
  callback: Partial<CallbackFaults> = {};

  set(operation: SwitchedOperation, kind: FaultKind, times: number): void {
    this.faults.set(operation, { kind, remaining: times });
  }

  clear(): void {
    this.faults.clear();
    this.callback = {};
  }

  /** Applies a switched-on fault; answers whether the request is already answered (or left hanging). */
  apply(op: SwitchedOperation, res: ServerResponse, work: () => void): boolean {
    const f = this.faults.get(op);
    if (f === undefined) return false;
    f.remaining -= 1;
    if (f.remaining <= 0) this.faults.delete(op);
    if (f.kind === 'error') json(res, 503, { ResultCode: -1, ResultDescription: 'service unavailable' });
    else if (f.kind === 'unknown') answer(res, -2, 'transaction not found');
    else if (f.kind === 'in_progress') answer(res, 100, 'in progress: ask again later');
    else {
      // The bank did the work but its answer never arrives: the caller times out and asks again.
      work();
      setTimeout(() => res.destroy(), 120_000).unref();
    }
    return true;
  }
}
