/**
 * What the payment workflow holds (workflows/payment.ts): the payment as
 * last recorded, its version, and the lock under which each step runs, with
 * `commit`, the one way a step changes the payment: recorded in MySQL first,
 * then visible to queries and search.
 */
import { upsertSearchAttributes } from '@temporalio/workflow';
import type { Payment } from '../src/domain/payment-schemas.ts';
import { searchAttributes } from '../src/domain/payment-workflow.ts';
import { checkTransition, refusalFailure } from './failures.ts';
import { StepLock } from './lock.ts';
import { recordWrites } from './proxies.ts';

export class PaymentState {
  /** Runs one step at a time: bank answers, the merchant's Updates and the timers never interleave. */
  readonly lock = new StepLock();
  private version = 1;

  constructor(
    private current: Payment,
    readonly merchantId: string,
  ) {}

  get payment(): Payment {
    return this.current;
  }

  /** Runs `step` under the lock, after the steps before it. */
  exclusive<T>(step: () => Promise<T>): Promise<T> {
    return this.lock.run(step);
  }

  /** Records the next state in MySQL, then makes it the visible state. */
  async commit(next: Payment): Promise<void> {
    checkTransition(this.current, next);
    await recordWrites.recordTransition({ payment: next, version: this.version + 1 });
    this.version += 1;
    this.current = next;
    upsertSearchAttributes([{ key: searchAttributes.status, value: next.status }]);
  }

  /** Tells the merchant the payment exists (payment.created), once, before any change of it. */
  announce(): Promise<void> {
    return this.exclusive(() => recordWrites.announcePayment({ payment: this.current, merchant_id: this.merchantId }));
  }

  /** Refuses a test helper on a live payment. */
  testModeOnly(): void {
    if (this.current.mode !== 'test') throw refusalFailure({ code: 'test_mode_only', message: 'Test helpers work on test payments only.' });
  }
}
