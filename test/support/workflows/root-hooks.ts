import { closeWorkflowTests } from './environment.ts';

// The dev server is started on first use by a workflow test and stopped once, after the whole run.
export const mochaHooks = {
  async afterAll(this: unknown) {
    await closeWorkflowTests();
  },
};
