/**
 * The patches of the workflows have one home (workflows/patches.ts): every `patched()` call of
 * workflows/ asks one of its constants, from the file the inventory names; every patch is asked; the
 * generation of fixtures it names holds its marker; ARCHITECTURE.md's inventory is written from it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
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

/** Every `patched(…)` call in workflows/, by file: the argument as written. */
function patchedCalls(): { file: string; argument: string }[] {
  return (
    readdirSync(join(ROOT, 'workflows'))
      // patches.ts declares the ids and names patched() in its comment; the workflows ask them.
      .filter((f) => f.endsWith('.ts') && f !== 'patches.ts')
      .flatMap((f) =>
        [...readFileSync(join(ROOT, 'workflows', f), 'utf8').matchAll(/\bpatched\(([^)]*)\)/g)].map((m) => ({
          file: `workflows/${f}`,
          argument: m[1]!.trim(),
        })),
      )
  );
}

describe('the workflows’ patches, one list (workflows/patches.ts)', () => {
  it('every patched() call asks a constant of the list, from the file the inventory names, and every patch is asked', () => {
    const calls = patchedCalls();
    for (const { file, argument } of calls) {
      assert.ok(CONSTANTS.has(argument), `${file}: patched(${argument}) must ask a constant of workflows/patches.ts`);
      const entry = patches.PATCH_INVENTORY.find((p) => p.id === CONSTANTS.get(argument));
      assert.ok(entry !== undefined, `${argument} is in PATCH_INVENTORY`);
      assert.equal(entry.file, file, `${entry.id} is asked in ${file}`);
    }
    for (const { id } of patches.PATCH_INVENTORY)
      assert.ok(
        calls.some((c) => c.argument === nameOf(id)),
        `${id} is asked by some workflow`,
      );
    assert.equal(new Set(patches.PATCH_INVENTORY.map((p) => p.id)).size, patches.PATCH_INVENTORY.length, 'no id twice');
    assert.equal(patches.PATCH_INVENTORY.length, CONSTANTS.size, 'every constant is in the inventory');
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
