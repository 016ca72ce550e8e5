/**
 * Work per payment, counted rather than timed: what the durable histories of
 * the payments a scenario made hold (events, workflow tasks, activity tasks,
 * local activities, timers), the other workflows started while they ran, and
 * the CPU time each process spent on them. Timings vary with the machine;
 * these counts do not.
 */
import { readFileSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';

const { EventType } = proto.temporal.api.enums.v1;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;

/** The TS SDK's core records each local activity as a marker of this name, and each patch a run takes as one of the other. */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';
const PATCH_MARKER = 'core_patch';

/** What one payment's workflow history holds, over every run of its workflow id. */
export interface HistoryCounts {
  history_events: number;
  /**
   * WorkflowTaskCompleted: the tasks a worker answered, each one round trip server → worker → server.
   * A task that timed out or failed and was scheduled again is counted once, by the attempt that
   * completed: what the workflow's code asked for, not how busy the machine was.
   */
  workflow_tasks: number;
  /**
   * WorkflowTaskTimedOut and WorkflowTaskFailed: tasks scheduled again because a worker did not
   * answer in time (a busy machine, a sticky worker gone) or its code threw. None on a healthy run.
   */
  workflow_tasks_failed: number;
  /** ActivityTaskScheduled: activities run from the task queue, each its own round trip. */
  activity_tasks: number;
  /** Local activities (markers): run inside a workflow task, no task of their own. */
  local_activities: number;
  /** Patch markers: the first time a run takes a `patched()` branch (the SDK also upserts TemporalChangeVersion then). */
  patches: number;
  timers: number;
  /**
   * UpsertWorkflowSearchAttributes: the workflow's own (typed pairs or the old record, the
   * same command and event) and the SDK's TemporalChangeVersion with each patch marker.
   */
  search_attribute_upserts: number;
  /** Updates the workflow accepted (rejected ones leave no event). */
  updates: number;
  signals: number;
  /** Runs of the workflow id (more than one after continue-as-new). */
  runs: number;
}

const ZERO: HistoryCounts = {
  history_events: 0,
  workflow_tasks: 0,
  workflow_tasks_failed: 0,
  activity_tasks: 0,
  local_activities: 0,
  patches: 0,
  timers: 0,
  search_attribute_upserts: 0,
  updates: 0,
  signals: 0,
  runs: 0,
};

/** The event that stands for each counted item (markers are told apart by name, below). */
const COUNTED_EVENTS = new Map<number, keyof HistoryCounts>([
  [EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, 'workflow_tasks'],
  [EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT, 'workflow_tasks_failed'],
  [EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED, 'workflow_tasks_failed'],
  [EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, 'activity_tasks'],
  [EventType.EVENT_TYPE_TIMER_STARTED, 'timers'],
  [EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, 'search_attribute_upserts'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED, 'updates'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, 'signals'],
]);

/** The markers counted, by name; other markers (none today) count only as events. */
const COUNTED_MARKERS = new Map<string, keyof HistoryCounts>([
  [LOCAL_ACTIVITY_MARKER, 'local_activities'],
  [PATCH_MARKER, 'patches'],
]);

/**
 * Counts one run's events. The one counter of history work: the benchmark's per-payment
 * figures, the history budget's test (tools/bench/budget.ts) and the suite's tests of a
 * workflow's work (test/support/work.ts) all count with it.
 */
export function countHistory(events: readonly HistoryEvent[]): HistoryCounts {
  const counts = { ...ZERO, runs: 1, history_events: events.length };
  for (const event of events) {
    const counted = COUNTED_EVENTS.get(event.eventType ?? 0);
    if (counted !== undefined) counts[counted] += 1;
    else if (event.eventType === EventType.EVENT_TYPE_MARKER_RECORDED) {
      const marker = COUNTED_MARKERS.get(event.markerRecordedEventAttributes?.markerName ?? '');
      if (marker !== undefined) counts[marker] += 1;
    }
  }
  return counts;
}

function add(a: HistoryCounts, b: HistoryCounts): HistoryCounts {
  return Object.fromEntries(
    Object.entries(a).map(([key, value]) => [key, value + b[key as keyof HistoryCounts]]),
  ) as unknown as HistoryCounts;
}

/** One payment's workflow: its latest run, and the runs it continued from (continue-as-new), counted together. */
export async function paymentHistoryCounts(temporal: Client, paymentId: string): Promise<HistoryCounts> {
  let total = ZERO;
  let runId: string | undefined;
  for (;;) {
    const history = await temporal.workflow.getHandle(paymentWorkflowId(paymentId), runId).fetchHistory();
    const events = history.events ?? [];
    total = add(total, countHistory(events));
    const previous = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (previous === undefined || previous === null || previous === '') return total;
    runId = previous;
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Mean counts over payments, with at most `concurrency` histories fetched at once. */
export async function meanHistoryCounts(
  temporal: Client,
  paymentIds: readonly string[],
  concurrency = 10,
): Promise<HistoryCounts & { payments_counted: number }> {
  let total = ZERO;
  const queue = [...paymentIds];
  const lane = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const counts = await paymentHistoryCounts(temporal, id);
      total = add(total, counts); // after the await: the lanes add to the total as it is then
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const n = paymentIds.length;
  const mean = Object.fromEntries(
    Object.entries(total).map(([key, value]) => [key, n === 0 ? 0 : round(value / n)]),
  ) as unknown as HistoryCounts;
  return { ...mean, payments_counted: n };
}

const quoted = (value: string) => `"${value.replaceAll('"', '\\"')}"`;

/**
 * Workflows by type among those matching `query`, found without listing them
 * all: count the total, then find one workflow of a type not yet counted,
 * count that type, and so on until the counts add up (one list and one count
 * per type).
 */
export async function workflowsByType(
  temporal: Client,
  query: string,
): Promise<{ total: number; by_type: Record<string, number> }> {
  const total = (await temporal.workflow.count(query)).count;
  const byType: Record<string, number> = {};
  let counted = 0;
  while (counted < total) {
    const exclude = Object.keys(byType)
      .map((type) => ` AND WorkflowType != ${quoted(type)}`)
      .join('');
    let found: string | undefined;
    for await (const execution of temporal.workflow.list({ query: `${query}${exclude}`, pageSize: 1 })) {
      found = execution.type;
      break;
    }
    if (found === undefined) break; // the rest closed (or started) between the count and the list
    const n = (await temporal.workflow.count(`${query} AND WorkflowType = ${quoted(found)}`)).count;
    byType[found] = n;
    counted += n;
  }
  return { total, by_type: byType };
}

/** Running workflows on the server, by type. */
export function openWorkflows(temporal: Client): Promise<{ total: number; by_type: Record<string, number> }> {
  return workflowsByType(temporal, 'ExecutionStatus = "Running"');
}

/**
 * Workflows of types other than the payment's (`paymentType`) started between two instants:
 * what a payment causes outside its own history (webhook deliveries, child
 * or follow-up workflows), per payment. A scheduled maintenance run that
 * starts in the window is counted too (one per ten minutes at most).
 */
export async function otherWorkflowsStarted(
  temporal: Client,
  paymentType: string,
  from: Date,
  to: Date,
  payments: number,
): Promise<Record<string, number>> {
  const query = `StartTime >= ${quoted(from.toISOString())} AND StartTime <= ${quoted(to.toISOString())} AND WorkflowType != ${quoted(paymentType)}`;
  const { by_type } = await workflowsByType(temporal, query);
  return Object.fromEntries(
    Object.entries(by_type).map(([type, n]) => [type, payments === 0 ? 0 : Math.round((n / payments) * 1000) / 1000]),
  );
}

/** Linux reports utime and stime in clock ticks of USER_HZ, 100 a second on every mainstream architecture. */
const USER_HZ = 100;

/** CPU time a process has used so far (user + system, all its threads), in milliseconds, from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12th and 13th after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}
