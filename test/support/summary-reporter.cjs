/**
 * Mocha's spec reporter, then one last block: the failing tests' full titles and the first line of each
 * error. A run's log is often read from its end only (CI keeps the tail), and spec's own list of failures
 * puts a long stack after each, so the names of all but the last are cut off there.
 * CommonJS, as mocha's own reporters are: mocha requires it with `require`.
 */
'use strict';
const { inspect } = require('node:util');
const Mocha = require('mocha');

const { Spec } = Mocha.reporters;
const { EVENT_RUN_END, EVENT_TEST_FAIL, EVENT_TEST_END, EVENT_HOOK_END } = Mocha.Runner.constants;
const path = require('node:path');
const fs = require('node:fs');

/** How many of the slowest files the run's end names (all of them go to test-artifacts/file-times.json). */
const SLOWEST_SHOWN = 12;

/** The first line of an error's message that says something (an assertion's message may start blank). */
function firstLine(error) {
  // node:assert's own message for a comparison is a header and a diff: the values say more, on one line.
  if (error && error.name === 'AssertionError' && error.generatedMessage && 'actual' in error) {
    const short = (v) => inspect(v, { depth: 2, breakLength: Infinity, maxArrayLength: 5, maxStringLength: 120 });
    return `AssertionError: ${short(error.actual)} ${error.operator ?? 'vs'} ${short(error.expected)}`.slice(0, 400);
  }
  const text = error && typeof error.message === 'string' ? error.message : String(error);
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const name = error && error.name && error.name !== 'Error' ? `${error.name}: ` : '';
  return `${name}${line.trim()}`.slice(0, 400);
}

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const failed = [];
    // Wall time per file: from the end of the previous test or hook to the end of this one, so a file's
    // before/after hooks count against it. Where a suite's time goes is what makes it faster (docs/TESTING.md).
    const perFile = new Map();
    let last = Date.now();
    const charge = (runnable) => {
      const now = Date.now();
      const file = runnable.file ? path.relative(process.cwd(), runnable.file) : '(root hooks)';
      perFile.set(file, (perFile.get(file) ?? 0) + (now - last));
      last = now;
    };
    runner.on(EVENT_TEST_END, charge);
    runner.on(EVENT_HOOK_END, charge);
    runner.on(EVENT_TEST_FAIL, (test, error) => {
      const file = test.file ? ` (${require('node:path').relative(process.cwd(), test.file)})` : '';
      failed.push(`${test.fullTitle()}${file}\n      ${firstLine(error)}`);
    });
    // Registered after Spec's own epilogue: printed after it, as the run's last lines.
    runner.once(EVENT_RUN_END, () => {
      const times = [...perFile].sort((a, b) => b[1] - a[1]);
      const artifacts = process.env.TEST_ARTIFACTS;
      if (artifacts !== undefined && artifacts !== '') {
        const suite = process.env.DARGAH_SUITE ?? 'main';
        fs.mkdirSync(artifacts, { recursive: true });
        fs.writeFileSync(
          path.join(artifacts, `file-times.${suite}.json`),
          JSON.stringify(Object.fromEntries(times.map(([f, ms]) => [f, ms])), null, 2),
        );
      }
      if (times.length > 1) {
        process.stdout.write(`\nSlowest files:\n`);
        for (const [file, ms] of times.slice(0, SLOWEST_SHOWN))
          process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`);
      }
      if (failed.length === 0) return;
      process.stdout.write(`\nFailing tests (${failed.length}), the first line of each error:\n`);
      failed.forEach((f, i) => process.stdout.write(`  ${i + 1}) ${f}\n`));
    });
  }
}

module.exports = SummaryReporter;
