/**
 * `npm run generate:patches`: writes docs/ARCHITECTURE.md's inventory of workflow patches from
 * workflows/patches.ts (PATCH_INVENTORY), between its markers; `--check` exits 1 when the committed
 * text differs (test/unit/workflows-patches.test.ts runs the same check).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATCH_INVENTORY, type PatchEntry } from '../../workflows/patches.ts';
import { replaceBlock } from './psps.ts';

const FILE = 'docs/ARCHITECTURE.md';
const BLOCK = 'workflow-patches';

/** The inventory's table: one row per patch, in the order they shipped, with its stage (docs/ARCHITECTURE.md#the-patch-policy). */
export function patchInventoryLines(): string[] {
  const named = (list: string) =>
    list
      .split(', ')
      .map((g) => `\`${g}\``)
      .join(', ');
  const fixtures = (generation: string) =>
    generation === '' ? 'the workflow tests (no committed history)' : named(generation);
  const stage = (p: PatchEntry) => (p.deprecated === undefined ? p.stage : `${p.stage} ${p.deprecated.on}`);
  const retired = (p: PatchEntry) =>
    p.deprecated === undefined ? '' : p.deprecated.retired === '' ? 'none took it' : named(p.deprecated.retired);
  return [
    '| patch | workflow | added | stage | asked in | fixtures of its new path | old-path fixtures retired |',
    '|---|---|---|---|---|---|---|',
    ...PATCH_INVENTORY.map(
      (p) =>
        `| \`${p.id}\` | ${p.workflow} | ${p.added} | ${stage(p)} | \`${p.file}\` | ${fixtures(p.fixtures)} | ${retired(p)} |`,
    ),
  ];
}

/** docs/ARCHITECTURE.md as the inventory would have it. */
export function architectureWithInventory(root: string): string {
  return replaceBlock(readFileSync(join(root, FILE), 'utf8'), FILE, BLOCK, patchInventoryLines());
}

/** Whether the committed docs/ARCHITECTURE.md differs from what the inventory gives. */
export const inventoryIsStale = (root: string) =>
  readFileSync(join(root, FILE), 'utf8') !== architectureWithInventory(root);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  if (process.argv.includes('--check')) {
    if (inventoryIsStale(root)) {
      process.stderr.write(
        `${FILE}: its inventory of workflow patches is not workflows/patches.ts's. Run npm run generate:patches.\n`,
      );
      process.exit(1);
    }
  } else {
    writeFileSync(join(root, FILE), architectureWithInventory(root));
  }
}
