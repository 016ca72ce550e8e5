import { closeHarness } from '../../support/harness.ts';
import { closeFaultStack } from './fault-stack.ts';

// The private services of the fault suite are built on first use and torn down once, at the end.
export const mochaHooks = {
  async afterAll(this: unknown) {
    await closeFaultStack();
    await closeHarness();
  },
};
