/**
 * The patches of the workflows have one home (workflows/patches.ts): every `patched()` and
 * `deprecatePatch()` call of workflows/ asks one of its constants, from the file the inventory names, as
 * its stage says (docs/ARCHITECTURE.md#the-patch-policy); every patch not removed is asked; the generation
 * of fixtures it names holds its marker, and the fixtures its deprecation retired are gone;
 * ARCHITECTURE.md's inventory is written from it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as patches from '../../../workflows/patches.ts';
import { inventoryIsStale } from '../../../tools/generate/patches.ts';
import { committedHistories, historyText } from '../../support/replay.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'histories');
/** Each exported id constant of patches.ts by its name. */
const CONSTANTS = new Map(
  Object.entries(patches as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
);
const nameOf = (id: string) => [...CONSTANTS].find(([, value]) => value === id)?.[0];

/** Every `patched(…)` and `deprecatePatch(…)` call in workflows/, by file: which, and the argument as written. */
function patchCalls(): { file: string; call: 'patched' | 'deprecatePatch'; argument: string }[] {
  return (
    readdirSync(join(ROOT, 'workflows'))
      // patches.ts declares the ids and names patched() in its comment; the workflows ask them.
      .filter((f) => f.endsWith('.ts') && f !== 'patches.ts')
      .flatMap((f) =>
        [...readFileSync(join(ROOT, 'workflows', f), 'utf8').matchAll(/\b(patched|deprecatePatch)\(([^)]*)\)/g)].map(
          (m) => ({
            file: `workflows/${f}`,
            call: m[1] as 'patched' | 'deprecatePatch',
            argument: m[2]!.trim(),
          }),
        ),
      )
  );
}
/** The call each stage asks with: an active patch patched(), a deprecated one deprecatePatch(), a removed one none. */
const CALL_OF_STAGE = { active: 'patched', deprecated: 'deprecatePatch', removed: undefined } as const;

describe('the workflows’ patches, one list (workflows/patches.ts)', () => {
  it('every patched() and deprecatePatch() call asks a constant of the list, from the file the inventory names, as its stage says, and every patch not removed is asked', () => {
    const calls = patchCalls();
    for (const { file, call, argument } of calls) {
      assert.ok(CONSTANTS.has(argument), `${file}: ${call}(${argument}) must ask a constant of workflows/patches.ts`);
      const entry = patches.PATCH_INVENTORY.find((p) => p.id === CONSTANTS.get(argument));
      assert.ok(entry !== undefined, `${argument} is in PATCH_INVENTORY`);
      assert.equal(entry.file, file, `${entry.id} is asked in ${file}`);
      assert.equal(call, CALL_OF_STAGE[entry.stage], `${entry.id} is ${entry.stage}: asked with ${call}()`);
    }
    for (const { id, stage } of patches.PATCH_INVENTORY)
      assert.equal(
        calls.some((c) => c.argument === nameOf(id)),
        stage !== 'removed',
        `${id} (${stage}) is asked by some workflow unless removed`,
      );
    assert.equal(new Set(patches.PATCH_INVENTORY.map((p) => p.id)).size, patches.PATCH_INVENTORY.length, 'no id twice');
    assert.equal(patches.PATCH_INVENTORY.length, CONSTANTS.size, 'every constant is in the inventory');
  });

  it('a deprecated or removed patch says when and which old-path fixtures it retired, and they are gone', () => {
    for (const { id, stage, added, deprecated } of patches.PATCH_INVENTORY) {
      assert.match(added, /^\d{4}-\d{2}-\d{2}$/, `${id}: added is a day`);
      assert.equal(deprecated !== undefined, stage !== 'active', `${id} (${stage}): its deprecation is recorded`);
      if (deprecated === undefined) continue;
      assert.match(deprecated.on, /^\d{4}-\d{2}-\d{2}$/, `${id}: deprecated on a day`);
      assert.ok(deprecated.on >= added, `${id}: deprecated after it was added`);
      for (const fixture of deprecated.retired === '' ? [] : deprecated.retired.split(', '))
        assert.equal(
          existsSync(join(FIXTURES, `${fixture}.history.bin`)),
          false,
          `${fixture}, of ${id}'s old path, is retired`,
        );
    }
  });

  it('no workflow file declares a patch id of its own', () => {
    for (const f of readdirSync(join(ROOT, 'workflows')).filter((n) => n.endsWith('.ts') && n !== 'patches.ts')) {
      assert.doesNotMatch(readFileSync(join(ROOT, 'workflows', f), 'utf8'), /export const \w*PATCH\w* = '/, f);
    }
  });

  it('the generation of fixtures each patch names holds its marker', () => {
    for (const { id, fixtures } of patches.PATCH_INVENTORY) {
      if (fixtures === '') continue;
      const marked = fixtures.split(', ').some((generation) => {
        const [folder, prefix] = generation.includes('/') ? generation.split('/') : ['', generation];
        return committedHistories(join(FIXTURES, folder!))
          .filter((h) => h.workflowId.startsWith(`${prefix}-`))
          .some((h) => historyText(h.history).includes(id));
      });
      assert.ok(marked, `a committed ${fixtures} history carries ${id}`);
    }
  });

  it("ARCHITECTURE.md's inventory is the list's (npm run generate:patches)", () => {
    assert.equal(inventoryIsStale(ROOT), false, 'run npm run generate:patches and commit what it writes');
  });
});
