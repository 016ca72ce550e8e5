import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { localProcessPid, parsePrometheus, type SystemSample } from '../../../tools/bench/sample.ts';
import { cpuPerPayment } from '../../../tools/bench/soak.ts';
import { renderSvg, ticks } from '../../../tools/bench/plot.ts';
import { parseSoakArgs } from '../../../tools/bench/soak-cli.ts';
import { memoryCeilingMb, withHeapLimit } from '../../../tools/launcher/memory.ts';

describe('the soak, without services', () => {
  it('reads the soak from the command line: minutes, interval, rate or fraction, page lifetime, output directory', () => {
    assert.equal(parseSoakArgs(['--quick'], '/data'), undefined);
    const soak = parseSoakArgs(['--soak', '60', '--out', '/tmp/x'], '/data')!;
    assert.deepEqual(
      [
        soak.plan.minutes,
        soak.plan.intervalSeconds,
        soak.plan.rate,
        soak.plan.capacityFraction,
        soak.plan.paymentTtlSeconds,
        soak.outDir,
      ],
      [60, 300, undefined, 0.4, 900, '/tmp/x'],
    );
    const short = parseSoakArgs(['--soak', '5', '--rate', '3', '--interval', '1', '--ttl', '60'], '/data')!;
    assert.deepEqual(
      [short.plan.intervalSeconds, short.plan.rate, short.plan.paymentTtlSeconds, short.outDir],
      [60, 3, 60, '/data/soak'],
    );
    // About twelve samples by default, never closer than 30 s.
    assert.equal(parseSoakArgs(['--soak', '5'], '/data')!.plan.intervalSeconds, 30);
    assert.equal(parseSoakArgs(['--soak', '10', '--fraction', '0.3'], '/data')!.plan.capacityFraction, 0.3);
    assert.throws(() => parseSoakArgs(['--soak', 'x'], '/data'), /--soak takes/);
    assert.throws(() => parseSoakArgs(['--soak', '5', '--fraction', '2'], '/data'), /--fraction takes/);
  });

  it("divides each process's CPU between two samples by the payments made; a process missing from either is left out", () => {
    const sample = (processes: SystemSample['processes']): SystemSample => ({
      processes,
      open_workflows: 0,
      open_workflows_by_type: {},
      storage: { mysql_bytes: 0, mysql_rows: 0, mysql_tables: {}, temporal_bytes: 0 },
    });
    const before = sample([
      { name: 'worker', cpu_ms: 1_000 },
      { name: 'mysql', cpu_ms: 500 },
      { name: 'gone', cpu_ms: 10 },
    ]);
    const after = sample([
      { name: 'worker', cpu_ms: 6_000 },
      { name: 'mysql', cpu_ms: 1_500 },
      { name: 'new', cpu_ms: 40 },
    ]);
    assert.deepEqual(cpuPerPayment(before, after, 100), { worker: 50, mysql: 10 });
    assert.deepEqual(cpuPerPayment(before, after, 0), {});
  });

  it('finds a local process by its command name, and nothing for a name no process has', () => {
    // This test's own process is one such: whatever its command name, a process of that name is found.
    const ownName = readFileSync(`/proc/${process.pid}/comm`, 'utf8').trim();
    assert.equal(typeof localProcessPid([ownName]), 'number');
    assert.equal(localProcessPid(['no-such-command-dargah']), undefined);
  });

  it('reads Prometheus text: samples summed over their labels, the kind label kept apart', () => {
    const text = [
      '# HELP nodejs_heap_size_used_bytes Process heap size used from Node.js in bytes.',
      '# TYPE nodejs_heap_size_used_bytes gauge',
      'nodejs_heap_size_used_bytes 52428800',
      'dargah_worker_threads_heap_bytes{kind="used"} 1048576',
      'dargah_worker_threads_heap_bytes{kind="total"} 2097152',
      'temporal_sticky_cache_size{namespace="default",task_queue="payments"} 7',
      'temporal_sticky_cache_size{namespace="default",task_queue="payments-webhooks"} 2',
      'nodejs_eventloop_lag_p99_seconds 0.0125',
      'broken line',
    ].join('\n');
    const m = parsePrometheus(text);
    assert.equal(m.get('nodejs_heap_size_used_bytes'), 52_428_800);
    assert.equal(m.get('dargah_worker_threads_heap_bytes{kind=used}'), 1_048_576);
    assert.equal(m.get('dargah_worker_threads_heap_bytes{kind=total}'), 2_097_152);
    assert.equal(m.get('temporal_sticky_cache_size'), 9);
    assert.equal(m.get('nodejs_eventloop_lag_p99_seconds'), 0.0125);
    assert.equal(m.has('broken'), false);
  });

  it('draws round ticks that cover the data, and an SVG whose lines break where a value is missing', () => {
    assert.deepEqual(ticks(0, 728), [0, 200, 400, 600, 800]);
    assert.deepEqual(ticks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(ticks(0, 0.3), [0, 0.1, 0.2, 0.3]);
    assert.deepEqual(ticks(5, 5), [5]);
    const svg = renderSvg(
      'T & <t>',
      'sub',
      [
        {
          title: 'Memory',
          unit: 'MB',
          series: [
            {
              name: 'a',
              points: [
                [0, 1],
                [1, 2],
                [2, undefined],
                [3, 4],
              ],
            },
          ],
        },
      ],
      'minutes',
    );
    assert.match(svg, /^<\?xml/);
    assert.match(svg, /T &amp; &lt;t&gt;/);
    assert.equal(svg.match(/<polyline /g)?.length, 1, 'one run of two points');
    assert.equal(svg.match(/<circle /g)?.length, 1, 'and a lone point drawn as a dot');
  });

  it('gives each process of the local stack its heap limit, unless NODE_OPTIONS names one', () => {
    assert.equal(withHeapLimit({}, 'worker').NODE_OPTIONS, '--max-old-space-size=512 --max-semi-space-size=16');
    assert.equal(
      withHeapLimit({ NODE_OPTIONS: '--enable-source-maps' }, 'api').NODE_OPTIONS,
      '--enable-source-maps --max-old-space-size=256 --max-semi-space-size=16',
    );
    // Both isolates of the worker at their limits, and what lies outside them.
    assert.equal(memoryCeilingMb('worker'), 2 * (512 + 48) + 256);
    assert.equal(
      withHeapLimit({ NODE_OPTIONS: '--max-old-space-size=2048' }, 'worker').NODE_OPTIONS,
      '--max-old-space-size=2048',
    );
  });
});
