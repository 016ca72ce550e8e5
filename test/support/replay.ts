/**
 * What every replay test does with workflow histories: keep a fresh one as a
 * committed fixture when asked (`RECORD_…=v<n>`), read the committed ones,
 * and replay a set against the suite's workflow bundle, failing on the first
 * history the current code cannot replay.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import proto from '@temporalio/proto';

const { History } = proto.temporal.api.history.v1;
type History = proto.temporal.api.history.v1.IHistory;

export interface NamedHistory {
  workflowId: string;
  history: History;
}

/** Writes `history` as `<dir>/<generation>-<path>.history.bin` when `$<generationVariable>` names a generation (v1, v2…). */
export function recordFixture(dir: string, generationVariable: string, path: string, history: History): void {
  const generation = process.env[generationVariable];
  if (generation === undefined || !/^v\d+$/.test(generation)) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${generation}-${path}.history.bin`), History.encode(history).finish());
}

/** The committed fixtures of `dir` (not of its subfolders), named by file. */
export function committedHistories(dir: string): NamedHistory[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.history.bin'))
    .map((f) => ({ workflowId: f, history: History.decode(readFileSync(join(dir, f))) }));
}

/** Replays every history with the bundle's code; answers how many replayed. */
export async function replayAll(bundle: WorkflowBundleWithSourceMap, histories: NamedHistory[]): Promise<number> {
  let count = 0;
  for await (const result of Worker.runReplayHistories({ workflowBundle: bundle }, histories)) {
    assert.equal(result.error, undefined, `${result.workflowId}: ${String(result.error)}`);
    count += 1;
  }
  return count;
}

/**
 * Every string of a history, each payload's bytes decoded (its JSON form would show them in
 * base64, where no card number or patch name could ever be found).
 */
export function historyText(history: unknown): string {
  const parts: string[] = [];
  const walk = (value: unknown): void => {
    if (value instanceof Uint8Array) parts.push(Buffer.from(value).toString('utf8'));
    else if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
  };
  walk(history);
  return parts.join('\n');
}
