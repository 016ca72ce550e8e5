/**
 * `npm run docs:reliability`: copies the cluster suite's kill figures of its last passing run
 * (test-artifacts/cluster/reliability-section.md, which the suite writes and git ignores) into
 * docs/RELIABILITY.md between its cluster-figures markers. Run on purpose, after a cluster run on the
 * machine whose figures the document should show: a test run changes no tracked file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RELIABILITY_DOC = 'docs/RELIABILITY.md';
export const START_MARKER = '<!-- cluster-figures:start (npm run docs:reliability, after npm run test:cluster) -->';
export const END_MARKER = '<!-- cluster-figures:end -->';

/** Where the cluster suite leaves the rendered section of its last passing kill scenarios. */
export const reliabilitySectionFile = (artifacts = process.env.TEST_ARTIFACTS ?? 'test-artifacts') =>
  join(artifacts, 'cluster', 'reliability-section.md');

/** `doc` with the text between its markers replaced by `section` (which carries the markers). */
export function withSection(doc: string, section: string): string {
  const start = doc.indexOf(START_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`${RELIABILITY_DOC} has no cluster-figures markers`);
  return `${doc.slice(0, start)}${section}${doc.slice(end + END_MARKER.length)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = reliabilitySectionFile();
  if (!existsSync(file)) {
    process.stderr.write(
      `${file} is missing: run the cluster suite (npm run test:cluster) first; it writes it when every kill scenario passes.\n`,
    );
    process.exit(1);
  }
  writeFileSync(RELIABILITY_DOC, withSection(readFileSync(RELIABILITY_DOC, 'utf8'), readFileSync(file, 'utf8')));
  process.stdout.write(`${RELIABILITY_DOC}: the cluster figures of ${file}.\n`);
}
