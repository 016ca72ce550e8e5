/**
 * A first run's long steps say how they are going (tools/launcher/progress.mjs,
 * go-build.mjs): a line at least every 15 s, with what has been done so far and
 * the time taken. The Go build runs here for real as a program, against a `go`
 * of our own on PATH that downloads and compiles nothing but speaks as
 * `go install -v` does, slowly; the interval is shortened for the test.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GO_BUILD_SCRIPT } from '../../../tools/launcher/go-build.mjs';
import { elapsed, PROGRESS_INTERVAL_MS, reportProgress, runStep } from '../../../tools/launcher/progress.mjs';

describe('the launcher says how its long steps are going', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dargah-progress-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('at least every 15 s', () => {
    assert.ok(PROGRESS_INTERVAL_MS <= 15_000, `${PROGRESS_INTERVAL_MS} ms`);
  });

  it('writes the time taken as a person reads it', () => {
    assert.equal(elapsed(4_400), '4 s');
    assert.equal(elapsed(95_000), '1 min 35 s');
    assert.equal(elapsed(600_000), '10 min 00 s');
  });

  it('prints what a step has done and its time until it is stopped, then its end', async () => {
    const lines: string[] = [];
    let done = 0;
    const stop = reportProgress(
      'Counting',
      () => `${done} done`,
      (l) => lines.push(l),
      40,
    );
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 50));
      done += 1;
    }
    stop('finished');
    const count = lines.length;
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(lines.length, count, 'nothing after the stop');
    assert.ok(count >= 3, lines.join('\n'));
    assert.match(lines[0]!, /^… Counting: \d done \(0 s\)$/);
    assert.match(lines.at(-1)!, /^Counting: finished in 0 s\.$/);
  });

  it('runs a command as a step: its exit status, and its last lines of standard error', async () => {
    const seen: string[] = [];
    const { status, tail } = await runStep('sh', ['-c', 'for i in $(seq 1 40); do echo "line $i" >&2; done; exit 3'], {
      label: 'Failing',
      onLine: (l) => seen.push(l),
      log: () => undefined,
    });
    assert.equal(status, 3);
    assert.equal(seen.length, 40);
    assert.deepEqual(
      tail,
      Array.from({ length: 30 }, (_, i) => `line ${i + 11}`),
    );
  });

  it('a Go build counts the modules downloaded and the packages compiled, every interval, until it is built', async function () {
    this.timeout(30_000);
    const gobin = join(dir, 'gobin');
    // Speaks as go install -v does: modules first, then one line a package, over about 3 s.
    const fakeGo = join(dir, 'go');
    writeFileSync(
      fakeGo,
      [
        '#!/bin/sh',
        '[ "$1" = version ] && { echo "go version go1.26 linux/amd64"; exit 0; }',
        'for m in a b c; do echo "go: downloading example.com/$m v1.0.0" >&2; sleep 0.4; done',
        'for p in example.com/a example.com/a/internal/x example.com/b example.com/c/cmd/tool; do echo "$p" >&2; sleep 0.4; done',
        'printf "#!/bin/sh\\necho tool 1.0\\n" > "$GOBIN/tool"; chmod +x "$GOBIN/tool"',
      ].join('\n'),
    );
    chmodSync(fakeGo, 0o755);
    const started = Date.now();
    const stamps: { at: number; line: string }[] = [];
    const status = await new Promise<number>((resolve) => {
      const child = spawn(
        process.execPath,
        [GO_BUILD_SCRIPT, gobin, 'the tool v1.0.0', 'example.com/c/cmd/tool@v1.0.0'],
        {
          env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, DARGAH_PROGRESS_INTERVAL_MS: '500' },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        for (const line of chunk.split('\n').filter((l) => l !== '')) stamps.push({ at: Date.now() - started, line });
      });
      child.on('close', (code) => resolve(code ?? 1));
    });
    assert.equal(status, 0, stamps.map((s) => s.line).join('\n'));
    const lines = stamps.map((s) => s.line);
    assert.match(
      lines[0]!,
      /^Building the tool v1\.0\.0 with go install into .*gobin \(first run only; a few minutes\)…$/,
    );
    assert.ok(
      lines.some((l) =>
        /^… Building the tool v1\.0\.0: [1-3] Go modules downloaded, [0-4] packages compiled \(\d+ s\)$/.test(l),
      ),
      lines.join('\n'),
    );
    assert.match(
      lines.at(-1)!,
      /^Built the tool v1\.0\.0 in \d+ s \(3 Go modules downloaded, 4 packages compiled\)\.$/,
    );
    // Never silent for longer than the interval (and a little for a busy machine).
    const gaps = stamps.slice(1).map((s, i) => s.at - stamps[i]!.at);
    assert.ok(Math.max(...gaps) < 500 + 700, `gaps ${gaps.join(', ')} ms`);
  });
});
