/**
 * A namespace that still holds an execution of a retired workflow type (a
 * developer's dev server kept from an earlier 0.x version) gets one sentence
 * naming them and the command that ends them; a namespace without any gets
 * none. The execution is started on a task queue no worker polls, so it stays
 * open exactly as an old one would.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  RETIRED_OPEN_QUERY,
  RETIRED_WORKFLOW_TYPES,
  retiredWorkflowsNotice,
} from '../../src/temporal/retired-workflows.ts';
import { getHarness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';

describe('open executions of retired workflow types', () => {
  it('are named in one sentence with the command that ends them, and no sentence once they are ended', async () => {
    const { client } = (await getHarness()).temporal;
    // The suite's dev server may keep executions of an earlier version's run of this suite: counted from there.
    const before = (await client.workflow.count(RETIRED_OPEN_QUERY)).count;
    if (before === 0) assert.equal(await retiredWorkflowsNotice(client), undefined);

    const handle = await client.workflow.start(RETIRED_WORKFLOW_TYPES[1], {
      taskQueue: `retired-${randomUUID()}`,
      workflowId: `retired-check-${randomUUID()}`,
      args: [],
    });
    try {
      const notice = await waitFor('the retired execution to be visible', async () => {
        const text = await retiredWorkflowsNotice(client, { devServerFile: '.data/temporal-start.sqlite' });
        return text?.includes(` holds ${before + 1} open execution`) === true ? text : undefined;
      });
      assert.match(
        notice,
        /open executions? of workflow types this version no longer runs \(paymentWorkflow, paymentWorkflowV2/,
      );
      assert.ok(
        notice.includes(
          `temporal workflow terminate --namespace ${client.options.namespace} --query "${RETIRED_OPEN_QUERY}"`,
        ),
        notice,
      );
      assert.ok(notice.includes('delete .data/temporal-start.sqlite'), notice);
      assert.equal(notice.split('. ').length, 1, 'one sentence');
    } finally {
      await handle.terminate('test done');
    }
    await waitFor('the retired execution to be gone', async () =>
      (await client.workflow.count(RETIRED_OPEN_QUERY)).count === before ? true : undefined,
    );
    if (before === 0) assert.equal(await retiredWorkflowsNotice(client), undefined);
  });
});
