/**
 * Where every suite leaves what it produced (logs, screenshots, figures): the
 * folder `npm test` names in TEST_ARTIFACTS, or test-artifacts/ for a bare
 * mocha run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export const ARTIFACTS = process.env.TEST_ARTIFACTS ?? join(process.cwd(), 'test-artifacts');

/** The machine figures were measured on, with what a suite adds about it. */
export function machine(more: Record<string, unknown>): Record<string, unknown> {
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    ...more,
  };
}

/** Adds one scenario's figures to a JSON file of figures, stamped with the machine and the time of the run. */
export function recordFiguresIn(
  file: string,
  scenario: string,
  figures: unknown,
  onMachine: Record<string, unknown>,
): void {
  const all = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  all.machine = onMachine;
  all.run_at = new Date().toISOString();
  all[scenario] = figures;
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}
