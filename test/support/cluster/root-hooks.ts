import { closeClusterStack } from './cluster-stack.ts';

// The cluster is brought up on first use and torn down once, at the end.
export const mochaHooks = {
  async afterAll(this: unknown) {
    await closeClusterStack();
  },
};
