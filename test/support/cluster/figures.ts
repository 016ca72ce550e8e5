/**
 * The cluster suite's figures: kept in test-artifacts/cluster.json during the
 * run, and rendered as docs/RELIABILITY.md's table into
 * test-artifacts/cluster/reliability-section.md when the kill scenarios pass;
 * `npm run docs:reliability` copies it into the document (a test run changes
 * no tracked file).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadavg } from 'node:os';
import { END_MARKER, reliabilitySectionFile, START_MARKER } from '../../../tools/generate/reliability.ts';
import { ARTIFACTS, machine, recordFiguresIn } from '../artifacts.ts';
import { CLUSTER_JSON } from './cluster-stack.ts';

export function recordClusterFigures(scenario: string, figures: unknown): void {
  recordFiguresIn(CLUSTER_JSON, scenario, figures, machine({ load_average_1m: Number(loadavg()[0]!.toFixed(1)) }));
}

export interface KillFigures {
  what: string;
  /** From the kill until the process served again. */
  down_ms: number;
  logical_operations: number;
  requests: number;
  answered_2xx_3xx_4xx: number;
  answered_503_with_retry_after: number;
  other_5xx: number;
  unanswered: number;
  lost: number;
  doubled: number;
  records_differing_from_workflows: number;
  /** From the restart until every record of the phase equalled its workflow and every operation finished. */
  converged_after_restart_ms: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The generated section: one row per kill. */
export function renderKillTable(
  kills: KillFigures[],
  context: { runAt: string; machine: string; bringUpMs: number },
): string {
  const rows = kills.map(
    (k) =>
      `| ${k.what} | ${seconds(k.down_ms)} | ${k.logical_operations} | ${k.requests} | ${k.answered_2xx_3xx_4xx} | ${k.answered_503_with_retry_after} | ${k.other_5xx} | ${k.unanswered} | ${k.lost} | ${k.doubled} | ${k.records_differing_from_workflows} | ${seconds(k.converged_after_restart_ms)} |`,
  );
  return [
    START_MARKER,
    `Run of ${context.runAt} on ${context.machine}; the whole topology came up in ${seconds(context.bringUpMs)}.`,
    '',
    '| Killed (SIGKILL unless said) | Down | Operations | Requests | Answered | 503 + Retry-After | Other 5xx | Unanswered | Lost | Doubled | Records ≠ workflows | All matched after restart |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    END_MARKER,
  ].join('\n');
}

/** Leaves the rendered section for `npm run docs:reliability` (test-artifacts/cluster/reliability-section.md). */
export function saveReliabilitySection(section: string): string {
  const file = reliabilitySectionFile(ARTIFACTS);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, section);
  return file;
}
