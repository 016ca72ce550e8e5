/**
 * One step at a time inside a workflow: Updates that both passed their
 * validators, and the workflow's own timers, take the lock in turn, so each
 * step sees the state the previous one left. `held` lets a validator tell
 * that a step is in flight (the handler then decides on the state it finds).
 */
import { condition } from '@temporalio/workflow';

export class StepLock {
  held = false;

  async run<T>(step: () => Promise<T>): Promise<T> {
    while (this.held) await condition(() => !this.held);
    this.held = true;
    try {
      return await step();
    } finally {
      this.held = false;
    }
  }
}
