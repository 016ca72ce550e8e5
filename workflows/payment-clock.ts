/**
 * The payment's own clock (docs/PAYMENTS.md, the `advance` test helper):
 * real time plus however far a test has moved it. Every deadline and
 * timestamp of a payment is read on it; its waits are durable timers raced
 * with the clock, so advancing it fires the deadlines now due at once. A
 * subscription's workflow keeps one too (workflows/subscription.ts), starting
 * each run where the run before left it (`offsetMs`).
 */
import { condition, sleep } from '@temporalio/workflow';
import { MAX_ADVANCE_SECONDS } from '../src/domain/payment.ts';
import type { AdvanceClockInput } from '../src/domain/payment-workflow.ts';
import type { StepLock } from './lock.ts';
import { refusalFailure } from './failures.ts';

export class PaymentClock {
  /** How far the `advance` test helper has moved this payment's clock ahead of real time. */
  private offsetMs = 0;
  /** The clock offset at which the payment's timeline is waiting for its next deadline, if it is. */
  private waitingAt: number | undefined;
  /** No timer is left to wait for: advancing the clock changes nothing any more. */
  private timersDone = false;
  private readonly lock: StepLock;
  /**
   * The payment flow workflow's (payment.ts): a wait that ends before its deadline leaves its timer running
   * instead of canceling it. A timer canceled is one more event in the history; one left running costs
   * nothing once the workflow ends first (a payment's usually does: verified within its page's expiry),
   * and one that fires while the workflow still waits wakes it once, for nothing.
   */
  private readonly leavesTimers: boolean;

  /**
   * `lock`: the workflow's; an advance answers once the steps its timers started are done. `offsetMs`: carried
   * over from a run before. `leavesTimers`: see the field.
   */
  constructor(lock: StepLock, offsetMs = 0, leavesTimers = false) {
    this.lock = lock;
    this.offsetMs = offsetMs;
    this.leavesTimers = leavesTimers;
  }

  /** How far the clock has been moved ahead of real time, in ms: what a next run starts from. */
  get offset(): number {
    return this.offsetMs;
  }

  /** Now, on the payment's clock, in ms. */
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** Now, on the payment's clock, as a timestamp. */
  now(): string {
    return new Date(this.nowMs()).toISOString();
  }

  /** `ms` from now on the payment's clock, as a timestamp. */
  after(ms: number): string {
    return new Date(this.nowMs() + ms).toISOString();
  }

  /**
   * Waits until `done()` holds or `deadline` passes on the payment's clock;
   * answers whether `done()` held. When a test advances the clock, the wait
   * is recomputed at once.
   */
  async waitUntil(deadline: string, done: () => boolean): Promise<boolean> {
    for (;;) {
      if (done()) return true;
      const remaining = Date.parse(deadline) - this.nowMs();
      if (remaining <= 0) return false;
      const offset = this.offsetMs;
      this.waitingAt = offset;
      const wake = () => done() || this.offsetMs !== offset;
      const woke = this.leavesTimers
        ? await Promise.race([condition(wake).then(() => true), sleep(remaining).then(() => false)])
        : await condition(wake, remaining);
      this.waitingAt = undefined;
      if (!woke) return done();
    }
  }

  /** The timeline waits for no timer any more. */
  stop(): void {
    this.timersDone = true;
  }

  /** Moves the clock; resolves once the timers now due have fired and their transitions are recorded. */
  async advance({ seconds }: AdvanceClockInput): Promise<void> {
    this.offsetMs += seconds * 1000;
    const target = this.offsetMs;
    await condition(() => this.timersDone || (this.waitingAt === target && !this.lock.held));
  }

  /** The advance's own check (test mode is the caller's): a whole number of seconds, up to MAX_ADVANCE_SECONDS. */
  static checkAdvance({ seconds }: AdvanceClockInput): void {
    if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE_SECONDS) {
      throw refusalFailure({
        code: 'validation_failed',
        message: `seconds must be an integer from 1 to ${MAX_ADVANCE_SECONDS}`,
      });
    }
  }
}
