/**
 * Runs last: no API key, webhook secret or full card number appears in the
 * logs of the main suite (test-artifacts/suite.log) or of any process the
 * fault suite started.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS } from '../support/artifacts.ts';
import { FAULT_LOGS, issuedSecrets } from '../support/faults/fault-stack.ts';

const SECRET_PATTERNS: [string, RegExp][] = [
  ['API key', /sk_(test|live)_[A-Za-z0-9_-]{20,}/],
  ['webhook secret', /whsec_[A-Za-z0-9+/=]{16,}/],
  // A card number: 16 to 19 digits in a row (ours are 603799…), unmasked.
  ['card number', /(?<![0-9A-Za-z_])(?:603799|[2-6][0-9]{5})[0-9]{10,13}(?![0-9A-Za-z_])/],
];

describe('secrets never reach the logs', () => {
  it('the suite log and every fault-suite process log are free of keys, webhook secrets and card numbers', () => {
    const files = [
      join(ARTIFACTS, 'suite.log'),
      ...(existsSync(FAULT_LOGS) ? readdirSync(FAULT_LOGS).map((f) => join(FAULT_LOGS, f)) : []),
    ].filter((f) => existsSync(f));
    assert.ok(
      files.some((f) => f.includes('worker-')),
      'the worker logs were scanned',
    );
    let lines = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      lines += text.split('\n').length;
      for (const [what, pattern] of SECRET_PATTERNS) {
        const found = pattern.exec(text);
        assert.equal(found, null, `${what} in ${file}: ${found?.[0].slice(0, 12) ?? ''}…`);
      }
      for (const secret of issuedSecrets) assert.ok(!text.includes(secret), `an issued secret appears in ${file}`);
    }
    assert.ok(issuedSecrets.length > 0 && lines > 100, 'there was something to scan');
  });
});
