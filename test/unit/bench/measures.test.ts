import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import proto from '@temporalio/proto';
import { dayFates, DEFAULT_DAY_MIX } from '../../../tools/bench/day.ts';
import { mergeBaselines } from '../../../tools/bench/durable.ts';
import { fixedRate } from '../../../tools/bench/fixed-rate.ts';
import { mergeScenarios } from '../../../tools/bench/load.ts';
import { countHistory, cpuMs } from '../../../tools/bench/work.ts';

const { EventType } = proto.temporal.api.enums.v1;

describe('benchmark measures', () => {
  it('counts a history by what each event costs: completed workflow tasks, failed ones apart, activity tasks, local-activity and patch markers apart', () => {
    const events = [
      { eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED },
      { eventType: EventType.EVENT_TYPE_MARKER_RECORDED, markerRecordedEventAttributes: { markerName: 'core_patch' } },
      {
        eventType: EventType.EVENT_TYPE_MARKER_RECORDED,
        markerRecordedEventAttributes: { markerName: 'core_local_activity' },
      },
      { eventType: EventType.EVENT_TYPE_MARKER_RECORDED, markerRecordedEventAttributes: { markerName: 'another' } },
      { eventType: EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED },
      { eventType: EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES },
      { eventType: EventType.EVENT_TYPE_TIMER_STARTED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED },
      { eventType: EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED },
    ];
    assert.deepEqual(countHistory(events), {
      history_events: 18,
      workflow_tasks: 2,
      workflow_tasks_failed: 1,
      activity_tasks: 1,
      local_activities: 1,
      patches: 1,
      timers: 1,
      search_attribute_upserts: 1,
      updates: 1,
      signals: 1,
      runs: 1,
    });
  });

  it('a simulated day has exactly its payments, ends them in the mix given, and spreads each end through the day', () => {
    const fates = dayFates(1_000, DEFAULT_DAY_MIX, 100);
    const tally = (list: string[]) =>
      Object.fromEntries([...new Set(list)].sort().map((fate) => [fate, list.filter((f) => f === fate).length]));
    assert.deepEqual(tally(fates), {
      canceled: 45,
      declined: 90,
      expired: 135,
      in_flight: 100,
      refunded: 45,
      verified: 585,
    });
    // Every tenth of the day has every end.
    for (let tenth = 0; tenth < 10; tenth++)
      assert.equal(Object.keys(tally(fates.slice(tenth * 100, tenth * 100 + 100))).length, 6, `tenth ${tenth}`);
    // A day smaller than what is left in flight ends nothing.
    assert.deepEqual(dayFates(3, DEFAULT_DAY_MIX, 5), ['in_flight', 'in_flight', 'in_flight']);
  });

  it('fixed rate is an open loop: every request of the schedule is sent while none has been answered yet', async () => {
    const held: ServerResponse[] = [];
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      held.push(res);
      // Nothing is answered until the whole schedule has arrived: a closed loop would wait forever.
      if (held.length === 10)
        for (const waiting of held) waiting.writeHead(req.url === '/refuse' ? 500 : 201).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const [accepted] = await fixedRate(
        [
          {
            name: 'create',
            rate: 20,
            request: () => ({ url: `${url}/ok`, init: { method: 'POST', body: '{}' }, expectedStatus: 201 }),
          },
        ],
        0.5,
        () => {},
      );
      assert.deepEqual([accepted!.name, accepted!.requests, accepted!.errors], ['create', 10, 0]);
      assert.ok(accepted!.p99_ms >= accepted!.p50_ms);
      held.length = 0;
      const [refused] = await fixedRate(
        [
          {
            name: 'create',
            rate: 20,
            request: () => ({ url: `${url}/refuse`, init: { method: 'POST', body: '{}' }, expectedStatus: 201 }),
          },
        ],
        0.5,
        () => {},
      );
      assert.deepEqual([refused!.requests, refused!.errors], [10, 10]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('sums the halves of a scenario as one run: operations over the seconds they took together, percentiles of every latency (the baseline) or weighted by requests (autocannon)', () => {
    const half = (latencies: number[], seconds: number) => ({
      result: {
        rps: latencies.length / seconds,
        p50_ms: 0,
        p90_ms: 0,
        p99_ms: 0,
        operations: latencies.length,
        duration_s: seconds,
      },
      latencies: [...latencies].sort((a, b) => a - b),
    });
    const baseline = mergeBaselines([half([10, 20, 30, 40], 2), half([50, 60, 70, 80, 90, 100], 3)]);
    assert.deepEqual(baseline, { rps: 2, p50_ms: 50, p90_ms: 90, p99_ms: 100, operations: 10, duration_s: 5 });

    const run = (rps: number, seconds: number, p50: number, p99: number, errors: number) => ({
      name: 'create',
      rps,
      p50_ms: p50,
      p90_ms: p50 * 2,
      p99_ms: p99,
      errors,
      requests: rps * seconds + errors,
      duration_s: seconds,
    });
    const create = mergeScenarios([run(100, 10, 40, 200, 0), run(50, 30, 100, 150, 2)]);
    // 1 000 + 1 500 created in 40 s: 62.5/s, not 75, the mean of the halves' rates.
    assert.equal(create.rps, 62.5);
    assert.equal(create.requests, 2502);
    assert.equal(create.errors, 2);
    assert.equal(create.duration_s, 40);
    assert.equal(create.p50_ms, Math.round(((40 * 1000 + 100 * 1502) / 2502) * 100) / 100);
    assert.equal(create.p99_ms, 200);
  });

  it('reads a process CPU time from /proc, growing as the process works', () => {
    const before = cpuMs(process.pid);
    assert.ok(Number.isFinite(before) && before > 0);
    // Work until the kernel has counted a tick of it (10 ms of CPU), however busy the machine is.
    let after = before;
    let x = 0;
    for (let round = 0; after === before && round < 100_000; round++) {
      for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + i);
      after = cpuMs(process.pid);
    }
    assert.ok(x > 0 && after > before, `${before} → ${after}`);
  });
});
