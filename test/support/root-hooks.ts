import { closeHarness } from './harness.ts';

// Services are built on first use and closed once, after the whole suite.
export const mochaHooks = {
  async afterAll(this: unknown) {
    await closeHarness();
  },
};
