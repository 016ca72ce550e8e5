/**
 * The work a workflow's history shows, counted (never timed): how many
 * events, workflow tasks (round trips between the server and a worker),
 * activity tasks, local activities, search-attribute upserts, timers and
 * patches it took. Counted by the benchmark's counter (tools/bench/work.ts),
 * the one place that knows which event stands for what; this is the view of
 * it the suite's tests of a workflow's work compare whole.
 */
import type { Client } from '@temporalio/client';
import type proto from '@temporalio/proto';
import { countHistory } from '../../tools/bench/work.ts';
import { waitFor } from './http.ts';

type History = proto.temporal.api.history.v1.IHistory;

export interface HistoryWork {
  events: number;
  workflow_tasks: number;
  activity_tasks: number;
  local_activities: number;
  upserts: number;
  timers: number;
  patches: number;
}

export function historyWork(history: History): HistoryWork {
  const counts = countHistory(history.events ?? []);
  return {
    events: counts.history_events,
    workflow_tasks: counts.workflow_tasks,
    activity_tasks: counts.activity_tasks,
    local_activities: counts.local_activities,
    upserts: counts.search_attribute_upserts,
    timers: counts.timers,
    patches: counts.patches,
  };
}

/** Waits until the latest run of the workflow `workflowId` has closed; answers how (COMPLETED, FAILED…). */
export async function closedWorkflow(temporal: Client, workflowId: string): Promise<string> {
  const handle = temporal.workflow.getHandle(workflowId);
  return waitFor(`${workflowId} to close`, async () => {
    const { status } = await handle.describe();
    return status.name === 'RUNNING' ? undefined : status.name;
  });
}
