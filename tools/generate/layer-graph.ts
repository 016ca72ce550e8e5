/**
 * `npm run deps:graph`: the layer drawing of docs/ARCHITECTURE.md as the code has it. It reads
 * dependency-cruiser's JSON (on standard input) and .dependency-cruiser.cjs's layers, puts each module
 * in its layer (not its folder: a PSP's folder, src/psps/<name>/, holds modules of three layers, its
 * profile, its connector and its simulator) and prints, lowest layer first, which layers each one
 * imports. The layers are in the config's order, lowest first, so an arrow to a layer printed below
 * its own climbs: it is marked, and the command fails (`npm run lint:imports` names the import).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

/** The layers of the import rule, lowest first: each layer rule's name and the modules it holds. */
export function layersOf(config: { forbidden: { name: string; from: { path?: string } }[] }): [string, RegExp][] {
  return config.forbidden
    .filter((rule) => rule.name.startsWith('layer-'))
    .map((rule) => [rule.name.slice('layer-'.length), new RegExp(rule.from.path ?? '$^')]);
}

/** Each line of the drawing: a layer and the layers it imports, an arrow that climbs marked. */
export function layerGraph(result: CruiseResult, layers: [string, RegExp][]): { lines: string[]; climbing: number } {
  const layerOf = (path: string) => layers.find(([, pattern]) => pattern.test(path))?.[0];
  const order = layers.map(([name]) => name);
  const arrows = new Map<string, Set<string>>(order.map((name) => [name, new Set()]));
  for (const module of result.modules) {
    const from = layerOf(module.source);
    if (from === undefined) continue;
    for (const { resolved } of module.dependencies) {
      const to = layerOf(resolved);
      if (to !== undefined && to !== from) arrows.get(from)!.add(to);
    }
  }
  let climbing = 0;
  const lines = order.map((from) => {
    const targets = [...arrows.get(from)!]
      .sort((a, b) => order.indexOf(a) - order.indexOf(b))
      .map((to) => {
        if (order.indexOf(to) < order.indexOf(from)) return to;
        climbing++;
        return `${to} (climbs)`;
      });
    return `${from} → ${targets.length === 0 ? '(nothing)' : targets.join(', ')}`;
  });
  return { lines, climbing };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as Parameters<typeof layersOf>[0];
  const { lines, climbing } = layerGraph(JSON.parse(readFileSync(0, 'utf8')) as CruiseResult, layersOf(config));
  for (const line of lines) process.stdout.write(`${line}\n`);
  if (climbing > 0) {
    process.stderr.write(`${climbing} arrow(s) climb: see npm run lint:imports\n`);
    process.exitCode = 1;
  }
}
