/**
 * The CLI parses every command's flags with one option table (src/cli/main.ts), spread from each
 * command group's set. A name two groups define differently would be silently replaced by the
 * later one (as `reconcile import`'s single `--file` once replaced `documents submit`'s repeated one).
 */
import assert from 'node:assert/strict';
import { BANK_SIM_OPTIONS } from '../../src/cli/bank-sim-commands.ts';
import { DIRECT_DEBIT_OPTIONS } from '../../src/cli/direct-debit-commands.ts';
import { ONBOARDING_OPTIONS } from '../../src/cli/onboarding-commands.ts';
import { PSP_OPTIONS } from '../../src/cli/psp-commands.ts';
import { RECONCILE_OPTIONS } from '../../src/cli/reconcile-commands.ts';

describe('the CLI option sets', () => {
  it("define each flag one way: no group replaces another group's definition of a shared name", () => {
    const groups: Record<string, Record<string, unknown>> = {
      ONBOARDING_OPTIONS,
      PSP_OPTIONS,
      BANK_SIM_OPTIONS,
      RECONCILE_OPTIONS,
      DIRECT_DEBIT_OPTIONS,
    };
    const first = new Map<string, { group: string; definition: string }>();
    const conflicts: string[] = [];
    for (const [group, options] of Object.entries(groups)) {
      for (const [name, definition] of Object.entries(options)) {
        const seen = first.get(name);
        const shape = JSON.stringify(definition);
        if (seen === undefined) first.set(name, { group, definition: shape });
        else if (seen.definition !== shape)
          conflicts.push(`--${name}: ${seen.group} ${seen.definition}, ${group} ${shape}`);
      }
    }
    assert.deepEqual(conflicts, []);
    assert.ok(first.size > 10, 'the sets were read');
  });
});
