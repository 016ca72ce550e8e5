/** The ZarinPal Payman corpus (test/fixtures/direct-debit/zarinpal/), read for the tests that hold the connector and the simulator to it. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PaymanCorpusFile {
  provider: string;
  operation: string;
  direction: 'request' | 'answer' | 'redirect' | 'return';
  http: { method: string; path: string; encoding: string };
  message: {
    json?: Record<string, unknown>;
    order?: string[];
    status?: number;
    query?: Record<string, string>;
    url?: string;
  };
  outcome: string;
  code?: number;
  sources: { repo?: string; path?: string; url?: string; note: string }[];
  disagreements: string;
}

export const PAYMAN_CORPUS_DIR = join(import.meta.dirname, '..', 'fixtures', 'direct-debit', 'zarinpal');

export function loadPaymanCorpus(): Map<string, PaymanCorpusFile> {
  return new Map(
    readdirSync(PAYMAN_CORPUS_DIR)
      .filter((name) => name.endsWith('.json'))
      .map((name) => [
        name.replace(/\.json$/, ''),
        JSON.parse(readFileSync(join(PAYMAN_CORPUS_DIR, name), 'utf8')) as PaymanCorpusFile,
      ]),
  );
}

export function paymanCorpus(name: string): PaymanCorpusFile {
  const file = loadPaymanCorpus().get(name);
  if (file === undefined) throw new Error(`no corpus file ${name}`);
  return file;
}

/** The keys of an object, sorted (its shape), and of its `data` object when it has one. */
export function shapeOf(answer: unknown): { top: string[]; data: string[] } {
  const object = (answer ?? {}) as Record<string, unknown>;
  const data = object.data;
  return {
    top: Object.keys(object).sort(),
    data: typeof data === 'object' && data !== null && !Array.isArray(data) ? Object.keys(data).sort() : [],
  };
}
