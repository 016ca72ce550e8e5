/**
 * The work a workflow's history shows, counted (never timed): how many
 * events, workflow tasks (round trips between the server and a worker),
 * activity tasks, local activities, search-attribute upserts and timers it
 * took. Patch markers and local activities are both markers; they are told
 * apart by the marker's name.
 */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { waitFor } from './http.ts';

const { EventType } = proto.temporal.api.enums.v1;
type EventType = proto.temporal.api.enums.v1.EventType;
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

/** The marker the SDK records for each local activity's result. */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';
const PATCH_MARKER = 'core_patch';

export function historyWork(history: History): HistoryWork {
  const events = history.events ?? [];
  const count = (type: EventType) => events.filter((e) => e.eventType === type).length;
  const markers = (name: string) =>
    events.filter(
      (e) =>
        e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED && e.markerRecordedEventAttributes?.markerName === name,
    ).length;
  return {
    events: events.length,
    workflow_tasks: count(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
    activity_tasks: count(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
    local_activities: markers(LOCAL_ACTIVITY_MARKER),
    upserts: count(EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES),
    timers: count(EventType.EVENT_TYPE_TIMER_STARTED),
    patches: markers(PATCH_MARKER),
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
