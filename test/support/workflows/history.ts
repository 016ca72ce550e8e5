/** Reading a workflow's history, for what its state alone does not show (timers). */
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';

const { EventType } = proto.temporal.api.enums.v1;
type Duration = proto.google.protobuf.IDuration;

const durationMs = (d: Duration | null | undefined): number => {
  const seconds = d?.seconds ?? 0;
  return (typeof seconds === 'number' ? seconds : seconds.toNumber()) * 1000 + (d?.nanos ?? 0) / 1e6;
};

/** The durations of every durable timer the workflow has started, in ms, in order. */
export async function timersStarted(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED)
    .map((e) => durationMs(e.timerStartedEventAttributes?.startToFireTimeout));
}

/**
 * Resolves once the workflow's first timer to fire has fired and the
 * workflow has completed the task that saw it: whatever the workflow does
 * right when that timer fires is then done.
 */
export async function firstTimerHandled(handle: WorkflowHandle): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const events = (await handle.fetchHistory()).events ?? [];
    const fired = events.findIndex((e) => e.eventType === EventType.EVENT_TYPE_TIMER_FIRED);
    if (fired >= 0 && events.slice(fired).some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED))
      return;
    if (Date.now() > deadline) assert.fail('no timer fired and got handled in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
